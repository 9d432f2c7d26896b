// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import DBus

/// Why following stopped: the daemon or the bus answered with an error, or something else went wrong
/// (sway went away, a socket could not be opened). The command line reports it and sets the exit status.
public enum FollowError: Error {
    case dbus(DBusError)
    case runtime(String)
}

/// The command whose lines `say` writes: `follow`, or `report-focus` when the session agent turns the panel.
nonisolated(unsafe) public var sayingCommand = "follow"

/// One line on stderr from `follow`, which reports what it does as it goes.
func say(_ message: String) {
    fputs("orientationctl: \(sayingCommand): \(message)\n", stderr)
}
