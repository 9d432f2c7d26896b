// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import CDBus
import EventLoop

/// Holds a call's completion until libdbus reports the reply (`dbus_pending_call_set_notify`).
final class PendingReply {
    let completion: (Result<[Value], DBusError>) -> Void
    let pending: OpaquePointer
    weak var connection: Connection?
    var finished = false
    init(_ pending: OpaquePointer, on connection: Connection, _ completion: @escaping (Result<[Value], DBusError>) -> Void) {
        self.pending = pending
        self.connection = connection
        self.completion = completion
    }

    /// Steals the reply and releases the pending call reference returned by `dbus_connection_send_with_reply`.
    func finish() {
        guard !finished else { return }
        finished = true
        connection?.inFlight[ObjectIdentifier(self)] = nil
        let reply = dbus_pending_call_steal_reply(pending).map { Message(owning: $0) }
        dbus_pending_call_unref(pending)
        completion(Connection.result(of: reply))
    }

    /// Gives up on the reply (`dbus_pending_call_cancel`): libdbus never completes a call that was
    /// waiting when its connection dropped, so the completion is told here.
    func abandon(_ error: DBusError) {
        guard !finished else { return }
        finished = true
        dbus_pending_call_cancel(pending)
        dbus_pending_call_unref(pending)
        completion(.failure(error))
    }
}

private let pendingNotify: DBusPendingCallNotifyFunction = { pending, data in
    guard let pending, let data else { return }
    let box = Unmanaged<PendingReply>.fromOpaque(data).takeUnretainedValue()
    withExtendedLifetime(box) { box.finish() }
}

private let pendingFree: DBusFreeFunction = { data in
    if let data { Unmanaged<PendingReply>.fromOpaque(data).release() }
}

extension Connection {
    /// Calls a method without blocking the loop; wraps `dbus_connection_send_with_reply` +
    /// `dbus_pending_call_set_notify`. `completion` always runs later, from the main loop.
    /// `timeoutMs` -1 is libdbus' default (25 s).
    public func call(destination: String?, path: String, interface: String?, method: String,
                     values: [Value] = [], timeoutMs: Int32 = -1,
                     completion: @escaping (Result<[Value], DBusError>) -> Void) {
        let message: Message
        do {
            message = try Message.methodCall(destination: destination, path: path, interface: interface, method: method)
            try message.append(values)
        } catch {
            Idle.schedule { completion(.failure(error)) }
            return
        }
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(raw, message.raw, &pending, timeoutMs) != 0, let pending else {
            Idle.schedule { completion(.failure(.disconnected("not connected to the bus"))) }
            return
        }
        let box = PendingReply(pending, on: self, completion)
        guard dbus_pending_call_set_notify(pending, pendingNotify, Unmanaged.passRetained(box).toOpaque(), pendingFree) != 0 else {
            Unmanaged.passUnretained(box).release()
            dbus_pending_call_cancel(pending)
            dbus_pending_call_unref(pending)
            Idle.schedule { completion(.failure(.noMemory())) }
            return
        }
        // A call that failed at once (e.g. the connection dropped) may already be complete.
        if dbus_pending_call_get_completed(pending) != 0 {
            Idle.schedule { box.finish() }
        } else {
            inFlight[ObjectIdentifier(box)] = box
        }
    }

    /// Sends a method call nobody waits an answer for (`dbus_message_set_no_reply`), so neither this
    /// connection nor the bus keeps a pending reply for it.
    public func callWithoutReply(destination: String?, path: String, interface: String?, method: String,
                                 values: [Value] = []) throws(DBusError) {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, method: method)
        try message.append(values)
        dbus_message_set_no_reply(message.raw, 1)
        _ = try send(message)
    }

    /// Calls a method and waits for the answer; wraps `dbus_connection_send_with_reply_and_block`.
    /// For command-line tools: a daemon must use `call(…completion:)`. With `interactive`, the call
    /// carries `ALLOW_INTERACTIVE_AUTHORIZATION` (`dbus_message_set_allow_interactive_authorization`):
    /// the caller will wait while polkit asks a person for a password.
    public func callBlocking(destination: String?, path: String, interface: String?, method: String,
                             values: [Value] = [], timeoutMs: Int32 = -1) throws(DBusError) -> [Value] {
        try callBlocking(destination: destination, path: path, interface: interface, method: method, values: values,
                         timeoutMs: timeoutMs, interactive: false)
    }

    public func callBlocking(destination: String?, path: String, interface: String?, method: String,
                             values: [Value] = [], timeoutMs: Int32 = -1, interactive: Bool) throws(DBusError) -> [Value] {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, method: method)
        try message.append(values)
        if interactive { dbus_message_set_allow_interactive_authorization(message.raw, 1) }
        var err = CDBus.DBusError()
        dbus_error_init(&err)
        guard let reply = dbus_connection_send_with_reply_and_block(raw, message.raw, timeoutMs, &err) else {
            throw DBusError(consuming: &err)
        }
        return try Message(owning: reply).arguments()
    }

    /// Fails every call still waiting for a reply: the connection has dropped.
    func abandonCallsInFlight() {
        let calls = inFlight.values
        inFlight = [:]
        for call in calls { call.abandon(.disconnected("the connection to the bus closed before the reply")) }
    }

    static func result(of reply: Message?) -> Result<[Value], DBusError> {
        guard let reply else { return .failure(.noMemory()) }
        if let error = reply.error { return .failure(error) }
        do { return .success(try reply.arguments()) } catch { return .failure(error) }
    }

}
