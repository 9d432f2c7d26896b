import DBus

/// The process behind each client, which the focus authority names (P6f): asked of the bus once per
/// client (`GetConnectionUnixProcessID`), without blocking the loop, and forgotten when it leaves.
///
/// While a client's lookup is in flight its later requests wait behind it, in order, so one client
/// never has more than one lookup outstanding.
final class ClientProcesses {
    private let connection: Connection
    private var known: [String: UInt32] = [:]
    private var waiting: [String: [(UInt32?) -> Void]] = [:]

    init(connection: Connection) {
        self.connection = connection
    }

    /// Calls `then` with the client's process id: at once when known, else once the bus answers;
    /// nil when the bus cannot tell (the client has left).
    func process(of client: String, _ then: @escaping (UInt32?) -> Void) {
        if let pid = known[client] { return then(pid) }
        if waiting[client] != nil {
            waiting[client]?.append(then)
            return
        }
        waiting[client] = [then]
        connection.callBusDriver("GetConnectionUnixProcessID", [.string(client)]) { [weak self] result in
            guard let self, let callers = waiting.removeValue(forKey: client) else { return }
            let pid: UInt32?
            if case .success(let values) = result, let value = values.first?.uint32Value {
                pid = value
                known[client] = value
            } else {
                pid = nil
            }
            for caller in callers { caller(pid) }
        }
    }

    /// The client left the bus.
    func forget(_ client: String) {
        known[client] = nil
    }
}
