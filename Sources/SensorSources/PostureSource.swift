// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
import Sensors
import Log
import EventLoop

/// Where the convertible's posture comes from (Docs/sensors.md, "Posture"), read only while someone
/// claims orientations, first found of: a hinge sensor (`HingeSensor`, classified by
/// `PostureThresholds`); an accelerometer in the base beside the display's (`BaseAccelerometer`: the
/// display's latest reading and the base's give the hinge angle, `HingeFromAccelerometers`); a
/// tablet-mode switch of an input device (`SW_TABLET_MODE`: intel-vbtn, intel-hid, asus-wmi,
/// surface_aggregator_tabletsw, lenovo-ymc, …), on for `tablet` and off for `laptop`, with no hinge
/// angle. Each is read by its driver of the table. Without one, and where `pointerEvidence` allows it
/// (never on a phone), the input devices plugged in say it (`PointerEvidence`: a touchscreen alone is
/// `tablet`, with a mouse or touchpad `laptop`), once they have stayed the same for
/// `pointerSettleMs`. Otherwise the posture is `unknown` and everything behaves as on a phone. What it
/// finds leaves as `SensorReport.posture`, when posture or angle change.
public final class PostureSource: SensorSource {
    private unowned let sink: SensorSink
    private var thresholds: PostureThresholds
    /// The display accelerometer's feed, for its latest reading; nil when the daemon reads no
    /// accelerometer itself (the pose comes from an upstream iio-sensor-proxy), and two
    /// accelerometers then cannot give the posture.
    private let display: SampleFeed?
    private let events: DeviceEvents
    private let context = DriverContext()
    /// The display's pose as last reported, whatever the source (`displayReported`): upside down, a
    /// stand is a tent.
    private var displayPose = DeviceOrientation.unknown
    private var driver: SensorDriver?
    private var hingeAngle = -1.0
    /// The keyboard half's angle last read with the hinge's, when the sensor gives one.
    private var lastKeyboard: Double?
    /// Device events of the iio and input subsystems, while running.
    private var hotplug: [DeviceEvents.Subscription] = []
    private var posture = Posture.unknown
    private var running = false
    /// The device last used, so starting again with the same one is not logged every claim.
    private var lastLogged: String?
    /// Whether the input devices plugged in may give the posture (source 4).
    private let pointerEvidence: Bool
    /// The input devices' evidence in force, while it gives the posture; nil while another source does.
    private var evidence: PointerEvidence?
    /// Applies the evidence once the pointers have stayed the same for `pointerSettleMs`.
    private var evidenceTimer: EventLoop.Timer?
    /// How long the pointers plugged in must stay the same before the posture follows them: a mouse
    /// gone and back within it (a suspend, a Bluetooth reconnect) changes nothing.
    public static let pointerSettleMs: UInt32 = 2000

    public init(thresholds: PostureThresholds = PostureThresholds(), display: SampleFeed?, events: DeviceEvents,
                pointerEvidence: Bool = false, sink: SensorSink) {
        self.thresholds = thresholds
        self.display = display
        self.events = events
        self.pointerEvidence = pointerEvidence
        self.sink = sink
    }

    /// Classifies with `thresholds` from now on (a configuration reload); a hinge angle known now is
    /// classified again at once.
    public func setThresholds(_ thresholds: PostureThresholds) {
        self.thresholds = thresholds
        guard running, hingeAngle >= 0 else { return }
        report(thresholds.posture(hinge: hingeAngle, keyboard: lastKeyboard, displayUpsideDown: displayPose == .portraitUpsideDown,
                                  previous: posture), hingeAngle)
    }

    /// Whether a posture device is read now.
    public var isPresent: Bool { driver != nil }

    /// The display's pose, as the accelerometer's source reported it.
    public func displayReported(_ orientation: DeviceOrientation) {
        displayPose = orientation
    }

    /// Watches the posture while `running`; stopping reports `unknown` and closes the device. Each
    /// start looks for the devices anew, and while running a device of the iio or input subsystem
    /// coming or going (a keyboard cover attached or detached, a sensor hub's hinge bound late) has
    /// them looked for again.
    public func setRunning(_ running: Bool) {
        guard running != self.running else { return }
        self.running = running
        if running {
            hotplug = ["iio", "input"].compactMap { subsystem in
                events.subscribe(subsystem: subsystem) { [unowned self] event in deviceEvent(event) }
            }
            look()
        } else {
            hotplug = []
            close()
            forgetEvidence()
            report(.unknown, -1)
        }
    }

    /// A device came or went while running: the devices are looked for again; the posture is reported
    /// again only when it changes.
    private func deviceEvent(_ event: Uevent) {
        guard running, event.action == "add" || event.action == "remove" else { return }
        close()
        // A device going away may still be in sysfs when its event comes.
        look(excluding: event.action == "remove" ? event.sysname : nil)
    }

    /// Reads the first device found that a driver can start on: a hinge sensor, two accelerometers, a
    /// tablet-mode switch; without one the posture is unknown. The device `excluded` (its sysname) is passed over.
    private func look(excluding excluded: String? = nil) {
        var candidates: [(FoundDevice, String)] = []
        if let hinge = HingeSensor.discover(excluded: excluded) {
            candidates.append((.hinge(hinge), "the hinge sensor \(hinge.sysname), read every \(HingeDriver.intervalMs) ms while claimed"))
        }
        if display != nil, let base = BaseAccelerometer.discover(excluded: excluded) {
            candidates.append((.baseAccelerometer(base), "the accelerometers in the display and in the base (\(base.sysname)), read every "
                + "\(HingeDriver.intervalMs) ms while claimed"))
        }
        if let found = InputSwitchDevice.discover(InputSwitch.tabletMode, excluded: excluded) {
            candidates.append((.inputSwitch(found), "\(found.sysname)'s \(InputSwitch.name(InputSwitch.tabletMode)) (\(found.node))"))
        }
        for (device, what) in candidates {
            var refused: Set<String> = []
            guard let started = SensorDrivers.start(device, context, refused: &refused, output: { [unowned self] reading in
                take(reading)
            }) else { continue }
            driver = started.driver
            forgetEvidence()
            if lastLogged != device.sysname {
                lastLogged = device.sysname
                Log.info("posture from " + what)
            }
            return
        }
        if !candidates.isEmpty { Log.warning("posture: no device found can be read; the posture stays unknown") }
        guard pointerEvidence else { return report(.unknown, -1) }
        let found = PointerEvidence(InputDevice.list(excluding: excluded))
        guard let applied = evidence else { return apply(found) }
        evidenceTimer?.cancel()
        evidenceTimer = nil
        guard found != applied else { return }
        evidenceTimer = EventLoop.Timer(afterMs: Self.pointerSettleMs) { [unowned self] in
            evidenceTimer = nil
            guard running, driver == nil else { return }
            apply(PointerEvidence(InputDevice.list()))
        }
    }

    /// Another source gives the posture, or none is read: the input devices' evidence is forgotten.
    private func forgetEvidence() {
        evidence = nil
        evidenceTimer?.cancel()
        evidenceTimer = nil
    }

    /// Source 4: the input devices' evidence gives the posture.
    private func apply(_ found: PointerEvidence) {
        if found != evidence && (evidence != nil || found.posture != .unknown) {
            Log.info("posture from the input devices: " + found.description)
        }
        evidence = found
        report(found.posture, -1)
    }

    /// Closes the device in use.
    private func close() {
        driver?.stop()
        driver = nil
    }

    /// What the driver read.
    private func take(_ reading: DriverReading) {
        guard running else { return }
        switch reading {
        case .angles(let hinge, let keyboard):
            lastKeyboard = keyboard
            report(thresholds.posture(hinge: hinge, keyboard: keyboard, displayUpsideDown: displayPose == .portraitUpsideDown,
                                      previous: posture), hinge)
        case .acceleration(let base):
            // While the hinge axis is near vertical, or before the display has been read, the last posture and angle stay.
            guard let shown = display?.latest,
                  let angle = HingeFromAccelerometers.angle(display: (shown.x, shown.y, shown.z), base: (base.x, base.y, base.z)) else { return }
            report(thresholds.posture(hinge: angle, keyboard: nil, displayUpsideDown: shown.y > 0, previous: posture), angle)
        case .switched(let on):
            report(on ? .tablet : .laptop, -1)
        case .fault(let problem):
            if posture != .unknown { Log.info("posture: \(problem); the posture is unknown") }
            report(.unknown, -1)
        case .failed(let problem):
            close()
            Log.info("posture: \(problem); the posture is unknown until such a device is there again")
            report(.unknown, -1)
        case .value:
            break
        }
    }

    /// Sends `new` and `angle` when either changed.
    private func report(_ new: Posture, _ angle: Double) {
        guard new != posture || angle != hingeAngle else { return }
        posture = new
        hingeAngle = angle
        sink.sensorReported(.posture(new, hingeAngle: angle))
    }
}
