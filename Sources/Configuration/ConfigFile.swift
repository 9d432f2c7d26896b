// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls
import DBus
import Orientation
import Policy
import Sensors

/// Reads the daemon's config file (dbus-api.md, "Configuration file") into `Settings`.
package enum ConfigFile {
    /// The groups and keys the daemon knows; anything else is warned about.
    package static let known: [String: Set<String>] = [
        "Application": ["SupportedOrientations", "Idiom"],
        "Rotation": ["Duration"],
        "Screen": ["PortraitSize"],
        "Sensor": ["Source", "PollHz", "StillPollHz", "StillAfterMs", "StillTolerance", "MotionEvents", "MotionStillAfterMs",
                   "MountMatrix"],
        "Classifier": Set(ClassifierSettings.keys.map(\.key)),
        "Limits": ["Windows", "Controllers", "Depth", "WindowsPerUser", "ControllersPerUser", "TotalWindows", "TotalControllers",
                   "QueuedBytes", "QueuedBytesPerUser", "TotalQueuedBytes"],
        "Security": ["PrivilegedUsers", "PrivilegedGroups"],
        "Compat": ["SensorProxy"],
        // Besides DataDirs and Declarations, every key is an application id (checked below).
        "Applications": ["DataDirs", "Declarations"],
        "Posture": Set(["Rotate", "PointerEvidence"] + PostureThresholds.keys.map(\.key)),
        "Lock": ["SuggestionSeconds"],
    ]

    /// The largest config file read: the shipped one is a few KiB, and `[Applications]` holds at most
    /// a few thousand short lines.
    package static let sizeLimit = 1024 * 1024

    /// Applies the file at `path` to `settings`; a missing file is all defaults only when `optional`.
    /// Returns warnings (unknown groups and keys) for the caller to log.
    package static func apply(path: String, optional: Bool, to settings: inout Settings) throws(StartupError) -> [String] {
        // A missing optional file is told by access(2): GLib's message for it would load iconv's
        // modules to convert strerror's text from the C locale's charset, for nothing.
        if optional && FileSystem.existenceError(path) == .noSuchFileOrDirectory { return [] }
        let file = KeyFile()
        let bytes: [UInt8]
        do {
            bytes = try StartupFile.read(path, limit: Self.sizeLimit)
        } catch {
            if case .missing = error, optional { return [] }
            throw StartupError.configuration("cannot read the config file \(path): \(error.message)")
        }
        do {
            try file.load(data: bytes)
        } catch {
            throw StartupError.configuration("cannot read the config file \(path): \(error.message)")
        }
        settings.configFiles.append(path)
        var warnings: [String] = []
        for group in file.groups {
            guard let keys = known[group] else {
                warnings.append("\(path): unknown group [\(group)] ignored")
                continue
            }
            for key in file.keys(in: group) {
                guard file.isUTF8(group, key) else {
                    let what = "\(path): [\(group)] \(key): the value is not UTF-8 text"
                    // As every bad entry of [Applications], a warning: the desktop file then decides.
                    if group == "Applications" { warnings.append(what + ", ignored"); continue }
                    throw StartupError.configuration(what)
                }
                if !keys.contains(key) && group != "Applications" {
                    warnings.append("\(path): unknown key \(key) in [\(group)] ignored")
                } else if let text = file.string(group, key) {
                    settings.configValues.append(ConfigValue(group: group, key: key, value: text.trimmed, file: path))
                }
            }
        }
        func value(_ group: String, _ key: String) -> String? { file.string(group, key)?.trimmed }
        func fail(_ group: String, _ key: String, _ what: String) -> StartupError {
            // A value is quoted up to 80 characters: a line of a megabyte would bury the reason.
            let whole = value(group, key) ?? ""
            guard whole.count > 80 else { return .configuration("\(path): [\(group)] \(key)=\(whole): \(what)") }
            let shown = String(whole.prefix(80)) + "… (\(whole.utf8.count) bytes)"
            return .configuration("\(path): [\(group)] \(key)=\(shown): \(what.replacingEvery(whole, with: shown))")
        }
        /// A `true` or `false` key; nil when absent.
        func flag(_ group: String, _ key: String) throws(StartupError) -> Bool? {
            guard let text = value(group, key) else { return nil }
            switch text {
            case "true": return true
            case "false": return false
            default: throw fail(group, key, "accepted: true, false")
            }
        }

        if let text = value("Application", "Idiom") {
            if text.lowercased() == "auto" {
                settings.idiomFile = nil
            } else {
                do { settings.policy.idiom = try Idiom(parsing: text) } catch {
                    throw fail("Application", "Idiom", "accepted: auto (from the chassis), phone, tablet")
                }
                settings.idiomFile = path
            }
        }
        if let text = value("Application", "SupportedOrientations") {
            do {
                settings.policy.applicationMask = try OrientationMask(parsing: text)
            } catch { throw fail("Application", "SupportedOrientations", error.message) }
        }
        if let text = value("Rotation", "Duration") {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 5 else {
                throw fail("Rotation", "Duration", "accepted: seconds from 0 to 5, e.g. 0.3")
            }
            settings.rotationDuration = seconds
        }
        if let text = value("Screen", "PortraitSize") {
            guard let size = parseSize(text) else {
                throw fail("Screen", "PortraitSize", "accepted: WIDTHxHEIGHT in pixels, each 1–65535, e.g. 1080x1920")
            }
            settings.portraitSize = size
        }
        if let text = value("Sensor", "Source") {
            guard let source = SensorSourceKind(rawValue: text) else {
                throw fail("Sensor", "Source", "accepted: " + SensorSourceKind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            settings.sensor = source
        }
        if let text = value("Sensor", "PollHz") {
            guard let hz = Int(text), (1...200).contains(hz) else { throw fail("Sensor", "PollHz", "accepted: 1–200") }
            settings.pollHz = hz
        }
        if let text = value("Sensor", "StillPollHz") {
            guard let hz = Double(text), hz.isFinite, (0.1...200).contains(hz) else {
                throw fail("Sensor", "StillPollHz", "accepted: 0.1–200, decimals too (1.43 is iio-sensor-proxy's 700 ms)")
            }
            settings.stillPollHz = hz
        }
        if let text = value("Sensor", "StillAfterMs") {
            guard let ms = Double(text), ms.isFinite, (0...60_000).contains(ms) else {
                throw fail("Sensor", "StillAfterMs", "accepted: milliseconds from 0 to 60000, e.g. 1000")
            }
            settings.stillAfterMs = ms
        }
        if let text = value("Sensor", "StillTolerance") {
            guard let tolerance = Double(text), tolerance.isFinite, (0.01...5).contains(tolerance) else {
                throw fail("Sensor", "StillTolerance", "accepted: m/s² per axis from 0.01 to 5, e.g. 0.5")
            }
            settings.stillTolerance = tolerance
        }
        if let on = try flag("Sensor", "MotionEvents") { settings.motionEvents = on }
        if let text = value("Sensor", "MotionStillAfterMs") {
            guard let ms = Double(text), ms.isFinite, (0...60_000).contains(ms) else {
                throw fail("Sensor", "MotionStillAfterMs", "accepted: milliseconds from 0 to 60000, e.g. 100")
            }
            settings.motionStillAfterMs = ms
        }
        if let text = value("Sensor", "MountMatrix") {
            do { settings.mountMatrix = try MountMatrix(parsing: text) } catch {
                throw fail("Sensor", "MountMatrix", error.message + "; accepted: 'a, b, c; d, e, f; g, h, i' with no all-zero row")
            }
        }
        for (key, path) in limitKeys {
            guard let text = value("Limits", key) else { continue }
            guard let count = Int(text), (1...1_000_000).contains(count) else {
                throw fail("Limits", key, "accepted: a count from 1 to 1000000")
            }
            settings.policy.limits[keyPath: path] = count
        }
        for (key, path) in queueKeys {
            guard let text = value("Limits", key) else { continue }
            guard let bytes = Int(text), (1024...(1 << 30)).contains(bytes) else {
                throw fail("Limits", key, "accepted: bytes from 1024 to 1073741824")
            }
            settings.queueLimits[keyPath: path] = bytes
        }
        warnings += ineffectiveLimits(settings.policy.limits).map { "\(path): [Limits] \($0)" }
        /// A group of numbers, each in its range, into `target`; then the group's own check of them together.
        func numbers<T>(_ group: String, _ keys: [(key: String, path: WritableKeyPath<T, Double>, range: ClosedRange<Double>)],
                        _ unit: String, into target: inout T, inconsistency: (T) -> String?) throws(StartupError) {
            for entry in keys {
                guard let text = value(group, entry.key) else { continue }
                guard let number = Double(text), entry.range.contains(number) else {
                    throw fail(group, entry.key, "accepted: \(unit) from \(entry.range.lowerBound) to \(entry.range.upperBound)")
                }
                target[keyPath: entry.path] = number
            }
            if let problem = inconsistency(target) { throw StartupError.configuration("\(path): [\(group)]: \(problem)") }
        }
        try numbers("Classifier", ClassifierSettings.keys, "a number", into: &settings.classifier) { $0.inconsistency }
        if let text = value("Security", "PrivilegedUsers") { settings.privilegedUsers = list(text) }
        if let text = value("Security", "PrivilegedGroups") { settings.privilegedGroups = list(text) }
        warnings += applications(file, path: path, to: &settings)
        if let text = value("Posture", "Rotate") {
            do { settings.policy.rotatingPostures = try Posture.set(parsing: text) } catch {
                throw fail("Posture", "Rotate", error.message + "; e.g. stand;tent;tablet;unknown (empty: never turn)")
            }
        }
        try numbers("Posture", PostureThresholds.keys, "degrees", into: &settings.postureThresholds) { $0.inconsistency }
        if let text = value("Posture", "PointerEvidence") {
            guard text == "auto" || text == "off" else {
                throw fail("Posture", "PointerEvidence", "accepted: auto (the pointers plugged in give the posture) or off")
            }
            settings.pointerEvidence = text == "auto"
        }
        if let text = value("Lock", "SuggestionSeconds") {
            guard let seconds = Int(text), (0...600).contains(seconds) else {
                throw fail("Lock", "SuggestionSeconds", "accepted: whole seconds from 0 (never suggest) to 600")
            }
            settings.suggestionSeconds = seconds
            settings.policy.suggestsRotation = seconds > 0
        }
        if let on = try flag("Compat", "SensorProxy") { settings.sensorProxyCompat = on }
        return warnings
    }

    /// Applies the main file (`configPath`, else the default one, which may be missing), then each
    /// drop-in in force (`ConfigFiles`): a later key overrides an earlier one, `[Applications]` entries
    /// merge. A bad value in any of them stops the start naming its file.
    package static func applyAll(configPath: String?, to settings: inout Settings) throws(StartupError) -> [String] {
        var warnings = try apply(path: configPath ?? Settings.defaultConfigPath, optional: configPath == nil, to: &settings)
        for dropIn in ConfigFiles.dropIns(in: ConfigFiles.directories(forMainFile: configPath)) {
            // A drop-in removed since the directory was listed is passed over.
            warnings += try apply(path: dropIn, optional: true, to: &settings)
        }
        return warnings
    }

    /// `[Applications]`: `DataDirs`, `Declarations` (when declarations bind: `bind`, `fullscreen`, `ignore`;
    /// a bad value is a warning, and the idiom's default stays), and one declaration per application
    /// id. A key that is not an id, or
    /// a value that is not a mask, is ignored with a warning naming it (applications.md): the next
    /// source, the desktop file, is then asked for that application.
    package static func applications(_ file: KeyFile, path: String, to settings: inout Settings) -> [String] {
        var warnings: [String] = []
        for key in file.keys(in: "Applications") {
            guard let text = file.string("Applications", key)?.trimmed else { continue }
            if key == "DataDirs" {
                guard !text.isEmpty else { continue }
                let directories = text.split(separator: ":").map(String.init)
                if let relative = directories.first(where: { !$0.hasPrefix("/") }) {
                    warnings.append("\(path): [Applications] DataDirs: '\(relative)' is not an absolute directory; DataDirs ignored")
                } else {
                    settings.applicationDataDirs = directories
                }
                continue
            }
            if key == "Declarations" {
                guard !text.isEmpty else { continue }
                do { settings.policy.declarations = try DeclarationBinding(parsing: text) } catch {
                    warnings.append("\(path): [Applications] Declarations: \(error.message); the idiom's default "
                        + "(bind on a phone, fullscreen on a tablet) stays")
                }
                continue
            }
            guard let id = ApplicationID(rawValue: key) else {
                warnings.append("\(path): [Applications] \(key) is not an application id (a desktop file's name without "
                    + ".desktop); ignored")
                continue
            }
            do {
                settings.policy.applications[id] = try OrientationMask(parsing: text)
            } catch {
                warnings.append("\(path): [Applications] \(key)=\(text): \(error.message); ignored, so \(key)'s desktop file decides")
            }
        }
        return warnings
    }

    /// `[Limits]`'s keys and the limits they set.
    package static var limitKeys: [(String, WritableKeyPath<Limits, Int>)] {
        [("Windows", \.windows), ("Controllers", \.controllers), ("Depth", \.depth),
         ("WindowsPerUser", \.windowsPerUser), ("ControllersPerUser", \.controllersPerUser),
         ("TotalWindows", \.totalWindows), ("TotalControllers", \.totalControllers)]
    }

    /// `[Limits]`'s keys for the bytes of calls waiting their turn (Docs/security.md, "Calls in turns").
    package static var queueKeys: [(String, WritableKeyPath<QueueLimits, Int>)] {
        [("QueuedBytes", \.bytesPerClient), ("QueuedBytesPerUser", \.bytesPerUser), ("TotalQueuedBytes", \.bytesInAll)]
    }

    /// A narrower limit above a wider one is allowed (the wider one binds first) but is likely a
    /// mistake, e.g. `Windows` raised without `WindowsPerUser`; say so.
    package static func ineffectiveLimits(_ limits: Limits) -> [String] {
        let pairs: [(String, Int, String, Int)] = [
            ("Windows", limits.windows, "WindowsPerUser", limits.windowsPerUser),
            ("WindowsPerUser", limits.windowsPerUser, "TotalWindows", limits.totalWindows),
            ("Controllers", limits.controllers, "ControllersPerUser", limits.controllersPerUser),
            ("ControllersPerUser", limits.controllersPerUser, "TotalControllers", limits.totalControllers),
        ]
        return pairs.filter { $0.1 > $0.3 }.map { narrow, n, wide, w in
            "\(narrow)=\(n) is above \(wide)=\(w), which binds first; raise \(wide) too for \(narrow) to take effect"
        }
    }

    /// `1080x1920`.
    package static func parseSize(_ text: String) -> ScreenSize? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = UInt32(parts[0]), let h = UInt32(parts[1]),
              (1...65535).contains(w), (1...65535).contains(h) else { return nil }
        return ScreenSize(width: w, height: h)
    }

    /// `;`-separated names, blanks dropped.
    package static func list(_ text: String) -> [String] {
        text.split(separator: ";").map { String($0).trimmed }.filter { !$0.isEmpty }
    }
}

extension String {
    /// Without leading and trailing blanks.
    package var trimmed: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
