// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Log
/// Where an accelerometer sits in the machine, and what said so (sensors.md, "Location").
///
/// A convertible has one in its display and often one in its base; only the display's follows the
/// screen. The kernel names them with the sysfs `label` (`accel-display`, `accel-base`); older
/// drivers and systemd's hwdb quirks with sysfs `location` and the udev property `ACCEL_LOCATION`
/// (`display` or `lid`, `base`).
struct AccelerometerLocation: Equatable {
    enum Place: Equatable {
        case display
        case base
        /// Nothing says: the device is taken to be the display's when no other one is marked so.
        case unspecified
    }

    let place: Place
    /// `udev property ACCEL_LOCATION 'base'`, for the log; empty when unspecified.
    let source: String

    /// Reads, first found of: the udev property `ACCEL_LOCATION` (a quirk, which corrects the
    /// driver), sysfs `label`, sysfs `location`. A value that means nothing here is logged and the
    /// next is tried; a `label` that names no location (labels name other things too) is skipped quietly.
    /// `logging` false says nothing (a second look at devices whose warnings were given already).
    init(path: String, sysname: String, udev: UdevProperties, logging: Bool = true) {
        let candidates: [(String, String?, Bool)] = [
            ("udev property ACCEL_LOCATION", udev["ACCEL_LOCATION"], true),
            ("sysfs label", Sysfs.attribute(path + "/label"), false),
            ("sysfs location", Sysfs.attribute(path + "/location"), true),
        ]
        for (source, value, isLocation) in candidates {
            guard let value else { continue }
            if let place = Self.place(value) {
                self.place = place
                self.source = "\(source) '\(value)'"
                return
            }
            if isLocation && logging { Log.warning("\(sysname): \(source) '\(value)' ignored; accepted: display, lid, base") }
        }
        place = .unspecified
        source = ""
    }

    private static func place(_ value: String) -> Place? {
        switch value {
        case "display", "lid", "accel-display": .display
        case "base", "accel-base": .base
        default: nil
        }
    }
}
