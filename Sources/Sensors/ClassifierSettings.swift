// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// The classifier's thresholds (`[Classifier]` in the config file), each with the default of sensors.md.
public struct ClassifierSettings: Equatable, Sendable {
    /// Standard gravity, m/s²: the unit of the magnitude thresholds.
    public static let gravity = 9.81

    /// Beyond this tilt from the screen's plane, in degrees, the device is face up or face down.
    public var flatAngle = 70.0
    /// How far back within the flat angle the tilt must come before an edge is computed again, degrees.
    public var flatHysteresis = 10.0
    /// How far past the 45° boundary the angle must go to leave the current edge, degrees.
    public var edgeHysteresis = 15.0
    /// How long a proposed orientation must hold before it is reported, milliseconds.
    public var settleMs = 100.0
    /// Sooner than the settle time, a proposed orientation is reported once the pose itself has held
    /// this long, milliseconds: a device at rest in it, not swinging through it.
    public var restMs = 20.0
    /// How far (m/s², per axis) the samples of a pose at rest may stray: about 3°, above a resting
    /// sensor's noise and far below what a swing moves in `restMs`.
    public var restTolerance = 0.5
    /// How long the magnitude must be steady again after accelerating, milliseconds.
    public var holdOffMs = 300.0
    /// Below this magnitude, in g, the device is taken to be accelerating.
    public var minMagnitude = 0.6
    /// Above this magnitude, in g, the device is taken to be accelerating.
    public var maxMagnitude = 1.4
    /// Samples above this magnitude, in g, are absurd and dropped.
    public var absurdMagnitude = 4.0
    /// Overhead (Docs/sensors.md, "The classifier", grips): at this tilt or lower, in degrees (the screen facing down at an
    /// angle, held above the face of someone lying on the back), no edge change is proposed…
    public var overheadTilt = -40.0
    /// …until the tilt rises above this one, degrees.
    public var overheadEndTilt = -15.0
    /// Flat, then picked up: after lying face up or face down this long, milliseconds…
    public var flatLiftAfterMs = 1000.0
    /// …no edge change for this long from the first sample back within the flat angle, milliseconds.
    public var flatLiftHoldMs = 500.0
    /// Swing: a tilt this many degrees above the lowest of the previous `swingWindowMs`…
    public var swingDegrees = 20.0
    public var swingWindowMs = 300.0
    /// …stops edge changes for this long, milliseconds, and drops the candidate.
    public var swingHoldMs = 300.0
    /// Jolt: the early report at rest counts only samples whose magnitude is within this fraction of 1 g.
    public var restMagnitudeTolerance = 0.05
    /// Turning: while the angle in the screen's plane moves faster than this, degrees per second, over
    /// the last half `turnWindowMs`, no candidate settles (a turn through an edge is not a turn to it);
    /// with no sample for `turnWindowMs` the device is still.
    public var turnRate = 120.0
    public var turnWindowMs = 100.0
    /// The touch hold (P20): after the last contact on a touchscreen lifts, the device does not turn the
    /// screen for this long, milliseconds; 0 never holds (and no touchscreen is opened).
    public var touchHoldMs = 500.0
    /// A contact held longer than this, seconds, is taken as lifted: a stuck digitizer holds nothing for ever.
    public var touchStuckSeconds = 30.0

    public init() {}

    /// The config keys, with how each is read and its accepted range.
    public static var keys: [(key: String, path: WritableKeyPath<ClassifierSettings, Double>, range: ClosedRange<Double>)] {[
        ("FlatAngle", \.flatAngle, 45...89),
        ("FlatHysteresis", \.flatHysteresis, 0...30),
        ("EdgeHysteresis", \.edgeHysteresis, 0...40),
        ("SettleMs", \.settleMs, 0...2000),
        ("RestMs", \.restMs, 1...2000),
        ("RestTolerance", \.restTolerance, 0...2),
        ("HoldOffMs", \.holdOffMs, 0...5000),
        ("MinMagnitude", \.minMagnitude, 0.1...1.0),
        ("MaxMagnitude", \.maxMagnitude, 1.0...4.0),
        ("AbsurdMagnitude", \.absurdMagnitude, 1.5...16),
        ("OverheadTilt", \.overheadTilt, -89...0),
        ("OverheadEndTilt", \.overheadEndTilt, -89...0),
        ("FlatLiftAfterMs", \.flatLiftAfterMs, 0...60_000),
        ("FlatLiftHoldMs", \.flatLiftHoldMs, 0...5000),
        ("SwingDegrees", \.swingDegrees, 1...180),
        ("SwingWindowMs", \.swingWindowMs, 0...5000),
        ("SwingHoldMs", \.swingHoldMs, 0...5000),
        ("RestMagnitudeTolerance", \.restMagnitudeTolerance, 0.005...1),
        ("TurnRate", \.turnRate, 10...100_000),
        ("TurnWindowMs", \.turnWindowMs, 20...1000),
        ("TouchHoldMs", \.touchHoldMs, 0...10_000),
        ("TouchStuckSeconds", \.touchStuckSeconds, 1...3600),
    ]}

    /// Why these settings make no sense together, nil when they do.
    public var inconsistency: String? {
        if flatHysteresis >= flatAngle { return "FlatHysteresis must be smaller than FlatAngle" }
        if minMagnitude >= maxMagnitude { return "MinMagnitude must be smaller than MaxMagnitude" }
        if maxMagnitude >= absurdMagnitude { return "MaxMagnitude must be smaller than AbsurdMagnitude" }
        if overheadEndTilt < overheadTilt { return "OverheadEndTilt must not be below OverheadTilt" }
        return nil
    }
}
