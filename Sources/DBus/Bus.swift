// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// Where replies and signals are sent: a bus connection, or an embedded bus in tests.
public protocol MessageSink: AnyObject {
    /// Queues a message for sending; returns its serial (0 when the sink assigns none).
    @discardableResult
    func send(_ message: Message) throws(DBusError) -> UInt32
}

/// What a service needs of a bus: its exported objects, its names, calls to other services and to the
/// bus driver, and clients leaving. `Connection` is the one on libdbus; tests have an embedded one that
/// delivers calls in process (as swift-nio tests protocol code on an `EmbeddedChannel`).
public protocol Bus: MessageSink {
    /// The objects exported on this bus, answered from their interface tables.
    var objects: ObjectServer { get }
    /// This connection's unique name, e.g. `:1.7`.
    var uniqueName: String { get }
    /// Whether messages wait to be written.
    var hasMessagesToSend: Bool { get }
    /// Called once when the bus goes away (not after `close()`).
    var onDisconnected: (() -> Void)? { get set }

    /// Asks for a well-known name; returns whether this connection is now its primary owner.
    @discardableResult
    func requestName(_ name: String, flags: NameFlags) throws(DBusError) -> Bool
    /// Gives a well-known name back; returns whether it was owned.
    @discardableResult
    func releaseName(_ name: String) throws(DBusError) -> Bool
    /// Reports names appearing, changing owner and leaving (an empty owner means none). A client
    /// that leaves with calls waiting is reported after they are handled.
    @discardableResult
    func watchNameOwnerChanged(_ handler: @escaping (_ name: String, _ oldOwner: String, _ newOwner: String) -> Void) -> SignalSubscription
    /// Calls a method without blocking; `completion` always runs later, from the main loop.
    func call(destination: String?, path: String, interface: String?, method: String, values: [Value], timeoutMs: Int32,
              completion: @escaping (Result<[Value], DBusError>) -> Void)
    /// Sends a method call nobody waits an answer for.
    func callWithoutReply(destination: String?, path: String, interface: String?, method: String, values: [Value]) throws(DBusError)
    /// Calls a method and waits for the answer: only where waiting is allowed (at start, or on a refusal's path).
    func callBlocking(destination: String?, path: String, interface: String?, method: String, values: [Value],
                      timeoutMs: Int32) throws(DBusError) -> [Value]
    /// Blocks until the outgoing queue is written.
    func flush()
    /// Closes the connection.
    func close()
}

extension Bus {
    /// Calls `method` of the bus driver without blocking the loop; `completion` always runs later.
    public func callBusDriver(_ method: String, _ values: [Value] = [], timeoutMs: Int32 = -1,
                              completion: @escaping (Result<[Value], DBusError>) -> Void) {
        call(destination: BusDriver.name, path: BusDriver.path, interface: BusDriver.interface, method: method,
             values: values, timeoutMs: timeoutMs, completion: completion)
    }

    /// Calls `method` of the bus driver and waits for the answer: for command-line tools, and for a
    /// daemon only where it may wait (at start, or on a path that ends in a refusal).
    public func callBusDriverBlocking(_ method: String, _ values: [Value] = [], timeoutMs: Int32 = -1) throws(DBusError) -> [Value] {
        try callBlocking(destination: BusDriver.name, path: BusDriver.path, interface: BusDriver.interface, method: method,
                         values: values, timeoutMs: timeoutMs)
    }

    /// Asks the bus for the uid behind a bus name, without blocking (`GetConnectionUnixUser`).
    public func getConnectionUnixUser(_ busName: String, completion: @escaping (Result<UInt32, DBusError>) -> Void) {
        callBusDriver("GetConnectionUnixUser", [.string(busName)]) { result in
            completion(result.flatMap { values in
                guard let uid = values.first?.uint32Value else {
                    return .failure(.failed("GetConnectionUnixUser returned no uid"))
                }
                return .success(uid)
            })
        }
    }
}

extension Connection: Bus {}
