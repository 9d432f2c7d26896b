// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import DesktopSession
/// `status` and `get`: reading manager properties.
enum StatusCommands {
    static func status(_ invocation: Invocation) throws(Failure) {
        _ = try invocation.expectOperands([])
        let manager = try Manager(invocation)
        let properties = PropertyFormat.ordered(try manager.allProperties())
        if invocation.json {
            emit(JSON.object(properties.flatMap { PropertyFormat.json($0.0, $0.1) }).rendered)
            return
        }
        let width = properties.map(\.0.count).max() ?? 0
        for (name, value) in properties {
            let pad = String(repeating: " ", count: width - name.count)
            emit("\(name):\(pad) \(PropertyFormat.described(name, value))")
        }
        if properties.first(where: { $0.0 == "MountMatrixSuspect" })?.1.boolValue == true {
            emit("")
            emit("The display's accelerometer read another edge up for 10 s while the device was a laptop: its")
            emit("mount matrix is probably wrong. 'sudo orientationctl calibrate' measures it and writes the fix.")
        }
        let focused = properties.first { $0.0 == "FocusedApplication" }?.1.stringValue ?? ""
        let hint = ReporterHint.lines(focusedApplication: focused)
        if !hint.isEmpty {
            emit("")
            for line in hint { emit(line) }
        }
    }

    static func get(_ invocation: Invocation) throws(Failure) {
        let given = try invocation.expectOperands(["PROPERTY"])[0]
        // Known names are matched without regard to case; others go to the daemon as written.
        let name = PropertyFormat.managerProperties.first { $0.lowercased() == given.lowercased() } ?? given
        let manager = try Manager(invocation)
        let value: Value
        do {
            value = try manager.property(name)
        } catch {
            guard case .dbus(let dbusError) = error, dbusError.name == "org.freedesktop.DBus.Error.UnknownProperty" else {
                throw error
            }
            throw .usage("get: '\(given)' is not a property of orientationd; properties: "
                + PropertyFormat.managerProperties.joined(separator: ", "))
        }
        if invocation.json {
            emit(JSON.object(PropertyFormat.json(name, value)).rendered)
        } else {
            emit(PropertyFormat.text(name, value))
        }
    }
}

extension Command {
    static let status = Command(
        name: "status", synopsis: "status", summary: "show every manager property, values as names",
        help: """
            Usage: orientationctl [--json] status

            Prints every property of the manager (org.orientationd.Orientation1 on
            /org/orientationd/Orientation1), one 'Name: value' line each: orientations
            by name, masks as lists of names, booleans as yes/no, ScreenBounds as WxH,
            FocusedProcess as a process id or 'none'. After DeviceOrientation and
            InterfaceOrientation, the edge of the device that is up, as monitor-sensor says
            it: UIKit's landscape names cross (the device in landscape-left, its right edge
            up, shows the interface in landscape-right), so both read
            'landscape-… (right edge up)'. IdiomSource says where Idiom comes from: the
            config file, or the chassis (Idiom=auto).

            When nothing reports the application in front (FocusedApplication is empty)
            although the desktop in use (XDG_CURRENT_DESKTOP) has a reporter that is off
            (GNOME Shell's extension not enabled, KWin's script disabled, no
            'orientationctl report-focus' running on sway, Hyprland, river, Phosh, ...),
            a last paragraph says so and gives the command that turns it on. When
            MountMatrixSuspect is yes (the display's accelerometer read another edge up
            for 10 s of laptop posture), a paragraph names 'orientationctl calibrate'.

            \(Help.jsonScheme)
            """,
        run: StatusCommands.status)

    static let get = Command(
        name: "get", synopsis: "get PROPERTY", summary: "show one manager property",
        help: """
            Usage: orientationctl [--json] get PROPERTY

            Prints one manager PROPERTY as 'status' shows it, without the edge, e.g.
            'orientationctl get InterfaceOrientation' prints 'portrait'. An unknown
            PROPERTY is a usage error (exit status 2) listing them.
            PROPERTY is one of (case does not matter):
              \(PropertyFormat.managerProperties.joined(separator: ", "))
            With --json: an object with the property, as in 'orientationctl help status'.
            """,
        operands: .words(PropertyFormat.managerProperties), run: StatusCommands.get)
}
