// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import CDBus

/// A D-Bus error: the error name sent on the wire and a human-readable message
/// (the Swift side of libdbus' `DBusError` and of error replies).
public struct DBusError: Error, Equatable, CustomStringConvertible {
    /// The D-Bus error name, e.g. `org.freedesktop.DBus.Error.InvalidArgs`.
    public var name: String
    /// The explanation shown to the caller.
    public var message: String

    /// Creates an error with an arbitrary error name.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }

    /// Copies and frees a libdbus `DBusError` filled in by a failed call (`dbus_error_free`).
    init(consuming error: inout CDBus.DBusError) {
        name = error.name.map { String(cString: $0) } ?? DBusError.failedName
        message = error.message.map { String(cString: $0) } ?? ""
        dbus_error_free(&error)
    }

    static let prefix = "org.freedesktop.DBus.Error."
    static let failedName = prefix + "Failed"

    /// A standard error's full name, e.g. `org.freedesktop.DBus.Error.ServiceUnknown` for `ServiceUnknown`.
    public static func standardName(_ name: String) -> String { prefix + name }

    /// The standard errors the code matches on, by kind, so no caller spells a name to compare.
    public enum Kind: String, Sendable {
        case accessDenied = "AccessDenied", addressInUse = "AddressInUse", badAddress = "BadAddress"
        case disconnected = "Disconnected", failed = "Failed", invalidArgs = "InvalidArgs", limitsExceeded = "LimitsExceeded"
        case nameHasNoOwner = "NameHasNoOwner", noMemory = "NoMemory", noReply = "NoReply", propertyReadOnly = "PropertyReadOnly"
        case serviceUnknown = "ServiceUnknown", timeout = "Timeout", unknownInterface = "UnknownInterface"
        case unknownMethod = "UnknownMethod", unknownObject = "UnknownObject", unknownProperty = "UnknownProperty"

        /// Its full name on the wire.
        public var name: String { DBusError.prefix + rawValue }
    }

    /// Which standard error this is; nil for any other name (the service's own errors included).
    public var kind: Kind? {
        name.hasPrefix(Self.prefix) ? Kind(rawValue: String(name.dropFirst(Self.prefix.count))) : nil
    }

    /// `org.freedesktop.DBus.Error.InvalidArgs`.
    public static func invalidArgs(_ message: String) -> DBusError { .init(name: prefix + "InvalidArgs", message: message) }
    /// `org.freedesktop.DBus.Error.UnknownObject`.
    public static func unknownObject(_ message: String) -> DBusError { .init(name: prefix + "UnknownObject", message: message) }
    /// `org.freedesktop.DBus.Error.UnknownMethod`.
    public static func unknownMethod(_ message: String) -> DBusError { .init(name: prefix + "UnknownMethod", message: message) }
    /// `org.freedesktop.DBus.Error.UnknownInterface`.
    public static func unknownInterface(_ message: String) -> DBusError { .init(name: prefix + "UnknownInterface", message: message) }
    /// `org.freedesktop.DBus.Error.UnknownProperty`.
    public static func unknownProperty(_ message: String) -> DBusError { .init(name: prefix + "UnknownProperty", message: message) }
    /// `org.freedesktop.DBus.Error.PropertyReadOnly`.
    public static func propertyReadOnly(_ message: String) -> DBusError { .init(name: prefix + "PropertyReadOnly", message: message) }
    /// `org.freedesktop.DBus.Error.AccessDenied`.
    public static func accessDenied(_ message: String) -> DBusError { .init(name: prefix + "AccessDenied", message: message) }
    /// `org.freedesktop.DBus.Error.LimitsExceeded`.
    public static func limitsExceeded(_ message: String) -> DBusError { .init(name: prefix + "LimitsExceeded", message: message) }
    /// `org.freedesktop.DBus.Error.Failed`.
    public static func failed(_ message: String) -> DBusError { .init(name: prefix + "Failed", message: message) }
    /// `org.freedesktop.DBus.Error.NoMemory`: libdbus could not allocate.
    public static func noMemory() -> DBusError { .init(name: prefix + "NoMemory", message: "out of memory") }
    /// `org.freedesktop.DBus.Error.AddressInUse`.
    public static func addressInUse(_ message: String) -> DBusError { .init(name: prefix + "AddressInUse", message: message) }
    /// `org.freedesktop.DBus.Error.Disconnected`.
    public static func disconnected(_ message: String) -> DBusError { .init(name: prefix + "Disconnected", message: message) }
}
