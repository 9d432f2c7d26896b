// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Orientation
import Sensors
import EventLoop
import Log

/// Where the convertible's posture comes from (Docs/sensors.md, "Posture"), read only while someone
/// claims orientations, first found of: a hinge sensor (an IIO device with angle channels, polled
/// four times a second: 0 the hinge, 1 the screen, 2 the keyboard, (raw + offset) × scale radians),
/// classified by `PostureThresholds`; an accelerometer in the base beside the display's (the
/// display's latest reading and the base's, read four times a second, give the hinge angle);
/// a tablet-mode switch of an input device (`SW_TABLET_MODE`:
/// intel-vbtn, intel-hid, asus-wmi, surface_aggregator_tabletsw, lenovo-ymc, …), on for `tablet`
/// and off for `laptop`, with no hinge angle. Without a source the posture is `unknown` and
/// everything behaves as on a phone.
public final class PostureSource {
    /// Gets each posture and hinge angle (degrees, −1 when not known).
    public typealias Sink = (Posture, Double) -> Void

    private let sink: Sink
    private let thresholds: PostureThresholds
    /// Whether the display's accelerometer reads upside down: a tent, between laptop and tablet.
    private let displayUpsideDown: () -> Bool
    /// The display accelerometer's latest reading (m/s², after its mount matrix), nil before the
    /// first; no closure when the daemon reads no accelerometer itself (the pose comes from an
    /// upstream iio-sensor-proxy), and two accelerometers then cannot give the posture.
    private let displayReading: (() -> Sample?)?
    private var reader: InputSwitch?
    private var hingeTimer: EventLoop.Timer?
    private var base: BaseAccelerometer?
    private var hingeAngle = -1.0
    /// Device events of the iio and input subsystems, while running.
    private var hotplug: [HotplugMonitor] = []
    private var posture = Posture.unknown
    private var running = false
    /// The switch last used, so starting again with the same one is not logged every claim.
    private var lastLogged: String?

    public init(thresholds: PostureThresholds = PostureThresholds(), displayUpsideDown: @escaping () -> Bool = { false },
                displayReading: (() -> Sample?)? = nil, sink: @escaping Sink) {
        self.thresholds = thresholds
        self.displayUpsideDown = displayUpsideDown
        self.displayReading = displayReading
        self.sink = sink
    }

    /// How often a hinge sensor, or a base accelerometer, is read while claimed: a fold takes a second or more.
    static let hingeIntervalMs: UInt32 = 250

    /// Watches the posture while `running`; stopping reports `unknown` and closes the device. Each
    /// start looks for the sources anew, and while running a device of the iio or input subsystem
    /// coming or going (a keyboard cover attached or detached, a sensor hub's hinge bound late) has
    /// them looked for again.
    public func setRunning(_ running: Bool) {
        guard running != self.running else { return }
        self.running = running
        if running {
            hotplug = ["iio", "input"].compactMap { subsystem in
                HotplugMonitor(subsystem: subsystem) { [unowned self] event in deviceEvent(event) }
            }
            look()
        } else {
            hotplug = []
            close()
            report(.unknown, -1)
        }
    }

    /// A device came or went while running: the sources are looked for again; the posture is reported
    /// again only when it changes.
    private func deviceEvent(_ event: Uevent) {
        guard running, event.action == "add" || event.action == "remove" else { return }
        close()
        // A device going away may still be in sysfs when its event comes.
        look(excluding: event.action == "remove" ? event.sysname : nil)
    }

    /// Uses the first source found: a hinge sensor, two accelerometers, a tablet-mode switch; without
    /// one the posture is unknown. The device `excluded` (its sysname) is passed over.
    private func look(excluding excluded: String? = nil) {
        if let hinge = HingeSensor.discover(excluded: excluded) {
            if lastLogged != hinge.path {
                lastLogged = hinge.path
                Log.info("posture from the hinge sensor \(hinge.sysname), read every \(Self.hingeIntervalMs) ms while claimed")
            }
            readHinge(hinge)
            hingeTimer = EventLoop.Timer(everyMs: Self.hingeIntervalMs) { [unowned self] in readHinge(hinge) }
            return
        }
        if displayReading != nil, let base = BaseAccelerometer.discover(excluded: excluded) {
            if lastLogged != base.sysname {
                lastLogged = base.sysname
                Log.info("posture from the accelerometers in the display and in the base (\(base.sysname)), read every "
                         + "\(Self.hingeIntervalMs) ms while claimed")
            }
            self.base = base
            readAccelerometers()
            hingeTimer = EventLoop.Timer(everyMs: Self.hingeIntervalMs) { [unowned self] in readAccelerometers() }
            return
        }
        guard let found = InputSwitch.discover(InputSwitch.tabletMode, excluded: excluded) else { return report(.unknown, -1) }
        do {
            let switchReader = try InputSwitch(node: found.node, code: InputSwitch.tabletMode, changed: { [unowned self] on in
                report(on ? .tablet : .laptop, -1)
            }, failure: { [unowned self] problem in
                reader = nil
                Log.info("posture: \(problem); the posture is unknown until a tablet-mode switch is there again")
                report(.unknown, -1)
            })
            reader = switchReader
            let on = try switchReader.state()
            if lastLogged != found.node {
                lastLogged = found.node
                Log.info("posture from \(found.sysname)'s \(InputSwitch.name(InputSwitch.tabletMode)) (\(found.node))")
            }
            report(on ? .tablet : .laptop, -1)
        } catch {
            reader?.close()
            reader = nil
            Log.warning("posture: \(error); the posture stays unknown")
            report(.unknown, -1)
        }
    }

    /// Closes the source in use.
    private func close() {
        reader?.close()
        reader = nil
        base = nil
        hingeTimer?.cancel()
        hingeTimer = nil
    }

    /// Sends `new` and `angle` when either changed.
    private func report(_ new: Posture, _ angle: Double) {
        guard new != posture || angle != hingeAngle else { return }
        posture = new
        hingeAngle = angle
        sink(new, angle)
    }

    /// One reading of the hinge: its posture and angle, or unknown when the device went.
    private func readHinge(_ hinge: HingeSensor) {
        guard let angles = hinge.read() else {
            if posture != .unknown { Log.info("posture: the hinge sensor \(hinge.sysname) cannot be read; the posture is unknown") }
            return report(.unknown, -1)
        }
        report(thresholds.posture(hinge: angles.hinge, keyboard: angles.keyboard, displayUpsideDown: displayUpsideDown(),
                                  previous: posture), angles.hinge)
    }

}

extension PostureSource {
    /// One reading of both accelerometers (source 2): the hinge angle and its posture. While the hinge
    /// axis is near vertical, or before the display has been read, the last posture and angle stay.
    private func readAccelerometers() {
        guard let base else { return }
        guard let reading = base.read() else {
            Log.info("posture: the base accelerometer \(base.sysname) cannot be read; the posture is unknown")
            close()
            return report(.unknown, -1)
        }
        guard let display = displayReading?(),
              let angle = HingeFromAccelerometers.angle(display: (display.x, display.y, display.z), base: reading) else { return }
        report(thresholds.posture(hinge: angle, keyboard: nil, displayUpsideDown: display.y > 0, previous: posture), angle)
    }

}

/// An accelerometer in a convertible's base (Docs/sensors.md, "Posture", source 2): the first, by name, that
/// discovery passes over for being in the base and that can be polled; its readings in m/s² after
/// its own mount matrix (systemd's hwdb frame: they agree with the display's when the lid is closed).
/// Its three raw attributes stay open while claimed.
struct BaseAccelerometer {
    let sysname: String
    private let files: IIORawFiles
    private let calibration: IIOCalibration
    private let matrix: MountMatrix

    static func discover(excluded: String? = nil) -> BaseAccelerometer? {
        for entry in IIODevice.discover(configMatrix: nil, excluded: excluded, loading: false).inBase {
            let path = IIODevice.busDirectory + "/" + entry.sysname
            guard IIODevice.axes.allSatisfy({ Sysfs.exists("\(path)/in_accel_\($0)_raw") }),
                  let calibration = try? IIOCalibration.read(path),
                  let files = try? IIORawFiles(devicePath: path) else { continue }
            let matrix = IIODevice.mountMatrix(path: path, sysname: entry.sysname, udev: UdevProperties(devicePath: path),
                                               config: nil).0
            return BaseAccelerometer(sysname: entry.sysname, files: files, calibration: calibration, matrix: matrix)
        }
        return nil
    }

    /// The base's reading, nil when it cannot be read (the device went).
    func read() -> (x: Double, y: Double, z: Double)? {
        guard let (rx, ry, rz) = try? files.read() else { return nil }
        let c = calibration
        let v = matrix.apply(x: (rx + c.offset[0]) * c.scale[0], y: (ry + c.offset[1]) * c.scale[1], z: (rz + c.offset[2]) * c.scale[2])
        return (v.x, v.y, v.z)
    }
}

/// A hinge sensor (Docs/sensors.md, "Posture", source 1): an IIO device with angle channels, e.g. Intel sensor
/// hubs' `hid-sensor-custom-intel-hinge`, named `hinge`. Channel 0 is the hinge, 1 the screen, 2 the
/// keyboard; each is (raw + offset) × scale radians, with the channel's own scale and offset or the
/// shared `in_angl_scale` and `in_angl_offset`. Scales and offsets are read once, when it is found:
/// each reading then reads only the raw values.
struct HingeSensor {
    let sysname: String
    let path: String
    /// Degrees per raw count and the raw offset, of the hinge and (when the sensor has it) the keyboard.
    private let hinge: (scale: Double, offset: Double)
    private let keyboard: (scale: Double, offset: Double)?

    /// The first IIO device, by name, with `in_angl0_raw`, but `excluded`.
    static func discover(excluded: String? = nil) -> HingeSensor? {
        for sysname in Sysfs.list(Sysfs.iioDevices).sorted() where sysname != excluded {
            let path = Sysfs.iioDevices + "/" + sysname
            if Sysfs.exists(path + "/in_angl0_raw") { return HingeSensor(sysname: sysname, path: path) }
        }
        return nil
    }

    private init(sysname: String, path: String) {
        self.sysname = sysname
        self.path = path
        func calibration(_ index: Int) -> (scale: Double, offset: Double) {
            let scale = (Sysfs.attribute(path + "/in_angl\(index)_scale") ?? Sysfs.attribute(path + "/in_angl_scale"))
                .flatMap(Double.init) ?? 1
            let offset = (Sysfs.attribute(path + "/in_angl\(index)_offset") ?? Sysfs.attribute(path + "/in_angl_offset"))
                .flatMap(Double.init) ?? 0
            return (scale * 180 / Double.pi, offset)
        }
        hinge = calibration(0)
        keyboard = Sysfs.exists(path + "/in_angl2_raw") ? calibration(2) : nil
    }

    /// Channel `index` in degrees with its calibration, nil when it cannot be read.
    private func degrees(_ index: Int, _ calibration: (scale: Double, offset: Double)) -> Double? {
        guard let raw = Sysfs.attribute(path + "/in_angl\(index)_raw").flatMap(Double.init) else { return nil }
        let value = (raw + calibration.offset) * calibration.scale
        return value.isFinite ? value : nil
    }

    /// The hinge angle (0–360) and, when the sensor has one, the keyboard's.
    func read() -> (hinge: Double, keyboard: Double?)? {
        guard let angle = degrees(0, hinge) else { return nil }
        return (max(0, min(360, angle)), keyboard.flatMap { degrees(2, $0) })
    }
}
