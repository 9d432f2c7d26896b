// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import OrientationAPI
import Policy

extension PolicyError {
    /// The D-Bus error the contract names for this refusal: the standard ones under
    /// `org.freedesktop.DBus.Error.`, the service's own under `org.orientationd.Orientation1.Error.`.
    var dbusError: DBusError {
        switch kind {
        case .invalidArgs: .invalidArgs(message)
        case .accessDenied: .accessDenied(message)
        case .unknownObject: .unknownObject(message)
        case .limitsExceeded: .limitsExceeded(message)
        default: DBusError(name: Orientation1.errorPrefix + kind.rawValue, message: message)
        }
    }
}

extension DBusError {
    /// One of the service's own errors, e.g. `NotSimulated`.
    static func service(_ name: String, _ message: String) -> DBusError {
        DBusError(name: Orientation1.errorPrefix + name, message: message)
    }
}
