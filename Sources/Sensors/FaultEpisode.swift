// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// Tells a source when to log a fault and when to give up on the pose: once per episode of
/// consecutive failures, never per sample (sensors.md, "Faults").
public struct FaultEpisode: Sendable {
    /// Consecutive failures after which the orientation is reported unknown.
    public let unknownAfter: Int
    public private(set) var failures = 0

    public init(unknownAfter: Int) { self.unknownAfter = max(1, unknownAfter) }

    /// One more failure: whether to log it (the first of an episode) and whether to report the orientation
    /// unknown now (exactly once, when the failures reach `unknownAfter`).
    public mutating func failed() -> (log: Bool, reportUnknown: Bool) {
        failures += 1
        return (failures == 1, failures == unknownAfter)
    }

    /// A good read; true when it ends an episode (log the recovery).
    public mutating func succeeded() -> Bool {
        defer { failures = 0 }
        return failures > 0
    }
}
