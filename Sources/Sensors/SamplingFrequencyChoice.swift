// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// What to set a device's `sampling_frequency` to while it is read at a given rate (sensors.md,
/// "Sampling frequency"): a device left at 1 Hz answers a 20 Hz poll with the same value for a second.
public enum SamplingFrequencyChoice {
    /// The frequency to ask for when `current` is below `wanted`: the lowest of `available` at or
    /// above `wanted`, else the highest listed when that is still above `current`; `wanted` itself
    /// when nothing is listed. Nil when the device is fast enough already or cannot go faster.
    public static func raise(current: Double, wanted: Double, available: [Double]?) -> Double? {
        guard current < wanted else { return nil }
        guard let listed = available?.filter(\.isFinite).sorted(), let highest = listed.last else { return wanted }
        if let enough = listed.first(where: { $0 >= wanted }) { return enough }
        return highest > current ? highest : nil
    }

    /// `value` as written to sysfs: no decimals when it is whole ("25", not "25.0").
    public static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
