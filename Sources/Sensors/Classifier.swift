// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

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
    /// The magnitude taken as 1 g, in the samples' units: standard gravity, until steady samples
    /// agree on another far from it (a device whose scale is wrong, sensors.md "Scale").
    public private(set) var gravity: Double
    /// The orientation last reported; unknown until the first one settles.
    public private(set) var reported: DeviceOrientation = .unknown
    /// Samples outside the magnitude gates that agree with each other: since when, how many, their sum.
    private var offScaleRun: (since: Double, count: Int, sum: Double)?
    /// The orientation waiting to settle, and since when.
    private var candidate: (orientation: DeviceOrientation, since: Double)?
    /// What the last steady sample showed before the grips held it back.
    private var unheld: DeviceOrientation?
    /// The first sample of the pose the candidate has shown since, within the rest tolerance.
    private var rest: Sample?
    /// The last time the magnitude was outside the steady band.
    private var unsteadyAt: Double?
    private var lastTime: Double?
    /// The grips (Docs/sensors.md, "The classifier", grips): while one holds, no edge change is proposed.
    private var grips = Grips()
    /// The angles in the screen's plane of the last half `turnWindowMs` and the one before, oldest first
    /// (only samples off the flat angle: lying flat, the angle means nothing).
    private var angles: [(t: Double, angle: Double)] = []

    /// How long, and over how many samples, magnitudes outside the gates must agree before they are
    /// taken as gravity: longer than any shake or swing, short of a device lying still.
    public static let scaleLearningMs = 1000.0
    public static let scaleLearningSamples = 5
    /// How far, as a fraction of their mean, the magnitudes of such a run may stray: sensor noise at rest.
    public static let scaleLearningTolerance = 0.05

    /// A classifier that takes `gravity` as 1 g (one learned earlier for the same device, so a new
    /// claim need not learn it again).
    public init(settings: ClassifierSettings = ClassifierSettings(), gravity: Double = ClassifierSettings.gravity) {
        self.settings = settings
        self.gravity = gravity
    }

    /// Whether nothing waits to be reported: no candidate is settling and the last sample, grips
    /// aside, shows the orientation reported. A reader may stop sampling a device lying still only
    /// then: a grip that ends or a hold-off that passes needs a sample to propose what it held back.
    public var isSettled: Bool { candidate == nil && (unheld == nil || unheld == reported) }

    /// When `advance(to:)` should be called if no sample comes first, so a settled pose is not kept waiting.
    public var deadline: Double? {
        guard let candidate else { return nil }
        let due = max(candidate.since + settings.settleMs, holdOffEnd)
        guard turning(at: due), let latest = angles.last else { return due }
        return max(due, latest.t + settings.turnWindowMs)
    }

    /// Whether, at `t`, the device is turning in the screen's plane: from the last sample at least
    /// half `turnWindowMs` before the latest one to the latest, the angle moved faster than
    /// `turnRate` (a pose that jumped and stayed stops turning half a window later). When that
    /// sample is further back than `turnWindowMs` (a still device's slow polls, which cannot tell a
    /// turn from a step), the rate is the one from the sample just before the latest: the reading
    /// that confirms a step shows no motion, one taken during a turn does. With no sample in the
    /// last `turnWindowMs`, longer than the polls of a moving device, the device is taken as still,
    /// so a source that reports only on change is not kept waiting.
    func turning(at t: Double) -> Bool {
        guard let latest = angles.last, latest.t > t - settings.turnWindowMs, angles.count >= 2 else { return false }
        var earlier = angles[angles.count - 2]
        if let half = angles.last(where: { $0.t <= latest.t - settings.turnWindowMs / 2 }),
           latest.t - half.t <= settings.turnWindowMs {
            earlier = half
        }
        guard latest.t > earlier.t else { return false }
        return abs(Classifier.difference(latest.angle, earlier.angle)) / (latest.t - earlier.t) * 1000 > settings.turnRate
    }

    /// Keeps `angle` at `t`, and of the older ones those of the last half `turnWindowMs` and the one before.
    private mutating func remember(angle: Double, at t: Double) {
        if let earlier = angles.lastIndex(where: { $0.t <= t - settings.turnWindowMs / 2 }), earlier > 0 {
            angles.removeFirst(earlier)
        }
        angles.append((t, angle))
    }

    /// When the hold-off after the last unsteady magnitude ends.
    private var holdOffEnd: Double { (unsteadyAt ?? -.infinity) + settings.holdOffMs }

    /// Takes one sample; returns the orientation to report when it changes.
    public mutating func add(_ sample: Sample) -> DeviceOrientation? {
        guard sample.x.isFinite, sample.y.isFinite, sample.z.isFinite, sample.t.isFinite else { return nil }
        let magnitude = (sample.x * sample.x + sample.y * sample.y + sample.z * sample.z).squareRoot()
        guard magnitude.isFinite, magnitude > 0 else { return nil }
        if let last = lastTime, sample.t < last { return nil }
        if magnitude >= settings.minMagnitude * gravity, magnitude <= settings.maxMagnitude * gravity {
            offScaleRun = nil
        } else if !learnsGravity(from: magnitude, at: sample.t) {
            guard magnitude <= settings.absurdMagnitude * gravity else { return nil }
            lastTime = sample.t
            unsteadyAt = sample.t
            candidate = nil
            return nil
        }
        lastTime = sample.t
        let proposed = pose(of: sample, magnitude: magnitude)
        let tilt = Self.tilt(of: sample, magnitude: magnitude)
        if abs(tilt) <= settings.flatAngle { remember(angle: Self.angle(of: sample), at: sample.t) }
        let held = grips.hold(proposed, reported: reported, tilt: tilt, at: sample.t, settings)
        unheld = proposed
        propose(held ? reported : proposed, at: sample.t)
        if let orientation = confirmAtRest(sample, magnitude: magnitude) { return orientation }
        return advance(to: sample.t)
    }

    /// The angle of gravity in the screen's plane, degrees: 0 portrait (y down), +90 the left edge
    /// up, ±180 upside down, −90 the right edge up.
    static func angle(of s: Sample) -> Double {
        atan2(s.x, -s.y) * 180 / Double.pi
    }

    /// The angle of the screen's plane to the horizontal, degrees: +90 face up, −90 face down.
    static func tilt(of s: Sample, magnitude: Double) -> Double {
        asin(max(-1, min(1, s.z / magnitude))) * 180 / Double.pi
    }

    /// Takes `sample` as the pose at once, without settling (the first reading of a claim, when no
    /// pose is known): the orientation it shows, or nil for a sample of no length or not finite, which
    /// is taken as `add` takes it.
    public mutating func adopt(_ sample: Sample) -> DeviceOrientation? {
        let magnitude = (sample.x * sample.x + sample.y * sample.y + sample.z * sample.z).squareRoot()
        guard sample.t.isFinite, magnitude.isFinite, magnitude > 0 else { return add(sample) }
        lastTime = sample.t
        let orientation = pose(of: sample, magnitude: magnitude)
        unheld = orientation
        guard orientation != reported else { return nil }
        return report(orientation)
    }

    /// Reports the candidate before its settle time when the pose has held within the rest tolerance
    /// for the rest time (and the hold-off has passed): the device lies in it.
    /// Only samples whose magnitude is within `restMagnitudeTolerance` of 1 g count: a jolt that leaves
    /// the magnitude inside the gates still moves the device, and waits for the settle time.
    private mutating func confirmAtRest(_ sample: Sample, magnitude: Double) -> DeviceOrientation? {
        guard let candidate, abs(magnitude - gravity) <= settings.restMagnitudeTolerance * gravity else {
            rest = nil
            return nil
        }
        let tolerance = settings.restTolerance
        guard let first = rest, first.t >= candidate.since, abs(sample.x - first.x) <= tolerance,
              abs(sample.y - first.y) <= tolerance, abs(sample.z - first.z) <= tolerance else {
            rest = sample
            return nil
        }
        guard sample.t - first.t >= settings.restMs, sample.t >= holdOffEnd, !turning(at: sample.t) else { return nil }
        return report(candidate.orientation)
    }

    /// Counts a magnitude outside the gates towards a run of agreeing ones; when the run has lasted,
    /// its mean becomes gravity and the samples that looked like shaking are taken as steady after all.
    private mutating func learnsGravity(from magnitude: Double, at t: Double) -> Bool {
        var run = offScaleRun ?? (t, 0, 0)
        if run.count > 0, abs(magnitude - run.sum / Double(run.count)) > Self.scaleLearningTolerance * run.sum / Double(run.count) {
            run = (t, 0, 0)
        }
        run.count += 1
        run.sum += magnitude
        guard run.count >= Self.scaleLearningSamples, t - run.since >= Self.scaleLearningMs else {
            offScaleRun = run
            return false
        }
        offScaleRun = nil
        gravity = run.sum / Double(run.count)
        unsteadyAt = nil
        return true
    }

    /// Reports the candidate once it has held for the settle time and the hold-off has passed.
    public mutating func advance(to t: Double) -> DeviceOrientation? {
        guard let candidate, let deadline, t >= deadline, !turning(at: t) else { return nil }
        return report(candidate.orientation)
    }

    /// The candidate settled: it is the orientation reported now.
    private mutating func report(_ orientation: DeviceOrientation) -> DeviceOrientation {
        candidate = nil
        rest = nil
        reported = orientation
        return orientation
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
        let tilt = Self.tilt(of: s, magnitude: magnitude)
        let isFlat = reported == .faceUp || reported == .faceDown
        let flatLimit = isFlat ? settings.flatAngle - settings.flatHysteresis : settings.flatAngle
        if abs(tilt) > flatLimit { return tilt > 0 ? .faceUp : .faceDown }
        let angle = Self.angle(of: s)
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
