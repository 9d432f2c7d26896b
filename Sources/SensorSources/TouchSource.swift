// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Sensors
import Log
import EventLoop

/// Whether a hand is on the screen (P20): every touchscreen and pen (`InputDevice.isTouched`) read by
/// the `input-touch` driver, only while orientations are claimed, followed as they come and go. Reports
/// `SensorReport.touch` when whether any of them is touched changes. A contact held longer than
/// `stuckSeconds` is taken as lifted (a stuck digitizer must not hold rotation for ever) and logged;
/// that device counts again once it reports the contact lifted.
public final class TouchSource: SensorSource {
    private unowned let sink: SensorSink
    private let events: DeviceEvents
    private let stuckSeconds: Double
    private let context = DriverContext()
    /// The drivers reading, by node.
    private var drivers: [String: SensorDriver] = [:]
    /// Devices touched now and not taken as stuck, by node.
    private var touched: Set<String> = []
    /// Devices whose contact outlasted `stuckSeconds`, by node; they count again once lifted.
    private var stuck: Set<String> = []
    private var stuckTimers: [String: EventLoop.Timer] = [:]
    private var hotplug: DeviceEvents.Subscription?
    private var running = false
    private var reported = false
    /// Nodes already logged as read, so each claim does not log them again.
    private var logged: Set<String> = []

    public init(stuckSeconds: Double, events: DeviceEvents, sink: SensorSink) {
        self.stuckSeconds = stuckSeconds
        self.events = events
        self.sink = sink
    }

    /// Whether a touchscreen or pen is read now.
    public var isPresent: Bool { !drivers.isEmpty }

    public func setRunning(_ running: Bool) {
        guard running != self.running else { return }
        self.running = running
        if running {
            hotplug = events.subscribe(subsystem: "input") { [unowned self] event in deviceEvent(event) }
            look()
        } else {
            hotplug = nil
            for node in Array(drivers.keys) { close(node) }
            report()
        }
    }

    private func deviceEvent(_ event: Uevent) {
        guard running, event.action == "add" || event.action == "remove" else { return }
        if event.action == "remove", let sysname = event.sysname { context.forget(sysname) }
        look(excluding: event.action == "remove" ? event.sysname : nil)
    }

    /// Reads the touchscreens and pens not read yet, closes those gone.
    private func look(excluding excluded: String? = nil) {
        let present = InputDevice.list(excluding: excluded).filter(\.isTouched)
        let nodes = Set(present.map(\.node))
        for node in Array(drivers.keys) where !nodes.contains(node) { close(node) }
        for device in present where drivers[device.node] == nil {
            var refused: Set<String> = []
            guard let started = SensorDrivers.start(.touchscreen(device), context, refused: &refused, output: { [unowned self] reading in
                take(device.node, reading)
            }) else { continue }
            drivers[device.node] = started.driver
            if logged.insert(device.node).inserted { Log.info("touch hold: reading \(started.driver.reading)") }
        }
        report()
    }

    private func close(_ node: String) {
        drivers.removeValue(forKey: node)?.stop()
        touched.remove(node)
        stuck.remove(node)
        stuckTimers.removeValue(forKey: node)?.cancel()
    }

    /// What a device's driver read.
    private func take(_ node: String, _ reading: DriverReading) {
        switch reading {
        case .switched(let on): contact(node, on)
        case .failed(let problem):
            Log.info("touch hold: \(problem); touches on it hold nothing until it is there again")
            close(node)
            report()
        default: break
        }
    }

    /// A device's contact began or ended.
    private func contact(_ node: String, _ on: Bool) {
        stuckTimers.removeValue(forKey: node)?.cancel()
        if on {
            guard !stuck.contains(node) else { return }
            touched.insert(node)
            stuckTimers[node] = EventLoop.Timer(afterMs: UInt32(stuckSeconds * 1000)) { [unowned self] in
                stuckTimers[node] = nil
                stuck.insert(node)
                touched.remove(node)
                Log.warning("touch hold: \(node) has reported a contact for \(Int(stuckSeconds)) s; taken as lifted until it "
                    + "reports one lifted ([Classifier] TouchStuckSeconds)")
                report()
            }
        } else {
            touched.remove(node)
            stuck.remove(node)
        }
        report()
    }

    /// Tells the sink when whether any device is touched changed.
    private func report() {
        let now = running && !touched.isEmpty
        guard now != reported else { return }
        reported = now
        sink.sensorReported(.touch(now))
    }
}
