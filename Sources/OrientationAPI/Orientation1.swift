// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// The names of orientationd's own D-Bus API (dbus-api.md, "Names"), for the daemon that
/// serves them and for every client: `orientationctl`, the tests, anyone linking this module.
public enum Orientation1 {
    /// The well-known name the daemon owns.
    public static let busName = "org.orientationd.Orientation1"
    /// The manager object.
    public static let managerPath = "/org/orientationd/Orientation1"
    public static let managerInterface = "org.orientationd.Orientation1"
    public static let windowInterface = "org.orientationd.Orientation1.Window"
    public static let controllerInterface = "org.orientationd.Orientation1.Controller"
    /// What code generated from the interface XML calls each interface (the `org.gtk.GDBus.C.Name`
    /// annotation): with the namespace `Orientation`, `OrientationManager`, `OrientationWindow`,
    /// `OrientationController`.
    public static func generatedName(of interface: String) -> String? {
        switch interface {
        case managerInterface: "Manager"
        case windowInterface: "Window"
        case controllerInterface: "Controller"
        default: nil
        }
    }
    /// Windows live at this prefix followed by their number.
    public static let windowPathPrefix = managerPath + "/window/"
    /// Controllers live at this prefix followed by their number.
    public static let controllerPathPrefix = managerPath + "/controller/"
    /// The service's own error names are this prefix followed by the error, e.g. `NoCommonOrientation`.
    public static let errorPrefix = "org.orientationd.Orientation1.Error."
    /// The object path that stands for "no object" in `o` values.
    public static let noObjectPath = "/"
    /// How long the daemon waits for polkit to answer a check that may ask a person for a password
    /// (the call allowed interactive authorization); a client that allows it waits at least as long.
    public static let interactiveAuthorizationMs: UInt32 = 300_000
    /// Words of the `AccessDenied` message for a call polkit would have allowed after asking for a
    /// password, had the call allowed interactive authorization.
    public static let interactiveAuthorizationRefused = "did not allow interactive authorization"

    /// `org.orientationd.Orientation1.Error.NAME`.
    public static func errorName(_ name: String) -> String { errorPrefix + name }

    /// `/org/orientationd/Orientation1/window/N`.
    public static func windowPath(_ number: UInt64) -> String { windowPathPrefix + String(number) }

    /// `/org/orientationd/Orientation1/controller/N`.
    public static func controllerPath(_ number: UInt64) -> String { controllerPathPrefix + String(number) }

    /// The number of the window `path` names; nil when it names none.
    public static func windowNumber(at path: String) -> UInt64? { number(after: windowPathPrefix, in: path) }

    /// The number of the controller `path` names; nil when it names none.
    public static func controllerNumber(at path: String) -> UInt64? { number(after: controllerPathPrefix, in: path) }

    /// The decimal number after `prefix`, written as the daemon writes it (no sign, no leading zero).
    private static func number(after prefix: String, in path: String) -> UInt64? {
        guard path.hasPrefix(prefix) else { return nil }
        let digits = path.dropFirst(prefix.count)
        guard !digits.isEmpty, digits.first != "0", digits.allSatisfy(\.isASCII) else { return nil }
        return UInt64(digits)
    }
}
