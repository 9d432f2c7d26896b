// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Log

/// An incoming method call (or property Set) being answered; keep it to answer later.
/// Only the first `reply` or `fail` is sent.
public final class MethodCall {
    /// The call as received.
    public let message: Message
    /// The caller's unique bus name, e.g. `:1.7`.
    public let sender: String
    /// The arguments, already checked against the declared input signature.
    public let arguments: [Value]
    /// The key of the family member called (`ObjectServer.register(family:…)`); 0 for an object at a fixed path.
    public let object: UInt64
    /// Whether `reply` or `fail` has been called.
    public private(set) var isAnswered = false

    let sink: any MessageSink
    /// What the reply must carry; nil skips the check.
    let outSignature: String?

    init(message: Message, arguments: [Value], sink: any MessageSink, outSignature: String?, object: UInt64 = 0) {
        self.message = message
        self.object = object
        self.sender = message.sender ?? ""
        self.arguments = arguments
        self.sink = sink
        self.outSignature = outSignature
    }

    /// Sends a method return (`dbus_message_new_method_return`). Values not matching the
    /// declared output signature send `org.freedesktop.DBus.Error.Failed` instead.
    public func reply(_ values: [Value] = []) {
        guard !isAnswered else { return }
        isAnswered = true
        guard !message.noReply else { return }
        let got = values.map(\.signature).joined()
        if let outSignature, got != outSignature {
            let what = "\(message.interface ?? "").\(message.member ?? ""): reply has signature '\(got)', declared '\(outSignature)'"
            Log.error(what)
            send(error: .failed("internal error: \(what)"))
            return
        }
        do {
            let m = try Message.methodReturn(replyingTo: message)
            try m.append(values)
            try sink.send(m)
        } catch {
            Log.warning("cannot reply to \(message.member ?? ""): \(error)")
            send(error: .failed("internal error: \(error.message)"))
        }
    }

    /// Sends an error reply (`dbus_message_new_error`).
    public func fail(_ error: DBusError) {
        guard !isAnswered else { return }
        isAnswered = true
        guard !message.noReply else { return }
        send(error: error)
    }

    private func send(error: DBusError) {
        if let m = try? Message.error(replyingTo: message, error) { _ = try? sink.send(m) }
    }
}
