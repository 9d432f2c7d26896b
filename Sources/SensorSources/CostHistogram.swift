// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Glibc

/// Durations in whole microseconds (the monotonic clock's resolution), kept as a histogram so that
/// memory stays constant however long the daemon runs: exact below 1 ms, within 1% above, up to
/// 1,000 s. Its medians and percentiles are those of every duration recorded.
public struct CostHistogram {
    /// Durations below this are counted one bucket per microsecond, exactly.
    static let exactBelow = 1000
    /// Above `exactBelow`, each bucket is this much wider than the one before.
    static let growth = 1.01
    static let logBuckets = Int((log(1e9 / Double(exactBelow)) / log(growth)).rounded(.up))

    /// Allocated at the first duration, so a daemon that never reads samples pays nothing.
    private var counts: [UInt32] = []
    /// How many durations were recorded.
    public private(set) var count = 0

    public init() {}

    /// How many counters it holds (constant once the first duration is recorded).
    var storageCount: Int { counts.count }

    /// Records one duration.
    public mutating func record(microseconds: Int) {
        if counts.isEmpty { counts = Array(repeating: 0, count: Self.exactBelow + Self.logBuckets + 1) }
        let index = Self.bucket(of: max(0, microseconds))
        if counts[index] < UInt32.max { counts[index] += 1 }
        count += 1
    }

    /// The duration below which `fraction` of the recorded ones fall (0.5: the median); nil when empty.
    public func quantile(_ fraction: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = min(count - 1, Int(Double(count) * fraction))
        var seen = 0
        for (index, n) in counts.enumerated() {
            seen += Int(n)
            if seen > rank { return Self.value(of: index) }
        }
        return Self.value(of: counts.count - 1)
    }

    static func bucket(of microseconds: Int) -> Int {
        guard microseconds >= exactBelow else { return microseconds }
        let step = Int(log(Double(microseconds) / Double(exactBelow)) / log(growth))
        return exactBelow + min(step, logBuckets)
    }

    /// A bucket's representative duration: exact below 1 ms, the bucket's geometric middle above.
    static func value(of index: Int) -> Double {
        guard index >= exactBelow else { return Double(index) }
        return Double(exactBelow) * pow(growth, Double(index - exactBelow) + 0.5)
    }
}
