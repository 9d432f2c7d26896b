// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import Orientation
import Policy

/// `ReportFocus`'s details (dbus-api.md): what the session's reporter knows and the daemon cannot.
/// Checked whole before anything changes; an unknown key is refused, so a misspelt one is not
/// silently without effect.
struct FocusDetails {
    /// `fullscreen` (b): whether the application's window fills the screen (fullscreen or maximized);
    /// nil when the reporter does not say.
    var fullscreen: Bool?
    /// `user-desktop-file` (a{ss}): the orientation keys of the user's own desktop file for the application.
    var userDesktopFile: [String: String] = [:]

    static let keys = ["fullscreen", "user-desktop-file"]
    static let desktopFileKeys = [ApplicationDeclaration.key, ApplicationDeclaration.lomiriKey]
    /// The longest key value taken: a desktop file's line is short.
    static let maxValueBytes = 1024

    init() {}

    init(_ entries: [(String, Value)], application id: String) throws(PolicyError) {
        for (key, value) in entries {
            switch key {
            case "fullscreen":
                guard let flag = value.boolValue else {
                    throw PolicyError(.invalidArgs, "ReportFocus: the detail 'fullscreen' is a boolean (b), not a value of type '\(value.signature)'")
                }
                fullscreen = flag
            case "user-desktop-file":
                userDesktopFile = try Self.desktopFileKeys(value, application: id)
            default:
                throw PolicyError(.invalidArgs, "ReportFocus: unknown detail '\(key)'; the details are "
                    + Self.keys.map { "'\($0)'" }.joined(separator: " and "))
            }
        }
    }

    /// The `user-desktop-file` detail: a{ss} of at most the two orientation keys, for a named application.
    private static func desktopFileKeys(_ value: Value, application id: String) throws(PolicyError) -> [String: String] {
        let usage = "the detail 'user-desktop-file' is a dictionary (a{ss}) of the user's desktop file's "
            + desktopFileKeys.joined(separator: " and ")
        guard case .dict(let keyType, let valueType, let entries) = value, keyType == "s", valueType == "s" else {
            throw PolicyError(.invalidArgs, "ReportFocus: \(usage), not a value of type '\(value.signature)'")
        }
        guard !id.isEmpty || entries.isEmpty else {
            throw PolicyError(.invalidArgs, "ReportFocus: a 'user-desktop-file' needs the application it belongs to; app_id is empty")
        }
        var keys: [String: String] = [:]
        for (k, v) in entries {
            guard let name = k.stringValue, let text = v.stringValue else { continue }
            guard desktopFileKeys.contains(name) else {
                throw PolicyError(.invalidArgs, "ReportFocus: '\(name)' is not an orientation key; \(usage)")
            }
            guard text.utf8.count <= maxValueBytes else {
                throw PolicyError(.invalidArgs, "ReportFocus: the user's \(name) is \(text.utf8.count) bytes long; "
                    + "at most \(maxValueBytes) are taken")
            }
            keys[name] = text
        }
        return keys
    }
}
