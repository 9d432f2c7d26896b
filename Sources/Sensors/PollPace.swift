/// How often a polled accelerometer is read: at the moving rate while readings change, at the
/// slower still rate once they have held within a small tolerance for a while.
///
/// Detecting a turn from stillness takes half the still interval on average, and the classifier's
/// settle time comes on top; once the readings move, polling is fast again for what follows.
public struct PollPace: Sendable {
    /// Polls a second while the device moves (`[Sensor] PollHz`).
    public let pollHz: Int
    /// Milliseconds between polls while the device moves.
    public let movingIntervalMs: Int
    /// Milliseconds between polls once it has lain still (`[Sensor] StillPollHz`).
    public let stillIntervalMs: Int
    /// How long readings must hold before the still rate applies.
    public let stillAfterMs: Double
    /// How far (m/s², per axis) a reading may stray and still count as the same pose: about 3°,
    /// well above a resting sensor's noise and well below any turn.
    public let tolerance: Double

    private var reference: Sample?

    public init(pollHz: Int, stillPollHz: Int, stillAfterMs: Double = 1000, tolerance: Double = 0.5) {
        self.pollHz = max(1, pollHz)
        movingIntervalMs = max(1, 1000 / self.pollHz)
        stillIntervalMs = max(movingIntervalMs, 1000 / max(1, stillPollHz))
        self.stillAfterMs = stillAfterMs
        self.tolerance = tolerance
    }

    /// The interval to wait before the next poll, given the reading just taken.
    public mutating func interval(after sample: Sample) -> Int {
        if let r = reference, abs(sample.x - r.x) <= tolerance, abs(sample.y - r.y) <= tolerance,
           abs(sample.z - r.z) <= tolerance {
            return sample.t - r.t >= stillAfterMs ? stillIntervalMs : movingIntervalMs
        }
        reference = sample
        return movingIntervalMs
    }

    /// Forgets the readings: the next one starts at the moving rate.
    public mutating func reset() { reference = nil }
}
