// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import CDBus
import CGLib
import Log

/// The objects a connection exports, answered from their interface tables: method
/// dispatch, `org.freedesktop.DBus.Properties`, `Introspectable` (including child
/// nodes of intermediate paths), `org.freedesktop.DBus.Peer` at any path (in turn with the
/// sender's other calls, so a `Ping` is a barrier) and errors for unknown objects, interfaces and members.
public final class ObjectServer {
    /// Where replies and signals go: the connection the objects are exported on.
    unowned let sink: any MessageSink
    private var objects: [String: [Interface]] = [:]
    private var families: [ObjectFamily] = []
    /// Bounds on incoming arguments, checked while they are read (see `ArgumentLimits`).
    public var argumentLimits = ArgumentLimits()
    /// The most calls handled in one turn of the main loop, so timers, sensors and the bus socket
    /// get their turn while calls pour in.
    public var callsPerTurn = 64
    /// The time after which a turn stops handling calls, even below `callsPerTurn`.
    public var turnBudgetMicroseconds = 2000
    /// The bytes of calls that may wait for their turn, per client, per user and in all; past them a
    /// call is refused at once (see `QueueLimits`).
    public var queueLimits: QueueLimits {
        get { calls.limits }
        set { calls.limits = newValue }
    }
    /// The uid a client connected as, when already known; nil while it is not. Calls of a client whose
    /// uid is not known yet count against its own bound and the total only.
    public var userOf: (String) -> UInt32? {
        get { calls.userOf }
        set { calls.userOf = newValue }
    }
    /// Calls waiting for their turn, and the departures of their senders behind them.
    private var calls = CallQueue()

    /// A server whose replies and signals go to `sink`; a `Connection` makes its own (`objects`).
    package init(sink: any MessageSink) { self.sink = sink }

    /// The most children one `Introspect` lists from a family: the rest still answer at their
    /// own paths, but a reply stays small however many objects there are.
    public var maxListedChildren = 1024

    /// Exports a family of objects, each one path segment below `prefix` (which ends in `/`), that
    /// share one set of tables, so thousands of objects keep no table each: `key` turns a member's
    /// path into the number its handlers receive (`MethodCall.object`, a getter's argument), or nil
    /// when no live member has that path. `count` says how many are live, cheaply; `list(n)` gives at
    /// most `n` of their paths, the ones introspection shows. Throws InvalidArgs for an invalid table.
    public func register(family prefix: String, count: @escaping () -> Int, list: @escaping (Int) -> [String],
                         key: @escaping (String) -> UInt64?, interfaces: [Interface]) throws(DBusError) {
        for i in interfaces { try i.validate() }
        families.append(ObjectFamily(prefix: prefix, count: count, list: list, key: key, interfaces: interfaces))
    }

    /// The tables at `path` and the key their handlers receive: registered ones first, then a family's.
    private func lookup(_ path: String) -> (interfaces: [Interface], object: UInt64)? {
        if let found = objects[path] { return (found, 0) }
        guard let family = families.first(where: { path.hasPrefix($0.prefix) }), let key = family.key(path) else { return nil }
        return (family.interfaces, key)
    }

    /// Exports `interfaces` at `path`, replacing what was there. Throws InvalidArgs for an
    /// invalid path or table, or a redeclared standard interface.
    public func register(path: String, interfaces: [Interface]) throws(DBusError) {
        try Validate.path(path)
        var names = Set<String>()
        for i in interfaces {
            try i.validate()
            if Introspection.isStandard(i.name) {
                throw DBusError.invalidArgs("\(i.name) is provided by every object and cannot be registered")
            }
            guard names.insert(i.name).inserted else {
                throw DBusError.invalidArgs("interface \(i.name) registered twice at \(path)")
            }
        }
        objects[path] = interfaces
    }

    /// Stops exporting `path`; later calls to it answer UnknownObject.
    public func unregister(path: String) {
        objects[path] = nil
    }

    /// The interfaces exported at `path`, if any.
    public func interfaces(at path: String) -> [Interface]? { lookup(path)?.interfaces }

    /// Emits a signal (`dbus_message_new_signal`), to `destination` only when given. When the
    /// interface is registered at `path`, the signal must be declared in it and `values` must match
    /// its arguments.
    public func emitSignal(path: String, interface: String, name: String, values: [Value] = [],
                           to destination: String? = nil) throws(DBusError) {
        if let iface = lookup(path)?.interfaces.first(where: { $0.name == interface }) {
            guard let signal = iface.signal(named: name) else {
                throw DBusError.invalidArgs("interface \(interface) declares no signal \(name)")
            }
            let got = values.map(\.signature).joined()
            guard got == signal.signature else {
                throw DBusError.invalidArgs("signal \(interface).\(name) has signature '\(signal.signature)', got '\(got)'")
            }
        }
        let m = try Message.signal(path: path, interface: interface, name: name)
        try m.append(values)
        if let destination { try m.address(to: destination) }
        try sink.send(m)
    }

    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` for `names`, taking
    /// values from the getters: `.true` properties go in the changed dictionary,
    /// `.invalidates` ones in the invalidated list, `.const` and `.false` ones are left out.
    /// Nothing is sent if nothing is left.
    public func emitPropertiesChanged(path: String, interface: String, names: [String]) throws(DBusError) {
        guard let (ifaces, object) = lookup(path) else { throw DBusError.unknownObject("no object at \(path)") }
        guard let iface = ifaces.first(where: { $0.name == interface }) else {
            throw DBusError.unknownInterface("object \(path) has no interface \(interface)")
        }
        var changed: [(String, Value)] = []
        var invalidated: [String] = []
        for n in names {
            guard let p = iface.property(named: n) else {
                throw DBusError.unknownProperty("interface \(interface) has no property \(n)")
            }
            switch p.emits {
            case .true:
                let v = p.get(object)
                guard v.signature == p.type else {
                    throw DBusError.failed("property \(interface).\(n) has type '\(p.type)', getter returned '\(v.signature)'")
                }
                changed.append((n, v))
            case .invalidates: invalidated.append(n)
            case .const, .false: break
            }
        }
        if changed.isEmpty && invalidated.isEmpty { return }
        try emitPropertiesChanged(path: path, PropertiesChanged(interface: interface, changed: changed, invalidated: invalidated))
    }

    /// Emits `change` as it is, for values a caller already holds (an event's own values), to every
    /// listener or to `destination` only. When its interface is registered at `path`, each value must
    /// have its property's declared type.
    public func emitPropertiesChanged(path: String, _ change: PropertiesChanged, to destination: String? = nil) throws(DBusError) {
        if let iface = lookup(path)?.interfaces.first(where: { $0.name == change.interface }) {
            for (name, value) in change.changed {
                guard let p = iface.property(named: name) else {
                    throw DBusError.unknownProperty("interface \(change.interface) has no property \(name)")
                }
                guard value.signature == p.type else {
                    throw DBusError.invalidArgs("property \(change.interface).\(name) has type '\(p.type)', got '\(value.signature)'")
                }
            }
        }
        try sink.send(try change.message(path: path, destination: destination))
    }

    /// The XML `Introspect` answers for `path`.
    public func introspect(path: String) -> String {
        let (children, omitted) = self.children(of: path)
        let interfaces = lookup(path)?.interfaces
        return Introspection.document(interfaces: interfaces ?? [], children: children, omitted: omitted, folder: interfaces == nil)
    }

    /// The next path segments below `path` that lead to registered objects, with a family's members
    /// listed up to `maxListedChildren`; `omitted` counts the members left out. Costs the registered
    /// objects and families, plus the listing of a family's own folder, never a walk of every member.
    func children(of path: String) -> (names: [String], omitted: Int) {
        let prefix = path == "/" ? "/" : path + "/"
        var names = Set<String>()
        func addFirstSegment(of below: Substring) {
            if let segment = below.split(separator: "/").first { names.insert(String(segment)) }
        }
        for p in objects.keys where p.hasPrefix(prefix) && p.count > prefix.count { addFirstSegment(of: p.dropFirst(prefix.count)) }
        var omitted = 0
        for family in families where family.prefix.hasPrefix(prefix) {
            let count = family.count()
            guard count > 0 else { continue }
            if family.prefix == prefix {
                let listed = family.list(maxListedChildren)
                for p in listed where p.hasPrefix(prefix) { addFirstSegment(of: p.dropFirst(prefix.count)) }
                omitted += max(0, count - listed.count)
            } else {
                addFirstSegment(of: family.prefix.dropFirst(prefix.count))
            }
        }
        return (names.sorted(by: Self.numericOrder), omitted)
    }

    /// Path segments in the order a person counts them: numbers by value (`2` before `10`), numbers
    /// before names, names as text.
    static func numericOrder(_ a: String, _ b: String) -> Bool {
        switch (UInt64(a), UInt64(b)) {
        case let (x?, y?): return x < y
        case (_?, nil): return true
        case (nil, _?): return false
        case (nil, nil): return a < b
        }
    }

    /// Whether `path` is a node above some object (so it introspects, listing its children);
    /// decided from the registered paths and the families' prefixes, whatever the number of members.
    private func isIntermediate(_ path: String) -> Bool {
        guard path != "/" else { return true }
        let prefix = path + "/"
        return objects.keys.contains { $0.hasPrefix(prefix) }
            || families.contains { $0.prefix.hasPrefix(prefix) && $0.count() > 0 }
    }

    // MARK: - Turns

    /// Queues a method call behind its sender's earlier ones; returns false only for messages that
    /// are not method calls. A call carrying file descriptors, or from a sender with too many calls
    /// waiting, is refused at once.
    package func enqueue(_ message: Message) -> Bool {
        guard message.type == .methodCall, message.path != nil, message.member != nil else { return false }
        let sender = message.sender ?? ""
        // No method here takes a file descriptor: refused at once, the message (and the descriptors
        // with it) is freed now instead of waiting in a queue.
        guard !message.carriesFileDescriptors else {
            reply(message, error: .invalidArgs("\(message.member ?? ""): file descriptors came with the call; no method here takes any"))
            return true
        }
        if let refusal = calls.admit(message, from: sender) {
            reply(message, error: .limitsExceeded("\(message.member ?? "call") refused: \(refusal); "
                + "wait for replies to the calls already sent before sending more"))
        }
        return true
    }

    /// Whether calls from `sender` are waiting.
    package func hasWaitingCalls(from sender: String) -> Bool { calls.hasWaiting(from: sender) }

    /// Runs `handler` once the calls `sender` has waiting are handled (it left the bus).
    package func afterWaitingCalls(from sender: String, _ handler: @escaping () -> Void) {
        calls.appendDeparture(from: sender, handler)
    }

    /// `sender` left the bus and nothing of it waits: a client that comes back under a new name is
    /// logged afresh.
    package func forget(_ sender: String) {
        calls.forget(sender)
    }

    /// Handles waiting calls, one per sender in rotation, up to `callsPerTurn` or the turn's time
    /// budget; returns whether calls still wait.
    package func serveTurn() -> Bool {
        let start = g_get_monotonic_time()
        var served = 0
        while served < callsPerTurn, let item = calls.next() {
            switch item {
            case .call(let message): handle(message)
            case .departure(let handler): handler()
            }
            served += 1
            if g_get_monotonic_time() - start >= turnBudgetMicroseconds { break }
        }
        return !calls.isEmpty
    }

    // MARK: - Dispatch

    /// Answers a method call.
    private func handle(_ message: Message) {
        guard let path = message.path, let member = message.member else { return }
        let interface = message.interface
        if interface == StandardInterface.peer { return answerPeer(message, member) }
        guard let (ifaces, object) = lookup(path) else {
            if isIntermediate(path), member == "Introspect", interface == nil || interface == Introspection.introspectable {
                answerIntrospect(message, path: path)
            } else {
                reply(message, error: .unknownObject("No object at path \(path)"))
            }
            return
        }

        if let interface, !Introspection.isStandard(interface) {
            guard let iface = ifaces.first(where: { $0.name == interface }) else {
                reply(message, error: .unknownInterface("Object \(path) has no interface \(interface)"))
                return
            }
            guard let method = iface.method(named: member) else {
                reply(message, error: .unknownMethod("Interface \(interface) has no method \(member)"))
                return
            }
            invoke(method, message, object)
            return
        }
        if interface == nil, let method = ifaces.lazy.compactMap({ $0.method(named: member) }).first {
            invoke(method, message, object)
            return
        }
        switch (interface ?? "", member) {
        case (Introspection.introspectable, "Introspect"), ("", "Introspect"):
            answerIntrospect(message, path: path)
        case (Introspection.properties, "Get"), ("", "Get"):
            propertiesGet(message, ifaces, object)
        case (Introspection.properties, "GetAll"), ("", "GetAll"):
            propertiesGetAll(message, ifaces, object)
        case (Introspection.properties, "Set"), ("", "Set"):
            propertiesSet(message, ifaces, object)
        default:
            let where_ = interface.map { "Interface \($0)" } ?? "Object \(path)"
            reply(message, error: .unknownMethod("\(where_) has no method \(member)"))
        }
    }

    /// `Ping` and `GetMachineId` of `org.freedesktop.DBus.Peer`, at whatever path they are sent to.
    private func answerPeer(_ message: Message, _ member: String) {
        let call = MethodCall(message: message, arguments: [], sink: sink, outSignature: member == "GetMachineId" ? "s" : "", object: 0)
        guard arguments(message, expected: "", member) != nil else { return }
        switch member {
        case "Ping": call.reply([])
        case "GetMachineId":
            var raw = CDBus.DBusError()
            dbus_error_init(&raw)
            guard let id = dbus_try_get_local_machine_id(&raw) else {
                let error = DBusError(consuming: &raw)
                return call.fail(.failed("no machine id: \(error.message)"))
            }
            defer { dbus_free(id) }
            call.reply([.string(String(cString: id))])
        default: reply(message, error: .unknownMethod("Interface \(StandardInterface.peer) has no method \(member)"))
        }
    }

    private func reply(_ message: Message, error: DBusError) {
        guard !message.noReply, let m = try? Message.error(replyingTo: message, error) else { return }
        _ = try? sink.send(m)
    }

    /// Checks the signature (from the header, before anything is decoded), then reads the first
    /// `count` arguments within `argumentLimits`; nil on a mismatch or a bound passed (already answered).
    private func arguments(_ message: Message, expected: String, _ what: String, count: Int = .max) -> [Value]? {
        let got = message.signature
        guard got == expected else {
            reply(message, error: .invalidArgs("\(what): expected signature '\(expected)', got '\(got)'"))
            return nil
        }
        do { return try message.arguments(limits: argumentLimits, count: count) } catch {
            reply(message, error: DBusError(name: error.name, message: "\(what): \(error.message)"))
            return nil
        }
    }

    private func invoke(_ method: Method, _ message: Message, _ object: UInt64) {
        guard let args = arguments(message, expected: method.inSignature, method.name) else { return }
        let call = MethodCall(message: message, arguments: args, sink: sink, outSignature: method.outSignature,
                              object: object)
        switch method.handler(call) {
        case .values(let v): call.reply(v)
        case .error(let e): call.fail(e)
        case .deferred: break
        }
    }

    private func answerIntrospect(_ message: Message, path: String) {
        guard arguments(message, expected: "", "Introspect") != nil else { return }
        let call = MethodCall(message: message, arguments: [], sink: sink, outSignature: "s")
        call.reply([.string(introspect(path: path))])
    }

    /// Finds a property; an empty interface name searches every interface of the object.
    private func lookup(_ ifaces: [Interface], _ interface: String, _ name: String, path: String) -> Result<(Interface, Property), DBusError> {
        let candidates: [Interface]
        if interface.isEmpty {
            candidates = ifaces
        } else if let i = ifaces.first(where: { $0.name == interface }) {
            candidates = [i]
        } else if Introspection.isStandard(interface) {
            candidates = []
        } else {
            return .failure(.unknownInterface("Object \(path) has no interface \(interface)"))
        }
        for i in candidates {
            if let p = i.property(named: name) { return .success((i, p)) }
        }
        return .failure(.unknownProperty("Interface \(interface.isEmpty ? path : interface) has no property \(name)"))
    }

    private func current(_ p: Property, of iface: Interface, _ object: UInt64) -> Result<Value, DBusError> {
        let v = p.get(object)
        guard v.signature == p.type else {
            let what = "property \(iface.name).\(p.name) has type '\(p.type)', getter returned '\(v.signature)'"
            Log.error(what)
            return .failure(.failed("internal error: \(what)"))
        }
        return .success(v)
    }

    private func propertiesGet(_ message: Message, _ ifaces: [Interface], _ object: UInt64) {
        guard let args = arguments(message, expected: "ss", "Get"),
              let interface = args[0].stringValue, let name = args[1].stringValue else { return }
        let call = MethodCall(message: message, arguments: args, sink: sink, outSignature: "v")
        switch lookup(ifaces, interface, name, path: message.path ?? "").flatMap({ current($0.1, of: $0.0, object) }) {
        case .success(let v): call.reply([.variant(v)])
        case .failure(let e): call.fail(e)
        }
    }

    private func propertiesGetAll(_ message: Message, _ ifaces: [Interface], _ object: UInt64) {
        guard let args = arguments(message, expected: "s", "GetAll"), let interface = args[0].stringValue else { return }
        let call = MethodCall(message: message, arguments: args, sink: sink, outSignature: "a{sv}")
        let selected: [Interface]
        if interface.isEmpty {
            selected = ifaces
        } else if let i = ifaces.first(where: { $0.name == interface }) {
            selected = [i]
        } else if Introspection.isStandard(interface) {
            selected = []
        } else {
            call.fail(.unknownInterface("Object \(message.path ?? "") has no interface \(interface)"))
            return
        }
        var entries: [(String, Value)] = []
        for i in selected {
            for p in i.properties {
                switch current(p, of: i, object) {
                case .success(let v): entries.append((p.name, v))
                case .failure(let e): call.fail(e); return
                }
            }
        }
        call.reply([.stringVariantDict(entries)])
    }

    /// The value is decoded last: its type is checked from the variant's signature first, so a huge
    /// value of the wrong type costs no more than its refusal.
    private func propertiesSet(_ message: Message, _ ifaces: [Interface], _ object: UInt64) {
        guard let names = arguments(message, expected: "ssv", "Set", count: 2),
              let interface = names[0].stringValue, let name = names[1].stringValue else { return }
        let (iface, p): (Interface, Property)
        switch lookup(ifaces, interface, name, path: message.path ?? "") {
        case .success(let found): (iface, p) = found
        case .failure(let e): reply(message, error: e); return
        }
        guard p.access == .readwrite, let setter = p.set else {
            reply(message, error: .propertyReadOnly("Property \(iface.name).\(p.name) is read-only"))
            return
        }
        let type = message.variantSignature(at: 2) ?? ""
        guard type == p.type else {
            reply(message, error: .invalidArgs("Property \(iface.name).\(p.name) has type '\(p.type)', got '\(type)'"))
            return
        }
        guard let args = arguments(message, expected: "ssv", "Set"), let value = args[2].variantValue else { return }
        let call = MethodCall(message: message, arguments: args, sink: sink, outSignature: "", object: object)
        switch setter(call, value) {
        case .done: call.reply([])
        case .error(let e): call.fail(e)
        case .deferred: break
        }
    }
}

/// Objects one segment below a path prefix, sharing one set of tables.
struct ObjectFamily {
    let prefix: String
    let count: () -> Int
    let list: (Int) -> [String]
    let key: (String) -> UInt64?
    let interfaces: [Interface]
}
