// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import DesktopSession
import Orientation
import OrientationAPI

/// Why a command stopped, and so which exit status it gets.
enum Failure: Error {
    /// The command line was wrong: message on stderr, exit status 2.
    case usage(String)
    /// A command's arguments were wrong: as `usage`, pointing at the command's own help.
    case commandUsage(String, command: String)
    /// The daemon or the bus answered with an error: message and error name on stderr, exit status 1.
    case dbus(DBusError)
    /// Anything else that went wrong at run time, exit status 1.
    case runtime(String)

    var exitStatus: Int32 {
        switch self {
        case .usage, .commandUsage: 2
        case .dbus, .runtime: 1
        }
    }

    /// The line printed on stderr, without the program name.
    var message: String {
        switch self {
        case .usage(let text): "\(text)\nTry 'orientationctl --help'."
        case .commandUsage(let text, let command): "\(text)\nTry 'orientationctl \(command) --help'."
        case .dbus(let error): "\(error.message.isEmpty ? "D-Bus call failed" : error.message) (\(error.name))"
        case .runtime(let text): text
        }
    }
}

extension Failure {
    /// The binding's error as the tool reports it; a call to a name nobody owns says the daemon is not running.
    /// With `askPassword` false, a refusal for want of a password says how to be asked for one.
    init(_ error: DBusError, askPassword: Bool = true) {
        if error.kind == .serviceUnknown {
            self = .dbus(DBusError(name: error.name, message: "orientationd is not running on this bus: \(error.message)"))
        } else if !askPassword, error.message.includes(Orientation1.interactiveAuthorizationRefused) {
            self = .dbus(DBusError(name: error.name, message: error.message
                + "; without --no-ask-password, orientationctl lets polkit ask for a password"))
        } else {
            self = .dbus(error)
        }
    }
}

extension Failure {
    /// Why `follow` stopped, as the tool reports it.
    init(_ error: FollowError) {
        switch error {
        case .dbus(let error): self.init(error)
        case .runtime(let text): self = .runtime(text)
        }
    }
}
