// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import OrientationAPI
import DesktopSession

/// Turns the manager's signals into monitor lines (text or JSON).
struct EventPrinter {
    let json: Bool

    /// Prints one line for a manager signal; ignores anything else.
    func print(_ message: Message) {
        guard message.path == Orientation1.managerPath, let member = message.member,
              let args = try? message.arguments() else { return }
        let time = timestamp()
        switch (message.interface, member) {
        case (Orientation1.managerInterface, "DeviceOrientationDidChange"):
            guard let raw = args.first?.uint32Value else { return }
            let name = PropertyFormat.deviceName(raw)
            line(time, "device", text: PropertyFormat.described("DeviceOrientation", .uint32(raw)),
                 json: [("orientation", .string(name)), ("orientationValue", .int(Int64(raw)))])
        case (Orientation1.managerInterface, "WillChange"), (Orientation1.managerInterface, "DidChange"):
            guard args.count == 2, let from = args[0].uint32Value, let to = args[1].uint32Value else { return }
            let event = member == "WillChange" ? "will-change" : "did-change"
            let fromName = PropertyFormat.interfaceName(from), toName = PropertyFormat.interfaceName(to)
            line(time, event, text: "\(fromName) -> \(PropertyFormat.described("InterfaceOrientation", .uint32(to)))",
                 json: [("from", .string(fromName)), ("fromValue", .int(Int64(from))),
                        ("to", .string(toName)), ("toValue", .int(Int64(to)))])
        case (Orientation1.managerInterface, "RotationSuggested"):
            guard let raw = args.first?.uint32Value else { return }
            let name = PropertyFormat.interfaceName(raw)
            line(time, "suggested", text: "\(PropertyFormat.described("InterfaceOrientation", .uint32(raw))) while rotation "
                + "is locked; 'orientationctl accept-suggestion' turns to it",
                 json: [("orientation", .string(name)), ("orientationValue", .int(Int64(raw)))])
        case (StandardInterface.properties, "PropertiesChanged"):
            guard let change = PropertiesChanged(message), change.interface == Orientation1.managerInterface else { return }
            // The device line says DeviceOrientation already: one line per device change.
            let values = change.changed.filter { $0.0 != "DeviceOrientation" }, invalidated = change.invalidated
            guard !values.isEmpty || !invalidated.isEmpty else { return }
            line(time, "changed", text: Self.text(values, invalidated: invalidated),
                 json: [("properties", .object(values.flatMap { PropertyFormat.json($0.0, $0.1) })),
                        ("invalidated", .array(invalidated.map(JSON.string)))])
        default:
            return
        }
    }

    /// The first line: the state when monitoring began, as `monitor-sensor` prints it first.
    func printState(_ properties: [(String, Value)]) {
        let shown = ["DeviceOrientation", "InterfaceOrientation", "SupportedMask", "RotationLocked"]
        let values = shown.compactMap { name in properties.first { $0.0 == name } }
        line(timestamp(), "state", text: Self.text(values, invalidated: []),
             json: [("properties", .object(PropertyFormat.ordered(properties).flatMap { PropertyFormat.json($0.0, $0.1) }))])
    }

    private static func text(_ values: [(String, Value)], invalidated: [String]) -> String {
        (values.map { "\($0.0): \(PropertyFormat.described($0.0, $0.1))" } + invalidated.map { "\($0) (invalidated)" })
            .joined(separator: "; ")
    }

    private func line(_ time: String, _ event: String, text: String, json members: [(String, JSON)]) {
        if json {
            emit(JSON.object([("time", .string(time)), ("event", .string(event))] + members).rendered)
        } else {
            emit("\(time) \(event) \(text)")
        }
    }
}
