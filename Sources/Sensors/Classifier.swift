import Orientation
@preconcurrency import Glibc

/// One accelerometer reading, m/s² after the mount matrix, at `t` milliseconds on any monotonic clock.
public struct Sample: Equatable, Sendable {
    public var t: Double
    public var x: Double
    public var y: Double
    public var z: Double
    public init(t: Double, x: Double, y: Double, z: Double) {
        self.t = t
        self.x = x
        self.y = y
        self.z = z
    }
}

/// Turns a stream of samples into device orientations (sensors.md, "Classifier").
///
/// Pure and deterministic: time comes only from the samples' timestamps and
/// from `advance(to:)`, so a trace always gives the same answers.
public struct Classifier: Sendable {
    public let settings: ClassifierSettings
    /// The orientation last reported; unknown until the first one settles.
    public private(set) var reported: DeviceOrientation = .unknown
    /// The orientation waiting to settle, and since when.
    private var candidate: (orientation: DeviceOrientation, since: Double)?
    /// The last time the magnitude was outside the steady band.
    private var unsteadyAt: Double?
    private var lastTime: Double?

    public init(settings: ClassifierSettings = ClassifierSettings()) {
        self.settings = settings
    }

    /// When `advance(to:)` should be called if no sample comes first, so a settled pose is not kept waiting.
    public var deadline: Double? {
        guard let candidate else { return nil }
        return max(candidate.since + settings.settleMs, (unsteadyAt ?? -.infinity) + settings.holdOffMs)
    }

    /// Takes one sample; returns the orientation to report when it changes.
    public mutating func add(_ sample: Sample) -> DeviceOrientation? {
        let g = ClassifierSettings.gravity
        guard sample.x.isFinite, sample.y.isFinite, sample.z.isFinite, sample.t.isFinite else { return nil }
        let magnitude = (sample.x * sample.x + sample.y * sample.y + sample.z * sample.z).squareRoot()
        guard magnitude <= settings.absurdMagnitude * g, magnitude > 0 else { return nil }
        if let last = lastTime, sample.t < last { return nil }
        lastTime = sample.t
        guard magnitude >= settings.minMagnitude * g, magnitude <= settings.maxMagnitude * g else {
            unsteadyAt = sample.t
            candidate = nil
            return nil
        }
        propose(pose(of: sample, magnitude: magnitude), at: sample.t)
        return advance(to: sample.t)
    }

    /// Reports the candidate once it has held for the settle time and the hold-off has passed.
    public mutating func advance(to t: Double) -> DeviceOrientation? {
        guard let candidate, let deadline, t >= deadline else { return nil }
        self.candidate = nil
        reported = candidate.orientation
        return reported
    }

    private mutating func propose(_ orientation: DeviceOrientation, at t: Double) {
        if orientation == reported {
            candidate = nil
        } else if candidate?.orientation != orientation {
            candidate = (orientation, t)
        }
    }

    /// The pose a sample shows, with the hysteresis of the orientation last reported.
    func pose(of s: Sample, magnitude: Double) -> DeviceOrientation {
        let degrees = 180 / Double.pi
        let tilt = asin(max(-1, min(1, s.z / magnitude))) * degrees
        let isFlat = reported == .faceUp || reported == .faceDown
        let flatLimit = isFlat ? settings.flatAngle - settings.flatHysteresis : settings.flatAngle
        if abs(tilt) > flatLimit { return tilt > 0 ? .faceUp : .faceDown }
        // 0° is portrait (y down), +90° left edge up, ±180° upside down, −90° right edge up.
        let angle = atan2(s.x, -s.y) * degrees
        if let center = Classifier.center(of: reported), abs(Classifier.difference(angle, center)) <= 45 + settings.edgeHysteresis {
            return reported
        }
        return Classifier.edges.min { abs(Classifier.difference(angle, $0.1)) < abs(Classifier.difference(angle, $1.1)) }!.0
    }

    static let edges: [(DeviceOrientation, Double)] = [
        (.portrait, 0), (.landscapeRight, 90), (.portraitUpsideDown, 180), (.landscapeLeft, -90),
    ]

    static func center(of orientation: DeviceOrientation) -> Double? {
        edges.first { $0.0 == orientation }?.1
    }

    /// The signed difference of two angles, in −180…180.
    static func difference(_ a: Double, _ b: Double) -> Double {
        var d = (a - b).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 }
        if d < -180 { d += 360 }
        return d
    }
}
