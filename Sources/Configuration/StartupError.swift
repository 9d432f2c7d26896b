// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus

/// Why the daemon cannot start: the line it prints and the status it exits with.
public struct StartupError: Error, CustomStringConvertible {
    public let message: String
    public let exitStatus: Int32

    /// A bad flag or config value, or a file one of them names: exit status 2.
    public static func configuration(_ message: String) -> StartupError { StartupError(message: message, exitStatus: 2) }

    /// The bus refused: exit status 1, the error shown with its D-Bus name.
    public static func bus(_ error: DBusError) -> StartupError { StartupError(message: "\(error)", exitStatus: 1) }

    public var description: String { message }
}
