// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// A named, typed argument of a method or signal, e.g. `Arg("orientation", "u")`.
public struct Arg {
    public var name: String
    /// A single complete D-Bus type.
    public var type: String
    public init(_ name: String, _ type: String) {
        self.name = name
        self.type = type
    }
}

/// What a method handler answers: now, with an error, or later through `MethodCall.reply` / `fail`.
public enum Reply {
    case values([Value])
    case error(DBusError)
    /// The handler keeps the `MethodCall` and answers later (e.g. after asking polkit).
    case deferred
}

/// An exported method: its name, declared arguments, and handler. The handler is
/// only called with arguments matching the `in` signature.
public struct Method {
    public var name: String
    public var inArgs: [Arg]
    public var outArgs: [Arg]
    public var handler: (MethodCall) -> Reply

    public init(_ name: String, in inArgs: [Arg] = [], out outArgs: [Arg] = [], _ handler: @escaping (MethodCall) -> Reply) {
        self.name = name
        self.inArgs = inArgs
        self.outArgs = outArgs
        self.handler = handler
    }

    public var inSignature: String { inArgs.map(\.type).joined() }
    public var outSignature: String { outArgs.map(\.type).joined() }
}

/// An exported property, read through its getter so that Get, GetAll and
/// PropertiesChanged always report the same value.
public struct Property {
    /// Whether clients may Set it.
    public enum Access { case read, readwrite }
    /// The `org.freedesktop.DBus.Property.EmitsChangedSignal` annotation: how changes are announced.
    public enum EmitsChanged {
        /// The new value is sent in PropertiesChanged.
        case `true`
        /// Only the name is sent, in the invalidated list.
        case invalidates
        /// Never changes while the object exists.
        case const
        /// Changes are not announced.
        case `false`
    }
    /// What a setter answers: done, refused, or answered later through the `MethodCall`.
    public enum SetResult {
        case done
        case error(DBusError)
        /// The setter keeps the call and answers with `reply()` or `fail(_:)` later.
        case deferred
    }

    public var name: String
    public var type: String
    public var access: Access
    public var emits: EmitsChanged
    /// Reads the value of the object a family member's key names (0 for an object at a fixed path).
    public var getter: (UInt64) -> Value
    /// Receives the Set call (for its sender and for deferred answers) and a value already checked against `type`.
    public var set: ((MethodCall, Value) -> SetResult)?
    /// Annotations besides `EmitsChangedSignal`, introspected in this order.
    public var annotations: [(name: String, value: String)] = []

    /// This property with one more annotation, e.g. `org.qtproject.QtDBus.QtTypeName` for a structure.
    public func annotated(_ name: String, _ value: String) -> Property {
        var copy = self
        copy.annotations.append((name, value))
        return copy
    }

    public init(_ name: String, type: String, access: Access = .read, emits: EmitsChanged = .true,
                get: @escaping () -> Value, set: ((MethodCall, Value) -> SetResult)? = nil) {
        self.init(name, type: type, access: access, emits: emits, object: { _ in get() }, set: set)
    }

    /// A property of a family's members (`ObjectServer.register(family:…)`): the getter receives the
    /// member's key, the setter finds it as `MethodCall.object`.
    public init(_ name: String, type: String, access: Access = .read, emits: EmitsChanged = .true,
                object get: @escaping (UInt64) -> Value, set: ((MethodCall, Value) -> SetResult)? = nil) {
        self.name = name
        self.type = type
        self.access = access
        self.emits = emits
        self.getter = get
        self.set = set
    }

    /// The value now, of the family member `object` (0 for an object at a fixed path).
    public func get(_ object: UInt64 = 0) -> Value { getter(object) }
}

/// A signal an interface may emit; `ObjectServer.emitSignal` checks values against its args.
public struct Signal {
    public var name: String
    public var args: [Arg]
    public init(_ name: String, args: [Arg] = []) {
        self.name = name
        self.args = args
    }
    public var signature: String { args.map(\.type).joined() }
}

/// One D-Bus interface declared as a table: dispatch, Properties, introspection
/// and PropertiesChanged are all derived from it.
public struct Interface {
    public var name: String
    public var methods: [Method]
    public var properties: [Property]
    public var signals: [Signal]
    /// Annotations of the interface itself, by name, introspected in this order (e.g.
    /// `org.gtk.GDBus.C.Name`, which names the interface in code generated from the XML).
    public var annotations: [(name: String, value: String)]

    public init(name: String, methods: [Method] = [], properties: [Property] = [], signals: [Signal] = [],
                annotations: [(name: String, value: String)] = []) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
        self.annotations = annotations
    }

    /// This table with a method `Set<Property>(value)` after its other methods for each writable property,
    /// answering as a `Set` of that property would. Generated bindings (gdbus-codegen, Vala) turn a
    /// refused property write into a warning the application never sees; a refused method call reaches
    /// it as an error it handles.
    public func addingSetterMethods() -> Interface {
        var table = self
        for property in properties where property.access == .readwrite {
            guard let set = property.set else { continue }
            table.methods.append(Method("Set" + property.name, in: [Arg("value", property.type)]) { call in
                guard let value = call.arguments.first else { return call.mismatch }
                switch set(call, value) {
                case .done: return .values([])
                case .error(let error): return .error(error)
                case .deferred: return .deferred
                }
            })
        }
        return table
    }

    public func method(named n: String) -> Method? { methods.first { $0.name == n } }
    public func property(named n: String) -> Property? { properties.first { $0.name == n } }
    public func signal(named n: String) -> Signal? { signals.first { $0.name == n } }

    /// Throws InvalidArgs naming the first invalid or duplicate name or type in the table.
    public func validate() throws(DBusError) {
        try Validate.interface(name)
        var seen = Set<String>()
        func member(_ n: String, _ kind: String) throws(DBusError) {
            try Validate.member(n)
            guard seen.insert(kind + n).inserted else {
                throw DBusError.invalidArgs("interface \(name) declares \(kind) '\(n)' twice")
            }
        }
        func args(_ list: [Arg]) throws(DBusError) {
            for a in list { try Validate.singleType(a.type) }
            try Validate.signature(list.map(\.type).joined())
        }
        for m in methods { try member(m.name, "method"); try args(m.inArgs); try args(m.outArgs) }
        for s in signals { try member(s.name, "signal"); try args(s.args) }
        for p in properties {
            try member(p.name, "property")
            try Validate.singleType(p.type)
            if p.access == .readwrite && p.set == nil {
                throw DBusError.invalidArgs("property \(name).\(p.name) is readwrite but has no setter")
            }
        }
    }
}
