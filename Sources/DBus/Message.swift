// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import CDBus

/// The kind of a message (`dbus_message_get_type`).
public enum MessageType: Int32 {
    case invalid = 0, methodCall = 1, methodReturn = 2, error = 3, signal = 4
}

/// A D-Bus message: a reference-counted `DBusMessage*` (`dbus_message_ref` / `dbus_message_unref`).
public final class Message {
    let raw: OpaquePointer

    /// Takes over a reference the caller already owns.
    init(owning raw: OpaquePointer) { self.raw = raw }

    /// Adds a reference of its own (`dbus_message_ref`), e.g. for a message passed to a filter.
    init(retaining raw: OpaquePointer) {
        self.raw = raw
        dbus_message_ref(raw)
    }

    deinit { dbus_message_unref(raw) }

    /// A method call; wraps `dbus_message_new_method_call`. Names are validated first.
    public static func methodCall(destination: String?, path: String, interface: String?, method: String) throws(DBusError) -> Message {
        if let destination { try Validate.busName(destination) }
        try Validate.path(path)
        if let interface { try Validate.interface(interface) }
        try Validate.member(method)
        let m = withOptionalCString(destination) { d in
            withOptionalCString(interface) { i in dbus_message_new_method_call(d, path, i, method) }
        }
        guard let m else { throw DBusError.noMemory() }
        return Message(owning: m)
    }

    /// A successful reply to `call`; wraps `dbus_message_new_method_return`.
    public static func methodReturn(replyingTo call: Message) throws(DBusError) -> Message {
        try call.checkReplyable()
        guard let m = dbus_message_new_method_return(call.raw) else { throw DBusError.noMemory() }
        return Message(owning: m)
    }

    /// An error reply to `call`; wraps `dbus_message_new_error`. An invalid error
    /// name becomes `org.freedesktop.DBus.Error.Failed` rather than an abort.
    public static func error(replyingTo call: Message, _ error: DBusError) throws(DBusError) -> Message {
        try call.checkReplyable()
        let name = (try? Validate.errorName(error.name)) != nil ? error.name : DBusError.failedName
        let text = (try? Validate.utf8(error.message)) != nil ? error.message : "(unprintable message)"
        guard let m = dbus_message_new_error(call.raw, name, text) else { throw DBusError.noMemory() }
        return Message(owning: m)
    }

    /// A signal; wraps `dbus_message_new_signal`. Names are validated first.
    public static func signal(path: String, interface: String, name: String) throws(DBusError) -> Message {
        try Validate.path(path)
        try Validate.interface(interface)
        try Validate.member(name)
        guard let m = dbus_message_new_signal(path, interface, name) else { throw DBusError.noMemory() }
        return Message(owning: m)
    }

    /// Addresses the message to one connection (`dbus_message_set_destination`): a signal so addressed
    /// reaches that connection only.
    public func address(to destination: String) throws(DBusError) {
        try Validate.busName(destination)
        guard dbus_message_set_destination(raw, destination) != 0 else { throw DBusError.noMemory() }
    }

    /// Rebuilds a message from its wire form; wraps `dbus_message_demarshal`.
    public static func demarshal(_ bytes: [UInt8]) throws(DBusError) -> Message {
        var err = CDBus.DBusError()
        dbus_error_init(&err)
        let m = bytes.withUnsafeBufferPointer { buf in
            buf.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buf.count) {
                dbus_message_demarshal($0, Int32(buf.count), &err)
            }
        }
        guard let m else { throw DBusError(consuming: &err) }
        return Message(owning: m)
    }

    /// The message's wire form; wraps `dbus_message_marshal`.
    public func marshal() throws(DBusError) -> [UInt8] {
        var buf: UnsafeMutablePointer<CChar>?
        var len: Int32 = 0
        guard dbus_message_marshal(raw, &buf, &len) != 0, let buf else { throw DBusError.noMemory() }
        defer { dbus_free(buf) }
        return buf.withMemoryRebound(to: UInt8.self, capacity: Int(len)) { Array(UnsafeBufferPointer(start: $0, count: Int(len))) }
    }

    /// `dbus_message_get_type`.
    public var type: MessageType { MessageType(rawValue: dbus_message_get_type(raw)) ?? .invalid }
    /// `dbus_message_get_sender`: the sender's unique name, set by the bus.
    public var sender: String? { string(dbus_message_get_sender(raw)) }
    /// `dbus_message_get_destination`.
    public var destination: String? { string(dbus_message_get_destination(raw)) }
    /// `dbus_message_get_path`.
    public var path: String? { string(dbus_message_get_path(raw)) }
    /// `dbus_message_get_interface`.
    public var interface: String? { string(dbus_message_get_interface(raw)) }
    /// `dbus_message_get_member`.
    public var member: String? { string(dbus_message_get_member(raw)) }
    /// `dbus_message_get_error_name`.
    public var errorName: String? { string(dbus_message_get_error_name(raw)) }
    /// `dbus_message_get_signature`: the arguments' signature, "" when there are none.
    public var signature: String { string(dbus_message_get_signature(raw)) ?? "" }
    /// `dbus_message_get_serial`.
    public var serial: UInt32 { dbus_message_get_serial(raw) }
    /// `dbus_message_get_reply_serial`.
    public var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }

    /// Stamps a message as a bus would deliver it (`dbus_message_set_sender`, `dbus_message_set_serial`):
    /// for an embedded bus, which delivers without a daemon.
    package func stamp(sender: String, serial: UInt32, noReply: Bool = false) {
        dbus_message_set_sender(raw, sender)
        dbus_message_set_serial(raw, serial)
        dbus_message_set_no_reply(raw, noReply ? 1 : 0)
    }
    /// `dbus_message_contains_unix_fds`: file descriptors came with it.
    public var carriesFileDescriptors: Bool { dbus_message_contains_unix_fds(raw) != 0 }
    /// `dbus_message_get_no_reply`: the caller does not want an answer.
    public var noReply: Bool { dbus_message_get_no_reply(raw) != 0 }
    /// `dbus_message_get_allow_interactive_authorization`: the caller is ready to wait while a person
    /// is asked to authenticate (the header flag `ALLOW_INTERACTIVE_AUTHORIZATION`).
    public var allowsInteractiveAuthorization: Bool { dbus_message_get_allow_interactive_authorization(raw) != 0 }

    /// For an error reply, the error it carries (name and first string argument).
    public var error: DBusError? {
        guard type == .error else { return nil }
        let text = (try? arguments())?.first?.stringValue ?? ""
        return DBusError(name: errorName ?? DBusError.failedName, message: text)
    }

    /// All arguments, read generically with `DBusMessageIter` (`dbus_message_iter_init`).
    public func arguments() throws(DBusError) -> [Value] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return [] }
        return try Marshalling.readAll(&iter)
    }

    /// The first `count` arguments (all by default), read within `limits`; past them, LimitsExceeded.
    public func arguments(limits: ArgumentLimits, count: Int = .max) throws(DBusError) -> [Value] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return [] }
        return try Marshalling.readAll(&iter, limits: limits, count: count)
    }

    /// The signature of the value inside the variant argument at `index`, read from the type
    /// string alone (`dbus_message_iter_recurse` + `dbus_message_iter_get_signature`): whatever
    /// the value's size, nothing of it is decoded. Nil when that argument is not a variant.
    public func variantSignature(at index: Int) -> String? {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return nil }
        for _ in 0..<index { guard dbus_message_iter_next(&iter) != 0 else { return nil } }
        guard dbus_message_iter_get_arg_type(&iter) == CDBUS_TYPE_VARIANT else { return nil }
        var inner = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &inner)
        guard let p = dbus_message_iter_get_signature(&inner) else { return nil }
        defer { dbus_free(p) }
        return String(cString: p)
    }

    /// Appends arguments through `dbus_message_iter_append_basic` / `open_container`.
    /// Everything is validated first, so bad input throws InvalidArgs and the message stays unchanged.
    public func append(_ values: [Value]) throws(DBusError) {
        for v in values { try v.validate() }
        try Validate.signature(signature + values.map(\.signature).joined())
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iter)
        for v in values { try Marshalling.write(v, to: &iter) }
    }

    /// libdbus aborts when asked to reply to a message that has no serial (was never sent).
    private func checkReplyable() throws(DBusError) {
        guard serial != 0 else { throw DBusError.invalidArgs("cannot reply to a message that was never sent") }
    }

    private func string(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
}

func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let s else { return body(nil) }
    return s.withCString { body($0) }
}
