// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import DBus
import EventLoop

/// A bus in the test's own process, for a service under test (as swift-nio's `EmbeddedChannel` is for
/// protocol code): calls from named clients are delivered to the objects the service exports, through
/// the same queues and dispatch as on a real bus; its replies and signals are kept in the order it
/// sent them; the bus driver's questions are answered from the clients' credentials; and a client
/// leaves when the test says so. Everything runs on the test's main loop.
///
/// Only the service's side of a bus is here: no other service answers a call the service makes
/// (polkit is absent, so privilege is decided by credentials), and no match rules are kept (every
/// signal is seen by every observer).
public final class EmbeddedBus: Bus {
    public let uniqueName = ":1.0"
    public var onDisconnected: (() -> Void)?
    /// Always false, and true to this bus: every message is delivered as it is sent, so none waits.
    public var hasMessagesToSend: Bool { false }
    /// The objects the service exports; a service started after one closed gets a fresh server.
    public private(set) lazy var objects = ObjectServer(sink: self)

    /// One client's credentials, as `GetConnectionCredentials` reports them.
    public struct Credentials {
        public var uid: UInt32
        public var pid: UInt32
        public var groups: [UInt32]
        public init(uid: UInt32 = getuid(), pid: UInt32 = UInt32(getpid()), groups: [UInt32] = [getgid()]) {
            self.uid = uid
            self.pid = pid
            self.groups = groups
        }
    }

    /// Signals the service sent, in order.
    public private(set) var signals: [Message] = []
    private var signalObservers: [Int: (Message) -> Void] = [:]

    private var clients: [String: Credentials] = [:]
    private var owned: [String: String] = [:]
    private var replies: [UInt32: Message] = [:]
    private var nameWatchers: [Int: (String, String, String) -> Void] = [:]
    private var nextWatcher = 0
    private var nextClient = 1
    private var nextSerial: UInt32 = 1
    private var turnScheduled = false
    private var isClosed = false

    public init() {}

    // MARK: Clients

    /// A new client on the bus; returns its unique name.
    public func connect(_ credentials: Credentials = Credentials()) -> String {
        let name = ":1.\(nextClient)"
        nextClient += 1
        clients[name] = credentials
        return name
    }

    /// The client leaves the bus: the service hears of it once the calls it sent are handled.
    public func disconnect(_ client: String) {
        guard clients.removeValue(forKey: client) != nil else { return }
        let names = owned.filter { $0.value == client }.map(\.key)
        let announce = { [weak self] in
            guard let self else { return }
            objects.forget(client)
            for name in names {
                owned[name] = nil
                for watcher in nameWatchers.values { watcher(name, client, "") }
            }
            for watcher in nameWatchers.values { watcher(client, client, "") }
        }
        if objects.hasWaitingCalls(from: client) { objects.afterWaitingCalls(from: client, announce) } else { announce() }
    }

    /// Sends a call from `client` without waiting; returns its serial, to find its reply.
    @discardableResult
    public func send(from client: String, destination: String? = nil, path: String, interface: String?, method: String,
                     values: [Value] = [], noReply: Bool = false) throws(DBusError) -> UInt32 {
        guard !isClosed else { throw DBusError(name: DBusError.standardName("ServiceUnknown"), message: "the service has closed the bus") }
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, method: method)
        try message.append(values)
        let serial = nextSerial
        nextSerial += 1
        message.stamp(sender: client, serial: serial, noReply: noReply)
        _ = objects.enqueue(message)
        scheduleTurn()
        return serial
    }

    /// Calls `handler` with every signal sent from now on, until `removeObserver`.
    public func observeSignals(_ handler: @escaping (Message) -> Void) -> Int {
        nextWatcher += 1
        signalObservers[nextWatcher] = handler
        return nextWatcher
    }

    public func removeObserver(_ id: Int) { signalObservers[id] = nil }

    /// The reply to the call with `serial`, once the service has sent it.
    public func reply(to serial: UInt32) -> Message? { replies[serial] }

    /// Calls and runs the main loop until the reply comes; throws the error it carries.
    public func call(from client: String, path: String, interface: String?, method: String, values: [Value] = [],
                     timeoutMs: Int = 5000) throws(DBusError) -> [Value] {
        let serial = try send(from: client, path: path, interface: interface, method: method, values: values)
        guard MainLoop.iterate(until: { replies[serial] != nil }, timeoutMs: timeoutMs), let reply = replies.removeValue(forKey: serial)
        else { throw DBusError(name: DBusError.standardName("NoReply"), message: "\(method) got no reply in \(timeoutMs) ms") }
        if let error = reply.error { throw error }
        return try reply.arguments()
    }

    /// Serves the waiting calls a turn at a time, as a connection does after reading them.
    private func scheduleTurn() {
        guard !turnScheduled else { return }
        turnScheduled = true
        Idle.schedule { [weak self] in
            guard let self, !isClosed else { return }
            turnScheduled = false
            if objects.serveTurn() { scheduleTurn() }
        }
    }

    // MARK: Bus

    public func send(_ message: Message) throws(DBusError) -> UInt32 {
        switch message.type {
        case .methodReturn, .error: replies[message.replySerial] = message
        case .signal:
            signals.append(message)
            for observer in signalObservers.values { observer(message) }
        default: break
        }
        return 0
    }

    public func requestName(_ name: String, flags: NameFlags) throws(DBusError) -> Bool {
        isClosed = false
        if let owner = owned[name] { return owner == uniqueName }
        owned[name] = uniqueName
        return true
    }

    /// `client` owns `name`, as another process owning it would (e.g. iio-sensor-proxy holding
    /// `net.hadess.SensorProxy`): the service's request for it is then refused.
    public func own(_ name: String, by client: String) {
        owned[name] = client
    }

    public func releaseName(_ name: String) throws(DBusError) -> Bool {
        owned.removeValue(forKey: name) != nil
    }

    public func watchNameOwnerChanged(_ handler: @escaping (String, String, String) -> Void) -> SignalSubscription {
        nextWatcher += 1
        nameWatchers[nextWatcher] = handler
        return SignalSubscription(id: nextWatcher)
    }

    public func call(destination: String?, path: String, interface: String?, method: String, values: [Value], timeoutMs: Int32,
                     completion: @escaping (Result<[Value], DBusError>) -> Void) {
        let result: Result<[Value], DBusError>
        do { result = .success(try callBlocking(destination: destination, path: path, interface: interface, method: method,
                                                values: values, timeoutMs: timeoutMs)) } catch { result = .failure(error) }
        Idle.schedule { completion(result) }
    }

    public func callWithoutReply(destination: String?, path: String, interface: String?, method: String,
                                 values: [Value]) throws(DBusError) {}

    /// The bus driver's answers; any other service is absent.
    public func callBlocking(destination: String?, path: String, interface: String?, method: String, values: [Value],
                             timeoutMs: Int32) throws(DBusError) -> [Value] {
        guard destination == BusDriver.name else {
            throw DBusError(name: DBusError.standardName("ServiceUnknown"), message: "the embedded bus has no service \(destination ?? "")")
        }
        let name = values.first?.stringValue ?? ""
        let credentials = clients[name]
        let gone = DBusError(name: DBusError.standardName("NameHasNoOwner"), message: "\(name) is not on the embedded bus")
        switch method {
        case "GetConnectionCredentials":
            guard let c = credentials else { throw gone }
            return [.stringVariantDict([("UnixUserID", .uint32(c.uid)), ("ProcessID", .uint32(c.pid)),
                                        ("UnixGroupIDs", .array(elementSignature: "u", c.groups.map(Value.uint32)))])]
        case "GetConnectionUnixUser":
            guard let c = credentials else { throw gone }
            return [.uint32(c.uid)]
        case "GetConnectionUnixProcessID":
            guard let c = credentials else { throw gone }
            return [.uint32(c.pid)]
        case "GetNameOwner":
            if let owner = owned[name] { return [.string(owner)] }
            guard credentials != nil else { throw gone }
            return [.string(name)]
        case "NameHasOwner":
            return [.bool(owned[name] != nil || credentials != nil)]
        default:
            throw DBusError.unknownMethod("the embedded bus driver has no method \(method)")
        }
    }

    public func flush() {}

    /// The service has closed its side: nothing more reaches it, and what it exported is gone, so
    /// another service may start on this bus.
    public func close() {
        isClosed = true
        nameWatchers = [:]
        owned = owned.filter { $0.value != uniqueName }
        replies = [:]
        objects = ObjectServer(sink: self)
    }
}

extension EmbeddedBus {
    /// One client of the embedded bus, calling as a connection would.
    public final class Client {
        public let bus: EmbeddedBus
        public let uniqueName: String

        public init(on bus: EmbeddedBus, _ credentials: Credentials = Credentials()) {
            self.bus = bus
            uniqueName = bus.connect(credentials)
        }

        /// As `Connection.callBlocking`: the destination is the service under test, whatever it names.
        public func callBlocking(destination: String?, path: String, interface: String?, method: String,
                                 values: [Value] = [], timeoutMs: Int32 = -1) throws(DBusError) -> [Value] {
            try bus.call(from: uniqueName, path: path, interface: interface, method: method, values: values,
                         timeoutMs: timeoutMs < 0 ? 25_000 : Int(timeoutMs))
        }

        /// Leaves the bus.
        public func close() { bus.disconnect(uniqueName) }
    }
}
