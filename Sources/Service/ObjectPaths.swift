// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import OrientationAPI
import Policy

/// The policy's identifiers as the API's object paths, and back.
enum ObjectPaths {
    /// `/org/orientationd/Orientation1/window/N`.
    static func path(of id: WindowID) -> String { Orientation1.windowPath(id.rawValue) }

    /// `/org/orientationd/Orientation1/controller/N`.
    static func path(of id: ControllerID) -> String { Orientation1.controllerPath(id.rawValue) }

    /// `/` for none, as the API writes it.
    static func path(of id: ControllerID?) -> String { id.map { path(of: $0) } ?? Orientation1.noObjectPath }

    /// The window a path names, nil when it names none.
    static func window(at path: String) -> WindowID? { Orientation1.windowNumber(at: path).map(WindowID.init(rawValue:)) }

    /// The controller a path names, nil when it names none.
    static func controller(at path: String) -> ControllerID? {
        Orientation1.controllerNumber(at: path).map(ControllerID.init(rawValue:))
    }
}
