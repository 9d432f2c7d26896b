// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// How often a polled accelerometer is read: at the moving rate while readings change, at the
/// slower still rate once they have held within a small tolerance for a while: at once when the
/// reading that held made the classifier report its pose, `stillAfterMs` once the classifier has
/// settled on the pose (it has nothing left to report without another sample), else the longer
/// `unsettledStillAfterMs`. A turn is over when its pose is reported at rest, not a fixed time later.
///
/// Detecting a turn from stillness takes half the still interval on average. The first reading
/// that moves is checked again after the classifier's rest time (`[Classifier] RestMs`), so a
/// device that has come to rest in a new pose is reported then; otherwise polling is fast again
/// for what follows.
public struct PollPace: Sendable {
    /// Polls a second while the device moves (`[Sensor] PollHz`).
    public let pollHz: Int
    /// Milliseconds between polls while the device moves.
    public let movingIntervalMs: Int
    /// Milliseconds between polls once it has lain still (`[Sensor] StillPollHz`, which takes decimals),
    /// rounded up: the device is never polled more often than asked (1.43 Hz is 700 ms, iio-sensor-proxy's).
    public let stillIntervalMs: Int
    /// How long readings must hold, the classifier settled, before the still rate applies
    /// (`motionStillAfterMs` while motion events wake the reader, else `[Sensor] StillAfterMs`).
    public var stillAfterMs: Double
    /// How long readings must hold before the still rate applies while the classifier has not settled
    /// (a grip holding a pose back, a candidate waiting): a second, or `stillAfterMs` when longer.
    public var unsettledStillAfterMs: Double { max(stillAfterMs, 1000) }
    /// How far (m/s², per axis) a reading may stray and still count as the same pose: about 3°,
    /// well above a resting sensor's noise and well below any turn.
    public let tolerance: Double
    /// Milliseconds to the reading that checks the first one to move after stillness.
    public let confirmIntervalMs: Int
    /// How long readings must hold before a device whose motion events will wake the reader stops
    /// being polled (`[Sensor] MotionStillAfterMs`); nil when motion events are not used
    /// (`[Sensor] MotionEvents=false`).
    public let motionStillAfterMs: Double?

    private var reference: Sample?
    private var still = false
    /// Readings that strayed beyond the tolerance so far: a new pose or a movement each.
    public private(set) var moves = 0

    public init(pollHz: Int, stillPollHz: Double, stillAfterMs: Double = 200, tolerance: Double = 0.5, confirmMs: Double = 20,
                motionStillAfterMs: Double? = nil) {
        self.pollHz = max(1, pollHz)
        movingIntervalMs = max(1, 1000 / self.pollHz)
        stillIntervalMs = max(movingIntervalMs, Int((1000 / max(0.1, stillPollHz) - 1e-6).rounded(.up)))
        self.stillAfterMs = stillAfterMs
        self.tolerance = tolerance
        confirmIntervalMs = min(movingIntervalMs, max(1, Int(confirmMs.rounded(.up))))
        self.motionStillAfterMs = motionStillAfterMs
    }

    /// The still rate the interval gives, for the log: `2`, `1.43`.
    public var stillHzText: String {
        let hz = (1000 / Double(stillIntervalMs) * 100).rounded() / 100
        return hz == hz.rounded() ? SysfsNumber.decimal(Int(hz)) : String(hz)
    }

    /// Whether the readings have held long enough for the still rate.
    public var isStill: Bool { still }

    /// The interval to wait before the next poll, given the reading just taken, whether the
    /// classifier has settled after it, and whether it reported a pose on it. A reading that holds
    /// the one before it and made the classifier report its pose ends the turn at once: the pose
    /// is reported at rest and nothing is left to settle, so the still rate applies without
    /// `stillAfterMs` (the turn rule: Docs/sensors.md, "Battery against latency").
    public mutating func interval(after sample: Sample, settled: Bool = true, reported: Bool = false) -> Int {
        if let r = reference, abs(sample.x - r.x) <= tolerance, abs(sample.y - r.y) <= tolerance,
           abs(sample.z - r.z) <= tolerance {
            let held = sample.t - r.t
            still = still || (settled && reported) || held >= (settled ? stillAfterMs : unsettledStillAfterMs)
            return still ? stillIntervalMs : movingIntervalMs
        }
        if reference != nil { moves += 1 }
        reference = sample
        defer { still = false }
        return still ? confirmIntervalMs : movingIntervalMs
    }

    /// Forgets the readings: the next one starts at the moving rate.
    public mutating func reset() {
        reference = nil
        still = false
    }
}
