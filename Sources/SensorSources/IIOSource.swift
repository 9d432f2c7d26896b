// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import EventLoop
import Orientation
import Sensors
import Log

/// The `iio` source: an IIO accelerometer in sysfs, read through its buffer when it has one and polled
/// otherwise (at `[Sensor] PollHz` while it moves, `[Sensor] StillPollHz` once it lies still: `PollPace`),
/// and only while someone claims (P16). Devices that come and go are
/// followed through kernel uevents (`HotplugMonitor`).
///
/// Faults (a read error, a vanished file, a garbage value) never produce a sample: the reading is
/// skipped, logged once per episode, and after a few in a row the orientation is reported unknown.
public final class IIOSource: SensorSource {
    private let feed: SampleFeed
    private unowned let sink: SensorSink
    private let configMatrix: MountMatrix?
    private let pollHz: Int
    private var pace: PollPace
    /// The poll timer's current interval.
    private var pollIntervalMs = 0
    private(set) var device: IIODevice?
    private var running = false
    private var pollTimer: EventLoop.Timer?
    /// The raw attributes, open while polling.
    private var rawFiles: IIORawFiles?
    /// An evdev accelerometer's node, open while polling.
    private var inputFiles: InputAccelerometerFiles?
    private var buffer: IIOBufferReader?
    /// The device whose buffer failed: it is polled from then on.
    private var bufferRefused: String?
    /// Scale and offset, read when reading starts and again after a fault.
    private var calibration: IIOCalibration?
    private var faults: FaultEpisode
    private var hotplug: HotplugMonitor?
    /// Accelerometers already logged as being in a laptop's base, so each is logged once.
    private var loggedInBase: Set<String> = []
    /// The sampling frequency raised for this claim, put back when it ends.
    private var raisedFrequency: RaisedSamplingFrequency?
    /// Devices whose sampling frequency change was logged (raised or refused), so each is logged once.
    private var loggedFrequency: Set<String> = []
    /// The device's motion events while claimed and polled: once it lies still it is not polled
    /// until they wake the reader (Docs/sensors.md, "Motion events").
    private var motion: IIOMotionEvents?
    /// The device whose motion events failed or woke the reader for nothing too often: polled at the
    /// still rate until the claim ends.
    private var motionRefused: String?
    /// Devices whose motion events were logged (used or refused), so each is logged once.
    private var loggedMotion: Set<String> = []
    /// When the last motion event woke the reader, and `pace.moves` then.
    private var wokeAt = -Double.infinity
    private var movesAtWake = 0
    /// Wake-ups in a row that found no movement.
    private var idleWakes = 0
    /// `[Sensor] StillAfterMs`, for a device polled at the still rate.
    private let stillAfterMs: Double
    /// Idle wake-ups in a row after which a device's motion events are no longer trusted for the claim.
    static let idleWakeLimit = 5

    /// Looks for a device now and watches for others; `configMatrix` overrides every other mount matrix.
    public init(feed: SampleFeed, sink: SensorSink, configMatrix: MountMatrix?, pace: PollPace) {
        self.feed = feed
        self.sink = sink
        self.configMatrix = configMatrix
        pollHz = pace.pollHz
        self.pace = pace
        stillAfterMs = pace.stillAfterMs
        // About a quarter of a second of failures (at least 3) before the pose is given up.
        faults = FaultEpisode(unknownAfter: max(3, self.pollHz / 4))
        device = look()
        if let device {
            describe(device)
            raiseToFloor(device)
        }
        hotplug = HotplugMonitor { [unowned self] event in handle(event) }
    }

    public var isPresent: Bool { device != nil }

    public func setRunning(_ running: Bool) {
        self.running = running
        if running { startReading() } else { stopReading() }
    }

    // MARK: Reading

    private func startReading() {
        guard running, let device, pollTimer == nil, buffer == nil else { return }
        calibration = nil
        feed.resume(adoptingFirstReading: true)
        if device.inputNode == nil { raiseSamplingFrequency(of: device) }
        if let support = device.buffer, bufferRefused != device.sysname {
            do {
                buffer = try IIOBufferReader(support, frame: { [unowned self] xyz in
                    take(Double(xyz[0]), Double(xyz[1]), Double(xyz[2]))
                }, failure: { [unowned self] problem in
                    buffer = nil
                    Log.warning("\(device.sysname): \(problem); polling at \(pollHz) Hz instead")
                    bufferRefused = device.sysname
                    startReading()
                })
                return
            } catch {
                Log.warning("\(device.sysname): buffered reading unavailable (\(error)); polling at \(pollHz) Hz instead")
                bufferRefused = device.sysname
            }
        }
        pace.reset()
        openMotionEvents(device)
        schedulePolls(every: pace.movingIntervalMs)
        poll()
    }

    /// Enables the device's motion events for this claim when it has them and they are wanted.
    private func openMotionEvents(_ device: IIODevice) {
        pace.stillAfterMs = stillAfterMs
        idleWakes = 0
        wokeAt = -.infinity
        guard device.inputNode == nil, let support = device.motion, let holdMs = pace.motionStillAfterMs,
              motionRefused != device.sysname else { return }
        let first = loggedMotion.insert(device.sysname).inserted
        do {
            motion = try IIOMotionEvents(support, devicePath: device.path, moved: { [unowned self] in motionWoke() },
                                         failed: { [unowned self] problem in refuseMotion(problem) })
            pace.stillAfterMs = holdMs
            if first {
                Log.info("\(device.sysname): not polled while still: \(motion!.description) wake it when it moves")
            }
        } catch {
            if first {
                Log.warning("\(device.sysname): motion events unavailable (\(error)); polled at \(SysfsNumber.decimal(1000 / pace.stillIntervalMs)) Hz once still")
            }
        }
    }

    /// The first motion event after stillness: polled at once and at the moving rate for at least
    /// the time to stillness, so a turn that starts slowly is followed.
    private func motionWoke() {
        guard running, pollTimer == nil, motion != nil else { return }
        wokeAt = SampleFeed.now
        movesAtWake = pace.moves
        schedulePolls(every: pace.movingIntervalMs)
        poll()
    }

    /// Motion events that failed, or woke the reader for nothing `idleWakeLimit` times in a row: the
    /// device is polled at the still rate until the claim ends.
    private func refuseMotion(_ problem: String) {
        motion?.close()
        motion = nil
        guard let device else { return }
        motionRefused = device.sysname
        pace.stillAfterMs = stillAfterMs
        Log.warning("\(device.sysname): \(problem); polled at \(SysfsNumber.decimal(1000 / pace.stillIntervalMs)) Hz once still until the claim ends")
        if running, pollTimer == nil { schedulePolls(every: pace.stillIntervalMs) }
    }

    /// Schedules the next poll after `sample`; a device whose motion events wake the reader and that
    /// has lain still long enough is not polled again until one does.
    private func reschedule(after sample: Sample) {
        var next = pace.interval(after: sample)
        if let motion {
            let waking = SampleFeed.now - wokeAt < pace.stillAfterMs
            if pace.isStill && !waking && feed.isSettled {
                if wokeAt > -.infinity {
                    idleWakes = pace.moves == movesAtWake ? idleWakes + 1 : 0
                    if idleWakes >= Self.idleWakeLimit {
                        return refuseMotion("\(idleWakes) motion events in a row came without movement")
                    }
                }
                pollTimer?.cancel()
                pollTimer = nil
                motion.arm()
                return
            }
            // Until the wake-up's window has passed; a pose not yet settled is polled at the still rate.
            if waking { next = min(next, pace.movingIntervalMs) }
        }
        schedulePolls(every: next)
    }

    /// (Re)arms the poll timer when the interval changes.
    private func schedulePolls(every intervalMs: Int) {
        guard running, pollTimer == nil || intervalMs != pollIntervalMs else { return }
        pollTimer?.cancel()
        pollIntervalMs = intervalMs
        pollTimer = EventLoop.Timer(everyMs: UInt32(intervalMs)) { [unowned self] in poll() }
    }

    private func stopReading() {
        pollTimer?.cancel()
        pollTimer = nil
        rawFiles = nil
        inputFiles = nil
        buffer?.close()
        buffer = nil
        motion?.close()
        motion = nil
        motionRefused = nil
        raisedFrequency?.restore()
        raisedFrequency = nil
        // The device may turn before the next claim: its pose is classified afresh then (P16).
        feed.pause()
        feed.reset()
    }

    /// A device slower than the poll rate would answer most polls with a stale value: it is sped up
    /// while claimed. One that refuses is read as it is.
    private func raiseSamplingFrequency(of device: IIODevice) {
        let first = loggedFrequency.insert(device.sysname).inserted
        do {
            raisedFrequency = try RaisedSamplingFrequency.raise(devicePath: device.path, to: pollHz)
            if let raised = raisedFrequency, first {
                Log.info("\(device.sysname): sampling frequency raised from \(raised.previous) to \(raised.raised) Hz while claimed")
            }
        } catch {
            if first { Log.warning("\(device.sysname): cannot raise the sampling frequency (\(error)); reading it as it is") }
        }
    }

    /// A device found is left sampling at 10 Hz at least (`RaisedSamplingFrequency.floorHz`), as the
    /// peer leaves it, whether or not anyone claims it.
    private func raiseToFloor(_ device: IIODevice) {
        guard device.inputNode == nil else { return }
        let written = RaisedSamplingFrequency.raiseToFloor(devicePath: device.path) { name, error in
            Log.warning("\(device.sysname): cannot raise \(name) to \(RaisedSamplingFrequency.floorHz) Hz: \(error)")
        }
        for (name, value) in written { Log.info("\(device.sysname): \(name) set to \(value) Hz, the lowest it is left at") }
    }

    /// One polled sample: the three raw attributes.
    private func poll() {
        guard let device else { return }
        do {
            let (x, y, z): (Double, Double, Double)
            if let node = device.inputNode {
                if inputFiles == nil { inputFiles = try InputAccelerometerFiles(node: node) }
                (x, y, z) = try inputFiles!.read()
            } else {
                if rawFiles == nil { rawFiles = try IIORawFiles(devicePath: device.path) }
                (x, y, z) = try rawFiles!.read()
            }
            if let sample = take(x, y, z), pollTimer != nil { reschedule(after: sample) }
        } catch {
            fault(error.errno == nil ? error.description : "cannot read \(error)")
        }
    }

    /// Converts a raw reading ((raw + offset) × scale, then the mount matrix) and feeds it to the classifier;
    /// the sample fed, nil after a fault.
    @discardableResult
    private func take(_ rx: Double, _ ry: Double, _ rz: Double) -> Sample? {
        guard let device else { return nil }
        let c: IIOCalibration
        if let known = calibration {
            c = known
        } else if device.inputNode != nil {
            c = IIOCalibration(scale: Array(repeating: InputAccelerometerFiles.scale, count: 3), offset: [0, 0, 0])
            calibration = c
        } else {
            do { c = try IIOCalibration.read(device.path) } catch {
                fault(error.description)
                return nil
            }
            calibration = c
        }
        let v = device.matrix.apply(x: (rx + c.offset[0]) * c.scale[0], y: (ry + c.offset[1]) * c.scale[1],
                                    z: (rz + c.offset[2]) * c.scale[2])
        guard v.x.isFinite, v.y.isFinite, v.z.isFinite else {
            fault("a reading overflowed")
            return nil
        }
        if faults.succeeded() { Log.info("\(device.sysname): readings work again") }
        feed.feed(x: v.x, y: v.y, z: v.z)
        return Sample(t: SampleFeed.now, x: v.x, y: v.y, z: v.z)
    }

    /// A reading that failed: skipped; logged at the start of an episode; unknown after a few in a row.
    private func fault(_ problem: String) {
        guard let device else { return }
        calibration = nil
        rawFiles = nil
        inputFiles = nil
        if !Sysfs.exists(device.path) { return vanished(device.sysname, "accelerometer removed") }
        let (shouldLog, reportUnknown) = faults.failed()
        if shouldLog { Log.warning("\(device.sysname): \(problem); skipping readings until they work again") }
        if reportUnknown {
            feed.reset()
            sink.sensorReported(.unknown)
        }
    }

    // MARK: Hotplug

    /// Looks through sysfs for the accelerometer to use, logging each one in a laptop's base once.
    private func look(excluding excluded: String? = nil) -> IIODevice? {
        let found = IIODevice.discover(configMatrix: configMatrix, excluded: excluded)
        for (sysname, source) in found.inBase where loggedInBase.insert(sysname).inserted {
            Log.info("\(sysname): not used: it is in a laptop's base (\(source)), not in its display")
        }
        return found.device
    }

    private func handle(_ event: Uevent) {
        guard event.subsystem == "iio", let sysname = event.sysname else { return }
        Log.info("\(sysname): device event '\(event.action ?? "")'")
        if event.action == "remove" || event.action == "unbind" {
            loggedInBase.remove(sysname)
            if let device, device.sysname == sysname { return vanished(sysname, "accelerometer removed") }
        }
        if event.action == "change", device?.sysname == sysname { calibration = nil }
        rescan()
    }

    /// Another look after a device event: a device that appeared, or a `change` that gave one a new
    /// mount matrix or location (udev sends one when hwdb is updated), may make another accelerometer,
    /// or the same one read differently, the one to use.
    private func rescan() {
        guard let found = look() else {
            if let device { vanished(device.sysname, "no longer used: it is not the display's accelerometer any more") }
            return
        }
        guard let current = device else { return appeared(found) }
        guard found.sysname != current.sysname || found.matrix != current.matrix || found.location != current.location else { return }
        stopReading()
        if found.sysname != current.sysname { feed.reset(keepingScale: false) }
        device = found
        bufferRefused = nil
        describe(found)
        startReading()
    }

    /// The device went away: stop, forget the pose, announce it, and take another accelerometer if there is one.
    private func vanished(_ sysname: String, _ why: String) {
        stopReading()
        device = nil
        bufferRefused = nil
        loggedFrequency.remove(sysname)
        feed.reset(keepingScale: false)
        _ = faults.succeeded()
        Log.info("\(sysname): \(why)")
        sink.sensorPresenceChanged()
        if let other = look(excluding: sysname) { appeared(other) }
    }

    private func appeared(_ found: IIODevice) {
        device = found
        bufferRefused = nil
        describe(found)
        raiseToFloor(found)
        sink.sensorPresenceChanged()
        startReading()
    }

    private func describe(_ device: IIODevice) {
        let still = 1000 / pace.stillIntervalMs
        var mode = device.buffer.map { "buffered (\($0.triggerDescription), \($0.node))" }
            ?? (still < pollHz ? "polled at \(SysfsNumber.decimal(pollHz)) Hz, \(SysfsNumber.decimal(still)) Hz once still"
                : "polled at \(SysfsNumber.decimal(pollHz)) Hz")
        if let node = device.inputNode { mode = "input device \(node), " + mode }
        let place = device.location.place == .display ? "in the display (\(device.location.source))" : "location not given"
        Log.info("accelerometer \(device.sysname), \(place): \(mode) while claimed; mount matrix \(device.matrix) from \(device.matrixSource)")
    }
}

/// Per-axis scale and offset of an accelerometer.
struct IIOCalibration {
    var scale: [Double]
    var offset: [Double]

    /// Scale from `in_accel_{x,y,z}_scale`, `in_accel_scale` or `scale` (1 when none), offset from
    /// `in_accel_{x,y,z}_offset` or `in_accel_offset` (0 when none); a message for a garbage or zero value.
    static func read(_ path: String) throws(IIOError) -> IIOCalibration {
        var result = IIOCalibration(scale: [], offset: [])
        for axis in IIODevice.axes {
            for (names, fallback, isScale) in [(["in_accel_\(axis)_scale", "in_accel_scale", "scale"], 1.0, true),
                                               (["in_accel_\(axis)_offset", "in_accel_offset"], 0.0, false)] {
                var value = fallback
                for name in names {
                    guard let text = try? Sysfs.read("\(path)/\(name)") else { continue }
                    guard let number = SysfsNumber.parse(text), !isScale || number != 0 else {
                        throw IIOError("\(path)/\(name) holds '\(text.trimmedBlanks.prefix(40))', not a usable number")
                    }
                    value = number
                    break
                }
                if isScale { result.scale.append(value) } else { result.offset.append(value) }
            }
        }
        return result
    }
}
