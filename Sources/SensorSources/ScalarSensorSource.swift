// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import EventLoop
import Sensors
import Log

/// An IIO light, proximity or compass sensor (`ScalarDevice`), read only while running: polled (one
/// read of its attribute per interval) or through its buffer (the daemon wakes when the device
/// reports), a reading sent only when it differs from the one before. Faults (a read error, a garbage
/// value, a buffer that fails) skip the reading and are logged once per episode; a reading is never
/// made up. Devices come and go through `handle(sysname:action:)`, which `ScalarSensors` calls on
/// device events.
public final class ScalarSensorSource: SensorSource {
    public let kind: ScalarSensorKind
    private unowned let sink: ScalarSensorSink
    private(set) var device: ScalarDevice?
    private var running = false
    private var timer: EventLoop.Timer?
    /// The polled attribute, open while polling: one `pread` per poll.
    private var file: IIORawFiles?
    private var buffer: IIOBufferReader?
    /// An input device's proximity switch, open while claimed.
    private var inputSwitch: InputSwitch?
    private var faults = FaultEpisode(unknownAfter: 3)
    private var threshold: ProximityThreshold?
    private var last: ScalarReading?
    /// Devices whose buffer failed and that are polled instead, logged once each.
    private var loggedFallback: Set<String> = []
    /// Proximity sensors passed over for having no near level, logged once each.
    private var loggedWithoutLevel: Set<String> = []

    init(kind: ScalarSensorKind, sink: ScalarSensorSink) {
        self.kind = kind
        self.sink = sink
        device = look()
        if let device { describe(device) }
    }

    /// Whether a device of this kind is there now.
    public var isPresent: Bool { device != nil }

    /// Reads while some client claims the sensor, and not at all otherwise.
    public func setRunning(_ running: Bool) {
        guard running != self.running else { return }
        self.running = running
        if running { start() } else { stop() }
    }

    private func start() {
        guard running, let device, timer == nil, buffer == nil, inputSwitch == nil else { return }
        last = nil
        threshold = device.nearLevel.map(ProximityThreshold.init(nearLevel:))
        switch device.mode {
        case .polled(let attribute, let intervalMs), .appleSMC(let attribute, let intervalMs):
            startPolling(attribute, every: intervalMs)
        case .inputSwitch(let node):
            do {
                let reader = try InputSwitch(node: node, code: InputSwitch.frontProximity, changed: { [unowned self] near in
                    send(.proximity(near: near), from: device)
                }, failure: { [unowned self] problem in
                    inputSwitch = nil
                    fault(device, "\(problem)")
                })
                inputSwitch = reader
                send(.proximity(near: try reader.state()), from: device)
            } catch {
                inputSwitch = nil
                fault(device, "\(error); claim it again to retry")
            }
        case .buffered(let support, let fallback, let intervalMs):
            do {
                buffer = try IIOBufferReader(support, frame: { [unowned self] values in
                    take(Double(values[0]), from: device)
                }, failure: { [unowned self] problem in
                    buffer = nil
                    bufferFailed(device, "\(problem)", fallback: fallback, every: intervalMs)
                })
            } catch {
                bufferFailed(device, "cannot read it through its buffer: \(error)", fallback: fallback, every: intervalMs)
            }
        }
    }

    private func startPolling(_ attribute: String, every intervalMs: Int) {
        timer = EventLoop.Timer(everyMs: UInt32(intervalMs)) { [unowned self] in poll(attribute) }
        poll(attribute)
    }

    /// The buffer cannot be used: the channel's raw attribute is polled instead when there is one,
    /// as an accelerometer's are; else nothing is read until the next claim tries again.
    private func bufferFailed(_ device: ScalarDevice, _ problem: String, fallback: String?, every intervalMs: Int) {
        guard let fallback else { return fault(device, "\(problem); claim it again to retry") }
        if loggedFallback.insert(device.sysname).inserted {
            Log.warning("\(device.sysname): \(problem); polling \(fallback) every \(intervalMs) ms instead")
        }
        startPolling(fallback, every: intervalMs)
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        file = nil
        buffer?.close()
        buffer = nil
        inputSwitch?.close()
        inputSwitch = nil
    }

    private func poll(_ attribute: String) {
        guard let device else { return }
        let path = "\(device.path)/\(attribute)"
        let text: String
        do {
            if file == nil { file = try IIORawFiles(paths: [path]) }
            text = try file!.text(0)
        } catch {
            file = nil
            return fault(device, error.description)
        }
        if case .appleSMC = device.mode {
            guard let level = AppleSMCLight.level(text) else {
                return fault(device, "\(path) holds '\(text.trimmedBlanks.prefix(40))', not a pair of numbers")
            }
            return take(level, from: device, lux: false)
        }
        guard let raw = SysfsNumber.parse(text), raw.isFinite else {
            return fault(device, "\(path) holds '\(text.trimmedBlanks.prefix(40))', not a number")
        }
        take(raw, from: device)
    }

    /// A raw value read: scaled (or classified, for proximity) and sent when it changed.
    private func take(_ raw: Double, from device: ScalarDevice, lux: Bool = true) {
        if faults.succeeded() { Log.info("\(device.sysname): readings work again") }
        let reading: ScalarReading
        switch kind {
        case .light:
            reading = .light(level: raw * device.scale, lux: lux)
        case .proximity:
            guard var t = threshold else { return }
            reading = .proximity(near: t.classify(raw))
            threshold = t
        case .compass:
            reading = .compass(heading: raw * device.scale)
        }
        send(reading, from: device)
    }

    /// Sends a reading when it differs from the one before.
    private func send(_ reading: ScalarReading, from device: ScalarDevice) {
        guard reading != last else { return }
        last = reading
        sink.scalarSensor(kind, read: reading)
    }

    private func fault(_ device: ScalarDevice, _ problem: String) {
        if !Sysfs.exists(device.path) { return vanished(device.sysname) }
        if faults.failed().log { Log.warning("\(device.sysname): \(problem); skipping readings until they work again") }
    }

    // MARK: Hotplug

    private func look(excluding excluded: String? = nil) -> ScalarDevice? {
        ScalarDevice.discover(kind, excluded: excluded) { [unowned self] sysname in
            guard loggedWithoutLevel.insert(sysname).inserted else { return }
            Log.warning("\(sysname): proximity sensor without a near level (udev PROXIMITY_NEAR_LEVEL or "
                + "in_proximity_nearlevel), so it cannot tell near from far; not used")
        }
    }

    /// Another look after a device event on `sysname` (`action` as the event says).
    func handle(sysname: String, action: String?) {
        if action == "remove" || action == "unbind", device?.sysname == sysname { return vanished(sysname) }
        guard let found = look() else {
            if let device { vanished(device.sysname) }
            return
        }
        guard found != device else { return }
        let hadDevice = device != nil
        stop()
        device = found
        describe(found)
        if !hadDevice { sink.scalarSensorPresenceChanged(kind) }
        start()
    }

    private func vanished(_ sysname: String) {
        stop()
        device = nil
        last = nil
        _ = faults.succeeded()
        Log.info("\(sysname): \(kind.rawValue) removed")
        sink.scalarSensorPresenceChanged(kind)
        if let other = look(excluding: sysname) {
            device = other
            describe(other)
            sink.scalarSensorPresenceChanged(kind)
            start()
        }
    }

    private func describe(_ device: ScalarDevice) {
        var what = "\(kind.rawValue) \(device.sysname): "
        switch device.mode {
        case .polled(let attribute, let intervalMs):
            what += attribute + (device.scale != 1 ? " × \(device.scale)" : "") + ", polled every \(intervalMs) ms while claimed"
        case .appleSMC(let attribute, let intervalMs):
            what += "Apple SMC \(attribute) (vendor unit), polled every \(intervalMs) ms while claimed"
        case .inputSwitch(let node):
            what += "input switch SW_FRONT_PROXIMITY of \(node), read while claimed"
        case .buffered(let support, _, _):
            what += support.channels.joined(separator: ", ") + (device.scale != 1 ? " × \(device.scale)" : "")
                + ", buffered (\(support.triggerDescription), \(support.node)) while claimed"
        }
        if let level = device.nearLevel { what += "; near above \(level), far again below \(level * ProximityThreshold.farFraction)" }
        Log.info(what)
    }
}

/// The light, proximity and compass sensors, and the one stream of device events that tells them of
/// devices coming and going.
public final class ScalarSensors {
    private let sources: [ScalarSensorSource]
    private var hotplug: HotplugMonitor?

    /// Looks for every kind now and follows device events.
    public init(sink: ScalarSensorSink) {
        sources = ScalarSensorKind.allCases.map { ScalarSensorSource(kind: $0, sink: sink) }
        hotplug = HotplugMonitor { [unowned self] event in
            guard event.subsystem == "iio", let sysname = event.sysname else { return }
            for source in sources { source.handle(sysname: sysname, action: event.action) }
        }
    }

    public func source(_ kind: ScalarSensorKind) -> any SensorSource {
        sources.first { $0.kind == kind }!
    }
}
