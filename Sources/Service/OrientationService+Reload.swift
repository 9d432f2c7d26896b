// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Configuration
import Log
import Sensors

/// Reading the configuration again without a restart (SIGHUP, `systemctl reload orientationd`;
/// Docs/sensors.md, "Calibration"). The hinge thresholds of `[Posture]` take effect at once;
/// every other key keeps the value the daemon started with, and each one changed in the files is
/// named in the log as waiting for a restart.
extension OrientationService {
    /// The `[Posture]` keys a reload applies.
    static let reloadedKeys: Set<String> = Set(PostureThresholds.keys.map { "Posture/" + $0.key })

    /// Applies what a reload may change from `new`, the settings the files give now.
    public func reload(_ new: Settings) {
        let before = Self.inForce(settings.configValues), after = Self.inForce(new.configValues)
        var waiting: [String] = []
        for name in Set(before.keys).union(after.keys).sorted() where before[name] != after[name] && !Self.reloadedKeys.contains(name) {
            waiting.append(name)
        }
        if new.postureThresholds != postureThresholds {
            postureThresholds = new.postureThresholds
            postureSource?.setThresholds(new.postureThresholds)
            let t = new.postureThresholds
            Log.info("reload: [Posture] LaptopAngle=\(t.laptopAngle) TabletAngle=\(t.tabletAngle) Hysteresis=\(t.hysteresis) "
                     + "TentKeyboardAngle=\(t.tentKeyboardAngle) in force")
        } else {
            Log.info("reload: the hinge thresholds are unchanged")
        }
        for name in waiting {
            let parts = name.split(separator: "/", maxSplits: 1)
            Log.warning("reload: [\(parts[0])] \(parts[1]) changed in the files; it takes effect when orientationd restarts")
        }
    }

    /// The value in force of each `group/key`: the last file to set it wins.
    private static func inForce(_ values: [ConfigValue]) -> [String: String] {
        var result: [String: String] = [:]
        for entry in values { result[entry.group + "/" + entry.key] = entry.value }
        return result
    }
}
