// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
import Sensors
import Log

/// The `iio` source: the display's accelerometer in sysfs (an IIO device, or an evdev one), read by the
/// first driver of the table that reads it (buffered, polled, evdev: `SensorDrivers`), and only while
/// someone claims (P16). Devices that come and go are followed through device events.
///
/// Faults (a read error, a vanished file, a garbage value) never produce a sample: the reading is
/// skipped, logged once per episode, and after a few in a row the orientation is reported unknown.
public final class AccelerometerSource: SensorSource {
    private let feed: SampleFeed
    private unowned let sink: SensorSink
    private let configMatrix: MountMatrix?
    private let context: DriverContext
    private(set) var device: IIODevice?
    private var running = false
    /// The driver reading the device, while claimed.
    private var driver: (entry: DriverEntry, driver: SensorDriver)?
    /// The drivers that failed the device: the next is used until another device is taken.
    private var refused: Set<String> = []
    private var faults: FaultEpisode
    private var hotplug: DeviceEvents.Subscription?
    /// Accelerometers already logged as being in a laptop's base, so each is logged once.
    private var loggedInBase: Set<String> = []

    /// Looks for a device now and watches `events` for others; `configMatrix` overrides every other mount matrix.
    public init(feed: SampleFeed, sink: SensorSink, configMatrix: MountMatrix?, events: DeviceEvents, pace: PollPace) {
        self.feed = feed
        self.sink = sink
        self.configMatrix = configMatrix
        context = DriverContext(pace: pace, feed: feed)
        // About a quarter of a second of failures (at least 3) before the pose is given up.
        faults = FaultEpisode(unknownAfter: max(3, pace.pollHz / 4))
        device = look()
        if let device {
            describe(device)
            raiseToFloor(device)
        }
        hotplug = events.subscribe(subsystem: "iio") { [unowned self] event in handle(event) }
    }

    public var isPresent: Bool { device != nil }

    public func setRunning(_ running: Bool) {
        self.running = running
        if running { startReading() } else { stopReading() }
    }

    // MARK: Reading

    private func startReading() {
        guard running, let device, driver == nil else { return }
        feed.resume(adoptingFirstReading: true)
        driver = SensorDrivers.start(.accelerometer(device), context, refused: &refused) { [unowned self] reading in take(reading) }
    }

    private func stopReading() {
        driver?.driver.stop()
        driver = nil
        // The device may turn before the next claim: its pose is classified afresh then (P16).
        feed.pause()
        feed.reset()
    }

    /// What the driver read.
    private func take(_ reading: DriverReading) {
        guard let device else { return }
        switch reading {
        case .acceleration(let sample):
            if faults.succeeded() { Log.info("\(device.sysname): readings work again") }
            feed.feed(x: sample.x, y: sample.y, z: sample.z)
        case .fault(let problem):
            fault(problem)
        case .failed(let problem):
            // The next driver of the table reads the device from now on.
            guard let failed = driver else { return }
            failed.driver.stop()
            refused.insert(failed.entry.name)
            driver = SensorDrivers.start(.accelerometer(device), context, refused: &refused) { [unowned self] reading in take(reading) }
            Log.warning("\(device.sysname): \(problem); " + (driver.map { "\($0.driver.reading) instead" } ?? "not read until the next claim"))
        case .value, .angles, .switched:
            break
        }
    }

    /// A reading that failed: skipped; logged at the start of an episode; unknown after a few in a row.
    private func fault(_ problem: String) {
        guard let device else { return }
        if !Sysfs.exists(device.path) { return vanished(device.sysname, "accelerometer removed") }
        let (shouldLog, reportUnknown) = faults.failed()
        if shouldLog { Log.warning("\(device.sysname): \(problem); skipping readings until they work again") }
        if reportUnknown {
            feed.reset()
            sink.sensorReported(.orientation(.unknown))
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
        guard let sysname = event.sysname else { return }
        Log.info("\(sysname): device event '\(event.action ?? "")'")
        if event.action == "remove" || event.action == "unbind" {
            loggedInBase.remove(sysname)
            if let device, device.sysname == sysname { return vanished(sysname, "accelerometer removed") }
        }
        if event.action == "change", device?.sysname == sysname { driver?.driver.deviceChanged() }
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
        refused = []
        describe(found)
        startReading()
    }

    /// The device went away: stop, forget the pose, announce it, and take another accelerometer if there is one.
    private func vanished(_ sysname: String, _ why: String) {
        stopReading()
        device = nil
        refused = []
        context.forget(sysname)
        feed.reset(keepingScale: false)
        _ = faults.succeeded()
        Log.info("\(sysname): \(why)")
        sink.sensorReported(.accelerometerPresence)
        if let other = look(excluding: sysname) { appeared(other) }
    }

    private func appeared(_ found: IIODevice) {
        device = found
        refused = []
        describe(found)
        raiseToFloor(found)
        sink.sensorReported(.accelerometerPresence)
        startReading()
    }

    private func describe(_ device: IIODevice) {
        let pace = context.pace
        var mode = device.buffer.map { "buffered (\($0.triggerDescription), \($0.node))" }
            ?? (pace.stillIntervalMs > pace.movingIntervalMs ? "polled at \(SysfsNumber.decimal(pace.pollHz)) Hz, \(pace.stillHzText) Hz once still"
                : "polled at \(SysfsNumber.decimal(pace.pollHz)) Hz")
        if let node = device.inputNode { mode = "input device \(node), " + mode }
        let place = device.location.place == .display ? "in the display (\(device.location.source))" : "location not given"
        Log.info("accelerometer \(device.sysname), \(place): \(mode) while claimed; mount matrix \(device.matrix) from \(device.matrixSource)")
    }
}
