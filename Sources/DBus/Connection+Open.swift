// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import CDBus
import EventLoop

extension BusAddress {
    /// Where libdbus looks for the system bus when `DBUS_SYSTEM_BUS_ADDRESS` is unset (this
    /// distribution's `DBUS_SYSTEM_BUS_DEFAULT_ADDRESS`; `/var/run` is a link to `/run`).
    public static let systemDefault = "unix:path=/run/dbus/system_bus_socket"

    /// The address libdbus would connect to for this bus: `DBUS_SYSTEM_BUS_ADDRESS` or `systemDefault`
    /// for the system bus, `DBUS_SESSION_BUS_ADDRESS` for the session bus, the address itself otherwise.
    public func resolved() throws(DBusError) -> String {
        switch self {
        case .system:
            guard let value = getenv("DBUS_SYSTEM_BUS_ADDRESS") else { return BusAddress.systemDefault }
            return String(cString: value)
        case .session:
            guard let value = getenv("DBUS_SESSION_BUS_ADDRESS") else {
                throw DBusError(name: DBusError.Kind.badAddress.name,
                                message: "no session bus: DBUS_SESSION_BUS_ADDRESS is not set")
            }
            return String(cString: value)
        case .address(let address):
            return address
        }
    }
}

extension Connection {
    /// Opens a private connection to `bus` and registers it without waiting on the loop: wraps
    /// `dbus_connection_open_private`, then sends `Hello` with `dbus_connection_send_with_reply` and
    /// records the answer with `dbus_bus_set_unique_name`. libdbus authenticates and says `Hello`
    /// from the main loop's watches, so a bus that accepts the socket and then stays silent costs
    /// nothing but the `timeoutMs` wait (-1: libdbus' 25 s). `completion` always runs later, from
    /// the main loop, with the registered connection, or with the error after the connection is closed.
    ///
    /// Only the socket's `connect()` is made before returning: on a Unix socket it returns at once,
    /// unless the listener has stopped accepting and its backlog is full.
    public static func open(bus: BusAddress, timeoutMs: Int32 = -1,
                            completion: @escaping (Result<Connection, DBusError>) -> Void) {
        let connection: Connection
        do {
            connection = try Connection(unregistered: bus)
        } catch {
            Idle.schedule { completion(.failure(error)) }
            return
        }
        connection.callBusDriver("Hello", timeoutMs: timeoutMs) { result in
            switch result.flatMap(uniqueName(inHello:)).flatMap(connection.register(as:)) {
            case .success:
                completion(.success(connection))
            case .failure(let error):
                connection.close()
                // Released from the loop, not from inside libdbus' delivery of this reply.
                Idle.schedule { withExtendedLifetime(connection) { completion(.failure(error)) } }
            }
        }
    }

    /// An opened connection, attached to the loop but not yet registered with the bus.
    private convenience init(unregistered bus: BusAddress) throws(DBusError) {
        let address = try bus.resolved()
        var err = CDBus.DBusError()
        dbus_error_init(&err)
        guard let c = dbus_connection_open_private(address, &err) else { throw DBusError(consuming: &err) }
        self.init(opened: c)
    }

    /// Tells libdbus the name `Hello` gave (`dbus_bus_set_unique_name`), so its bus calls work.
    private func register(as name: String) -> Result<Void, DBusError> {
        guard dbus_bus_set_unique_name(raw, name) != 0 else { return .failure(.noMemory()) }
        uniqueName = name
        return .success(())
    }
}

/// The unique name in the bus's answer to `Hello`.
private func uniqueName(inHello values: [Value]) -> Result<String, DBusError> {
    guard values.count == 1, let name = values[0].stringValue, !name.isEmpty else {
        return .failure(.failed("the bus answered Hello without a unique name"))
    }
    return .success(name)
}
