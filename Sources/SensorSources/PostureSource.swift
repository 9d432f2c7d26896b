@preconcurrency import Glibc
import Orientation
import Sensors
import EventLoop
import Log

/// Where the convertible's posture comes from (posture.md, "Posture"), read only while someone
/// claims orientations, first found of: a hinge sensor (an IIO device with angle channels, polled
/// four times a second: 0 the hinge, 1 the screen, 2 the keyboard, (raw + offset) × scale radians),
/// classified by `PostureThresholds`; a tablet-mode switch of an input device (`SW_TABLET_MODE`:
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
    private var reader: InputSwitch?
    private var hingeTimer: EventLoop.Timer?
    private var posture = Posture.unknown
    private var running = false
    /// The switch last used, so starting again with the same one is not logged every claim.
    private var lastLogged: String?

    public init(thresholds: PostureThresholds = PostureThresholds(), displayUpsideDown: @escaping () -> Bool = { false },
                sink: @escaping Sink) {
        self.thresholds = thresholds
        self.displayUpsideDown = displayUpsideDown
        self.sink = sink
    }

    /// How often a hinge sensor is read while claimed: a fold takes a second or more.
    static let hingeIntervalMs: UInt32 = 250

    /// Watches the posture while `running`; stopping reports `unknown` and closes the device. Each
    /// start looks for the switch anew, so a keyboard cover attached between claims is found.
    public func setRunning(_ running: Bool) {
        guard running != self.running else { return }
        self.running = running
        if running { start() } else { stop() }
    }

    private func start() {
        if let hinge = HingeSensor.discover() {
            if lastLogged != hinge.path {
                lastLogged = hinge.path
                Log.info("posture from the hinge sensor \(hinge.sysname), read every \(Self.hingeIntervalMs) ms while claimed")
            }
            posture = .unknown
            readHinge(hinge)
            hingeTimer = EventLoop.Timer(everyMs: Self.hingeIntervalMs) { [unowned self] in readHinge(hinge) }
            return
        }
        guard let found = InputSwitch.discover(InputSwitch.tabletMode) else { return }
        do {
            let switchReader = try InputSwitch(node: found.node, code: InputSwitch.tabletMode, changed: { [unowned self] on in
                sink(on ? .tablet : .laptop, -1)
            }, failure: { [unowned self] problem in
                reader = nil
                Log.info("posture: \(problem); the posture is unknown until a tablet-mode switch is there at the next claim")
                sink(.unknown, -1)
            })
            reader = switchReader
            let on = try switchReader.state()
            if lastLogged != found.node {
                lastLogged = found.node
                Log.info("posture from \(found.sysname)'s \(InputSwitch.name(InputSwitch.tabletMode)) (\(found.node))")
            }
            sink(on ? .tablet : .laptop, -1)
        } catch {
            reader?.close()
            reader = nil
            Log.warning("posture: \(error); the posture stays unknown")
        }
    }

    private func stop() {
        reader?.close()
        reader = nil
        hingeTimer?.cancel()
        hingeTimer = nil
        posture = .unknown
        sink(.unknown, -1)
    }

    /// One reading of the hinge: its posture and angle, or unknown when the device went.
    private func readHinge(_ hinge: HingeSensor) {
        guard let angles = hinge.read() else {
            if posture != .unknown { Log.info("posture: the hinge sensor \(hinge.sysname) cannot be read; the posture is unknown") }
            posture = .unknown
            sink(.unknown, -1)
            return
        }
        posture = thresholds.posture(hinge: angles.hinge, keyboard: angles.keyboard, displayUpsideDown: displayUpsideDown(),
                                     previous: posture)
        sink(posture, angles.hinge)
    }
}

/// A hinge sensor (posture.md, source 1): an IIO device with angle channels, e.g. Intel sensor
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

    /// The first IIO device, by name, with `in_angl0_raw`.
    static func discover() -> HingeSensor? {
        for sysname in Sysfs.list(Sysfs.iioDevices).sorted() {
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
