import Follow
/// `status` and `get`: reading manager properties.
enum StatusCommands {
    static func status(_ invocation: Invocation) throws(Failure) {
        _ = try invocation.expectOperands([])
        let manager = try Manager(bus: invocation.bus)
        let properties = PropertyFormat.ordered(try manager.allProperties())
        if invocation.json {
            emit(JSON.object(properties.flatMap { PropertyFormat.json($0.0, $0.1) }).rendered)
            return
        }
        let width = properties.map(\.0.count).max() ?? 0
        for (name, value) in properties {
            let pad = String(repeating: " ", count: width - name.count)
            emit("\(name):\(pad) \(PropertyFormat.text(name, value))")
        }
    }

    static func get(_ invocation: Invocation) throws(Failure) {
        let given = try invocation.expectOperands(["PROPERTY"])[0]
        // Known names are matched without regard to case; others go to the daemon as written.
        let name = PropertyFormat.managerProperties.first { $0.lowercased() == given.lowercased() } ?? given
        let manager = try Manager(bus: invocation.bus)
        let value = try manager.property(name)
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
            FocusedProcess as a process id or 'none'.

            \(Help.jsonScheme)
            """,
        run: StatusCommands.status)

    static let get = Command(
        name: "get", synopsis: "get PROPERTY", summary: "show one manager property",
        help: """
            Usage: orientationctl [--json] get PROPERTY

            Prints one manager PROPERTY as 'status' shows it, e.g.
            'orientationctl get InterfaceOrientation' prints 'portrait'.
            PROPERTY is one of (case does not matter):
              \(PropertyFormat.managerProperties.joined(separator: ", "))
            With --json: an object with the property, as in 'orientationctl help status'.
            """,
        operands: .words(PropertyFormat.managerProperties), run: StatusCommands.get)
}
