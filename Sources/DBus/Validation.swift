// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import CDBus

/// Checks names before they reach libdbus, whose argument checks abort the
/// process on invalid input (`dbus_validate_*`, `dbus_signature_validate*`).
enum Validate {
    private static func check(_ s: String, _ what: String,
                              _ fn: (UnsafePointer<CChar>?, UnsafeMutablePointer<CDBus.DBusError>?) -> dbus_bool_t) throws(DBusError) {
        if s.utf8.contains(0) { throw DBusError.invalidArgs("invalid \(what) (contains NUL): '\(s)'") }
        let ok = s.withCString { fn($0, nil) } != 0
        if !ok { throw DBusError.invalidArgs("invalid \(what): '\(s)'") }
    }

    static func path(_ s: String) throws(DBusError) { try check(s, "object path") { dbus_validate_path($0, $1) } }
    static func interface(_ s: String) throws(DBusError) { try check(s, "interface name") { dbus_validate_interface($0, $1) } }
    static func member(_ s: String) throws(DBusError) { try check(s, "member name") { dbus_validate_member($0, $1) } }
    static func errorName(_ s: String) throws(DBusError) { try check(s, "error name") { dbus_validate_error_name($0, $1) } }
    static func busName(_ s: String) throws(DBusError) { try check(s, "bus name") { dbus_validate_bus_name($0, $1) } }
    static func utf8(_ s: String) throws(DBusError) { try check(s, "string") { dbus_validate_utf8($0, $1) } }
    /// Any sequence of complete types (possibly empty), within libdbus' depth limits.
    static func signature(_ s: String) throws(DBusError) { try check(s, "signature") { dbus_signature_validate($0, $1) } }
    /// Exactly one complete type.
    static func singleType(_ s: String) throws(DBusError) { try check(s, "single complete type") { dbus_signature_validate_single($0, $1) } }

}
