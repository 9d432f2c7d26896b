// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import EventLoop
import Sensors
import Log

/// An IIO light, proximity or compass sensor (`ScalarDevice`), read only while running by the first
/// driver of the table that reads it (polled, buffered, an input switch: `SensorDrivers`), a reading
/// sent only when it differs from the one before. Faults (a read error, a garbage value) skip the
/// reading and are logged once per episode; a reading is never made up. A buffer that fails is
/// replaced by polling the channel's raw attribute when the device has one; each claim tries the
/// buffer again. Devices come and go through `handle(sysname:action:)`, which `ScalarSensors` calls
/// on device events.
public final class ScalarSensorSource: SensorSource {
    public let kind: ScalarSensorKind
    private unowned let sink: SensorSink
    private let context = DriverContext()
    private(set) var device: ScalarDevice?
    private var running = false
    private var driver: (entry: DriverEntry, driver: SensorDriver)?
    /// The drivers that failed the device in this claim.
    private var refused: Set<String> = []
    private var faults = FaultEpisode(unknownAfter: 3)
    private var threshold: ProximityThreshold?
    private var last: ScalarReading?
    /// Proximity sensors passed over for having no near level, logged once each.
    private var loggedWithoutLevel: Set<String> = []

    init(kind: ScalarSensorKind, sink: SensorSink) {
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
        guard running, let device, driver == nil else { return }
        last = nil
        refused = []
        threshold = device.nearLevel.map(ProximityThreshold.init(nearLevel:))
        driver = SensorDrivers.start(.channel(device), context, refused: &refused) { [unowned self] reading in take(reading) }
    }

    private func stop() {
        driver?.driver.stop()
        driver = nil
    }

    /// What the driver read: a value scaled (or classified, for proximity) and sent when it changed.
    private func take(_ reading: DriverReading) {
        guard let device else { return }
        switch reading {
        case .value(let raw):
            if faults.succeeded() { Log.info("\(device.sysname): readings work again") }
            switch kind {
            case .light:
                if case .appleSMC = device.mode { send(.light(level: raw, lux: false)) } else { send(.light(level: raw * device.scale, lux: true)) }
            case .proximity:
                guard var t = threshold else { return }
                let near = t.classify(raw)
                threshold = t
                send(.proximity(near: near))
            case .compass:
                send(.compass(heading: raw * device.scale))
            }
        case .switched(let near):
            send(.proximity(near: near))
        case .fault(let problem):
            fault(device, problem)
        case .failed(let problem):
            guard let failed = driver else { return }
            failed.driver.stop()
            refused.insert(failed.entry.name)
            driver = SensorDrivers.start(.channel(device), context, refused: &refused) { [unowned self] reading in take(reading) }
            guard let next = driver else { return fault(device, "\(problem); claim it again to retry") }
            if context.firstTime(device.sysname, "fallback") { Log.warning("\(device.sysname): \(problem); \(next.driver.reading) instead") }
        case .acceleration, .angles:
            break
        }
    }

    /// Sends a reading when it differs from the one before.
    private func send(_ reading: ScalarReading) {
        guard reading != last else { return }
        last = reading
        sink.sensorReported(.reading(kind, reading))
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
        if !hadDevice { sink.sensorReported(.presence(kind)) }
        start()
    }

    private func vanished(_ sysname: String) {
        stop()
        device = nil
        last = nil
        context.forget(sysname)
        _ = faults.succeeded()
        Log.info("\(sysname): \(kind.rawValue) removed")
        sink.sensorReported(.presence(kind))
        if let other = look(excluding: sysname) {
            device = other
            describe(other)
            sink.sensorReported(.presence(kind))
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

/// The light, proximity and compass sensors, and the device events that tell them of devices coming and going.
public final class ScalarSensors {
    private let sources: [ScalarSensorSource]
    private var hotplug: DeviceEvents.Subscription?

    /// Looks for every kind now and follows `events`.
    public init(sink: SensorSink, events: DeviceEvents) {
        sources = ScalarSensorKind.allCases.map { ScalarSensorSource(kind: $0, sink: sink) }
        hotplug = events.subscribe(subsystem: "iio") { [unowned self] event in
            guard let sysname = event.sysname else { return }
            for source in sources { source.handle(sysname: sysname, action: event.action) }
        }
    }

    public func source(_ kind: ScalarSensorKind) -> any SensorSource {
        sources.first { $0.kind == kind }!
    }
}
