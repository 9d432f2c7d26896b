// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// Which of an IIO accelerometer's event attributes (`events/*_en`) say "the device moved", and so
/// may wake a reader that has stopped polling a device lying still (Docs/sensors.md, "Motion events").
///
/// Drivers name a motion detector by its event type and direction: an activity detector relative to
/// a reference (`in_accel_mag_adaptive_rising_en`, `..._mag_referenced_rising_en`), a magnitude
/// (`in_accel_x&y&z_mag_rising_en`), a rate of change (`in_accel_roc_rising_en`) or a slope threshold
/// on any axis (`in_accel_thresh_either_en`, `in_accel_x_thresh_rising_en`). The first kind found in
/// that order is used, every attribute of that kind enabled (one per axis, or one for all).
/// Falling events (free fall, inactivity) never wake the reader.
public enum MotionEventChoice {
    /// Event kinds, best first: `<type>_<direction>` as the attribute names end before `_en`.
    public static let kinds = ["mag_adaptive_rising", "mag_referenced_rising", "mag_rising", "mag_either",
                               "roc_rising", "roc_either", "thresh_either", "thresh_rising"]

    /// The enable attributes to switch on among `names` (the files of a device's `events/`), in order;
    /// empty when none is an accelerometer's motion event.
    public static func enableAttributes(in names: [String]) -> [String] {
        let accel = names.filter { $0.utf8.starts(with: "in_accel".utf8) && endsWith($0, Array("_en".utf8)) }
        for kind in kinds {
            let ending = Array("_\(kind)_en".utf8)
            let chosen = accel.filter { endsWith($0, ending) }
            if !chosen.isEmpty { return chosen.sorted() }
        }
        return []
    }

    /// Whether `name` ends with `suffix`, compared byte by byte (no grapheme breaking on sysfs names).
    private static func endsWith(_ name: String, _ suffix: [UInt8]) -> Bool {
        let bytes = Array(name.utf8)
        return bytes.count >= suffix.count && bytes[(bytes.count - suffix.count)...].elementsEqual(suffix)
    }
}
