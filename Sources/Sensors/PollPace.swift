// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// How often a polled accelerometer is read: at the moving rate while readings change, at the
/// slower still rate once they have held within a small tolerance for a while.
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
    /// Milliseconds between polls once it has lain still (`[Sensor] StillPollHz`).
    public let stillIntervalMs: Int
    /// How long readings must hold before the still rate applies (`motionStillAfterMs` while motion events
    /// wake the reader, else `[Sensor] StillAfterMs`).
    public var stillAfterMs: Double
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

    public init(pollHz: Int, stillPollHz: Int, stillAfterMs: Double = 1000, tolerance: Double = 0.5, confirmMs: Double = 20,
                motionStillAfterMs: Double? = nil) {
        self.pollHz = max(1, pollHz)
        movingIntervalMs = max(1, 1000 / self.pollHz)
        stillIntervalMs = max(movingIntervalMs, 1000 / max(1, stillPollHz))
        self.stillAfterMs = stillAfterMs
        self.tolerance = tolerance
        confirmIntervalMs = min(movingIntervalMs, max(1, Int(confirmMs.rounded(.up))))
        self.motionStillAfterMs = motionStillAfterMs
    }

    /// Whether the readings have held for `stillAfterMs`.
    public var isStill: Bool { still }

    /// The interval to wait before the next poll, given the reading just taken.
    public mutating func interval(after sample: Sample) -> Int {
        if let r = reference, abs(sample.x - r.x) <= tolerance, abs(sample.y - r.y) <= tolerance,
           abs(sample.z - r.z) <= tolerance {
            still = still || sample.t - r.t >= stillAfterMs
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
