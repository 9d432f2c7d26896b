// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import CDBus
import CGLib
import EventLoop

// The DBus module: libdbus on the EventLoop. Connection calls, watches signals and talks to the bus
// driver; it is the `Bus` a service is written against, which tests replace with an embedded one;
// Message and Value marshal typed values; ObjectServer answers exported objects from their Interface
// tables (dispatch, Properties, Introspect, PropertiesChanged), a family of objects sharing one set
// of tables with each member's number handed to its handlers.

/// Which bus a `Connection` talks to.
public enum BusAddress: Equatable {
    /// The system bus (`dbus_bus_get_private(DBUS_BUS_SYSTEM)`).
    case system
    /// The user's session bus (`dbus_bus_get_private(DBUS_BUS_SESSION)`).
    case session
    /// Any bus by address, e.g. a private test bus (`dbus_connection_open_private` + `dbus_bus_register`).
    case address(String)
}

/// Flags for `Connection.requestName` (`DBUS_NAME_FLAG_*`).
public struct NameFlags: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// `DBUS_NAME_FLAG_DO_NOT_QUEUE`.
    public static let doNotQueue = NameFlags(rawValue: CDBUS_NAME_FLAG_DO_NOT_QUEUE)
}

/// A private bus connection (`DBusConnection*`) driven by the GLib default main context:
/// no threads, no polling, nothing happens unless the main loop runs.
public final class Connection {
    let raw: OpaquePointer
    /// The unique name the bus gave this connection, e.g. `:1.42` (`dbus_bus_get_unique_name`).
    public internal(set) var uniqueName: String
    /// Called once when the bus goes away (the `org.freedesktop.DBus.Local.Disconnected` signal).
    public var onDisconnected: (() -> Void)?
    /// Whether the connection is still usable (`dbus_connection_get_is_connected`).
    public var isConnected: Bool { isOpen && dbus_connection_get_is_connected(raw) != 0 }

    /// Whether messages wait to be written to the bus (`dbus_connection_has_messages_to_send`).
    public var hasMessagesToSend: Bool { dbus_connection_has_messages_to_send(raw) != 0 }

    var signalHandlers: [(id: Int, handler: (Message) -> Void)] = []
    /// Calls waiting for their reply, so they can be failed when the connection drops.
    var inFlight: [ObjectIdentifier: PendingReply] = [:]
    var nextHandlerID = 1
    private var isOpen = true
    private var dispatchScheduled = false
    private var server: ObjectServer?

    /// Opens and registers a private connection, waiting for the bus's answer to `Hello`; wraps
    /// `dbus_bus_get_private` or `dbus_connection_open_private` + `dbus_bus_register`. Never exits the
    /// process on disconnect. A daemon that already serves opens later ones with `open(bus:completion:)`.
    public convenience init(bus: BusAddress) throws(DBusError) {
        var err = CDBus.DBusError()
        dbus_error_init(&err)
        var c: OpaquePointer?
        switch bus {
        case .system: c = dbus_bus_get_private(DBUS_BUS_SYSTEM, &err)
        case .session: c = dbus_bus_get_private(DBUS_BUS_SESSION, &err)
        case .address(let address):
            c = dbus_connection_open_private(address, &err)
            if let opened = c, dbus_bus_register(opened, &err) == 0 {
                dbus_connection_close(opened)
                dbus_connection_unref(opened)
                c = nil
            }
        }
        guard let c else { throw DBusError(consuming: &err) }
        self.init(opened: c)
    }

    /// Takes over an opened private connection (registered or not yet) and attaches it to the loop.
    init(opened c: OpaquePointer) {
        // libdbus' default calls _exit() when the bus goes away; a daemon wants to shut down itself.
        dbus_connection_set_exit_on_disconnect(c, 0)
        // org.freedesktop.DBus.Peer comes through the call queue like every other call, so a client's
        // Ping is answered only after the calls it sent before (libdbus would answer it at once).
        dbus_connection_set_route_peer_messages(c, 1)
        // Nothing here takes file descriptors; libdbus stops reading while this many sent along with
        // messages are still open, so a peer cannot fill the process's descriptor table with them.
        dbus_connection_set_max_received_unix_fds(c, Connection.maxReceivedFileDescriptors)
        dbus_connection_set_max_received_size(c, Connection.maxReceivedBytes)
        raw = c
        // Empty until `Hello` is answered when the connection is registered without blocking.
        uniqueName = dbus_bus_get_unique_name(c).map { String(cString: $0) } ?? ""
        attachToMainLoop()
    }

    deinit {
        dbus_connection_remove_filter(raw, connectionFilter, Unmanaged.passUnretained(self).toOpaque())
        dbus_connection_set_dispatch_status_function(raw, nil, nil, nil)
        if isOpen { dbus_connection_close(raw) }
        dbus_connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_unref(raw)
    }

    /// The objects this connection exports; created on first use and installed in the message filter.
    public var objects: ObjectServer {
        if let server { return server }
        let s = ObjectServer(sink: self)
        server = s
        return s
    }

    /// Asks the bus for a well-known name; wraps `dbus_bus_request_name`.
    /// Returns whether this connection is now the primary owner (false when queued or refused).
    @discardableResult
    public func requestName(_ name: String, flags: NameFlags = .doNotQueue) throws(DBusError) -> Bool {
        try Validate.busName(name)
        var err = CDBus.DBusError()
        dbus_error_init(&err)
        let r = dbus_bus_request_name(raw, name, flags.rawValue, &err)
        if r < 0 { throw DBusError(consuming: &err) }
        return r == CDBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER || r == CDBUS_REQUEST_NAME_REPLY_ALREADY_OWNER
    }

    /// Gives a well-known name back; wraps `dbus_bus_release_name`. Returns whether it was owned.
    @discardableResult
    public func releaseName(_ name: String) throws(DBusError) -> Bool {
        try Validate.busName(name)
        var err = CDBus.DBusError()
        dbus_error_init(&err)
        let r = dbus_bus_release_name(raw, name, &err)
        if r < 0 { throw DBusError(consuming: &err) }
        return r == CDBUS_RELEASE_NAME_REPLY_RELEASED
    }

    /// Queues a message for sending; wraps `dbus_connection_send`. Returns its serial.
    @discardableResult
    public func send(_ message: Message) throws(DBusError) -> UInt32 {
        var serial: UInt32 = 0
        guard dbus_connection_send(raw, message.raw, &serial) != 0 else { throw DBusError.noMemory() }
        return serial
    }

    /// Blocks until the outgoing queue is written; wraps `dbus_connection_flush`.
    public func flush() { dbus_connection_flush(raw) }

    /// Closes the connection; wraps `dbus_connection_close`. `onDisconnected` is not called for this.
    /// The exported objects go with it: their tables' handlers hold their service without owning it
    /// (as sd-bus's vtables hold a userdata pointer), so no table outlives the connection it serves.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        onDisconnected = nil
        server = nil
        dbus_connection_close(raw)
    }

    // MARK: - Filter

    /// Every incoming message passes here: the one filter serves signals, exported objects and disconnection.
    func handle(_ message: Message) -> Bool {
        switch message.type {
        case .signal:
            if message.interface == "org.freedesktop.DBus.Local" && message.member == "Disconnected"
                && message.path == "/org/freedesktop/DBus/Local" {
                let handler = onDisconnected
                onDisconnected = nil
                handler?()
                // After the owner has heard of the drop, so it can tell these failures from others.
                abandonCallsInFlight()
                return true
            }
            // A client that left with calls still waiting leaves after them, so nothing it sent is
            // handled once its departure has been (which would leave objects without an owner).
            if let server, let change = BusDriver.nameOwnerChange(in: message), change.newOwner.isEmpty {
                guard server.hasWaitingCalls(from: change.name) else {
                    server.forget(change.name)
                    deliver(signal: message)
                    return false
                }
                server.afterWaitingCalls(from: change.name) { [weak self, weak server] in
                    server?.forget(change.name)
                    self?.deliver(signal: message)
                }
                return false
            }
            deliver(signal: message)
            return false
        case .methodCall:
            guard let server else { return false }
            return server.enqueue(message)
        default:
            return false
        }
    }

    private func deliver(signal message: Message) {
        for entry in signalHandlers { entry.handler(message) }
    }

    // MARK: - Main loop integration

    private func attachToMainLoop() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_add_filter(raw, connectionFilter, me, nil)
        dbus_connection_set_watch_functions(raw, watchAdd, watchRemove, watchToggle, nil, nil)
        dbus_connection_set_timeout_functions(raw, timeoutAdd, timeoutRemove, timeoutToggle, nil, nil)
        dbus_connection_set_dispatch_status_function(raw, dispatchStatusChanged, me, nil)
        // Messages may already be queued (e.g. NameAcquired read during registration).
        if dbus_connection_get_dispatch_status(raw) != DBUS_DISPATCH_COMPLETE { scheduleDispatch() }
    }

    /// The most file descriptors received with messages that may be open at once (the system bus
    /// forwards 16 with one message and 64 queued for one connection).
    static let maxReceivedFileDescriptors: Int = 64

    /// The bytes of received messages that may be alive at once before libdbus stops reading the socket
    /// (its default is 63 MiB): above what the call queues hold at most (`QueueLimits`), so calls are
    /// refused with an error for cost rather than left unread until the bus drops them.
    static let maxReceivedBytes: Int = 100 << 20

    /// The most messages taken from libdbus's queue in one turn: taking one only files a call in its
    /// sender's queue, and a bound keeps a turn short however many arrived.
    static let messagesPerTurn = 256

    func scheduleDispatch() {
        guard !dispatchScheduled else { return }
        dispatchScheduled = true
        // Dispatching from the status callback itself is forbidden by libdbus. The idle does not keep
        // the connection alive: a turn may follow another, and none must run for an owner that is gone.
        Idle.schedule { [weak self] in
            guard let self, isOpen else { return }
            dispatchScheduled = false
            runTurn()
        }
    }

    /// One turn: take what libdbus has read (replies and signals are handled now, calls go to their
    /// senders' queues), then handle a bounded share of the waiting calls, in rotation between
    /// senders. Another turn follows while work remains, after the loop's other sources have run.
    private func runTurn() {
        var taken = 0
        while taken < Connection.messagesPerTurn, dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS { taken += 1 }
        let callsWait = server?.serveTurn() ?? false
        if callsWait || dbus_connection_get_dispatch_status(raw) == DBUS_DISPATCH_DATA_REMAINS { scheduleDispatch() }
    }
}

private let connectionFilter: DBusHandleMessageFunction = { _, message, data in
    guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    let connection = Unmanaged<Connection>.fromOpaque(data).takeUnretainedValue()
    return connection.handle(Message(retaining: message)) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}

private let dispatchStatusChanged: DBusDispatchStatusFunction = { _, status, data in
    guard status == DBUS_DISPATCH_DATA_REMAINS, let data else { return }
    Unmanaged<Connection>.fromOpaque(data).takeUnretainedValue().scheduleDispatch()
}
