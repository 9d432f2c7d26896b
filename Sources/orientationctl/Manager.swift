// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import OrientationAPI

/// The daemon as seen from the tool: blocking calls on one connection.
///
/// Every call allows interactive authorization unless `--no-ask-password` was given, as
/// hostnamectl's do: polkit may then ask the user for a password (through the desktop's agent, or
/// `pkttyagent` on a terminal) before a privileged call is answered, so such a call waits as long
/// as the daemon waits for polkit to answer an interactive check (5 min), not libdbus's 25 s.
struct Manager {
    let connection: Connection
    let interactive: Bool
    let bus: BusAddress
    /// The terminal's password agent, started for the first call that may ask and stopped with the last copy of this value.
    private let agent = AgentHolder()

    /// Holds the password agent while the tool talks to the daemon.
    private final class AgentHolder {
        var agent: PasswordAgent?
        var tried = false
        deinit { agent?.stop() }
    }

    /// How long a call that may ask for a password waits: the daemon's bound for an interactive
    /// check and a margin.
    static let interactiveTimeoutMs = Int32(Orientation1.interactiveAuthorizationMs) + 10_000

    init(_ invocation: Invocation) throws(Failure) {
        do { connection = try Connection(bus: invocation.bus) } catch { throw Failure(error) }
        interactive = invocation.askPassword
        bus = invocation.bus
    }

    /// Calls a method on `path` (the manager by default) and waits for the answer.
    @discardableResult
    func call(_ method: String, _ values: [Value] = [], path: String = Orientation1.managerPath,
              interface: String = Orientation1.managerInterface) throws(Failure) -> [Value] {
        // Reading properties is never privileged; every other call may be.
        let mayAsk = interactive && !(interface == StandardInterface.properties && method != "Set")
        if mayAsk, !agent.tried {
            agent.tried = true
            agent.agent = PasswordAgent.startIfUseful(bus: bus)
        }
        do {
            return try connection.callBlocking(destination: Orientation1.busName, path: path, interface: interface,
                                               method: method, values: values,
                                               timeoutMs: mayAsk ? Self.interactiveTimeoutMs : -1, interactive: mayAsk)
        } catch {
            throw Failure(error, askPassword: interactive)
        }
    }

    /// `Properties.GetAll` on the manager, in the order the daemon sent them.
    func allProperties() throws(Failure) -> [(String, Value)] {
        let reply = try call("GetAll", [.string(Orientation1.managerInterface)], interface: StandardInterface.properties)
        guard let entries = reply.first?.stringKeyedEntries else {
            throw .runtime("GetAll answered with an unexpected reply: \(reply)")
        }
        return entries
    }

    /// `Properties.Get` on `path`.
    func property(_ name: String, path: String = Orientation1.managerPath,
                  interface: String = Orientation1.managerInterface) throws(Failure) -> Value {
        let reply = try call("Get", [.string(interface), .string(name)], path: path, interface: StandardInterface.properties)
        guard let value = reply.first else { throw .runtime("Get answered with no value") }
        return value.variantValue ?? value
    }

    /// `Properties.Set` on `path`.
    func set(_ name: String, _ value: Value, path: String = Orientation1.managerPath,
             interface: String = Orientation1.managerInterface) throws(Failure) {
        try call("Set", [.string(interface), .string(name), .variant(value)], path: path, interface: StandardInterface.properties)
    }

    /// The unique name owning the daemon's well-known name; a clear error when it has none.
    func daemonOwner() throws(Failure) -> String {
        let reply: [Value]
        do {
            reply = try connection.callBusDriverBlocking("GetNameOwner", [.string(Orientation1.busName)])
        } catch let error where error.kind == .nameHasNoOwner {
            throw .dbus(DBusError(name: error.name, message: "orientationd is not running: \(Orientation1.busName) has no owner on this bus"))
        } catch {
            throw .dbus(error)
        }
        guard let owner = reply.first?.stringValue else { throw .runtime("GetNameOwner answered with no name") }
        return owner
    }
}
