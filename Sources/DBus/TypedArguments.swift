// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// A Swift type that stands for one D-Bus type, so that a handler receives its arguments typed.
/// The dispatcher checks every call against the signature these types declare before the handler
/// runs, so a handler never unwraps a `Value` or writes a fallback for a type it cannot get.
public protocol DBusArgument {
    /// The D-Bus signature, e.g. `u`.
    static var dbusSignature: String { get }
    /// The payload of a value of that signature; nil for a value of another.
    static func from(dbus value: Value) -> Self?
}

extension Bool: DBusArgument {
    public static var dbusSignature: String { "b" }
    public static func from(dbus value: Value) -> Bool? { value.boolValue }
}

extension UInt32: DBusArgument {
    public static var dbusSignature: String { "u" }
    public static func from(dbus value: Value) -> UInt32? { value.uint32Value }
}

extension Int32: DBusArgument {
    public static var dbusSignature: String { "i" }
    public static func from(dbus value: Value) -> Int32? { value.int32Value }
}

extension Double: DBusArgument {
    public static var dbusSignature: String { "d" }
    public static func from(dbus value: Value) -> Double? { value.doubleValue }
}

extension String: DBusArgument {
    public static var dbusSignature: String { "s" }
    public static func from(dbus value: Value) -> String? { value.stringValue }
}

/// An object path (`o`), kept apart from a string (`s`).
public struct ObjectPath: DBusArgument, Hashable, Sendable {
    public var path: String
    public init(_ path: String) { self.path = path }
    public static var dbusSignature: String { "o" }
    public static func from(dbus value: Value) -> ObjectPath? { value.objectPathValue.map(ObjectPath.init) }
}

extension Array: DBusArgument where Element: DBusArgument {
    public static var dbusSignature: String { "a" + Element.dbusSignature }
    public static func from(dbus value: Value) -> [Element]? {
        guard let items = value.arrayValues else { return nil }
        var out: [Element] = []
        for item in items {
            guard let element = Element.from(dbus: item) else { return nil }
            out.append(element)
        }
        return out
    }
}

extension MethodCall {
    /// Argument `index` as `T`; nil only when the handler's declaration and the table disagree.
    func argument<T: DBusArgument>(_ index: Int, as type: T.Type) -> T? {
        index < arguments.count ? T.from(dbus: arguments[index]) : nil
    }

    /// What a handler answers when its typed arguments do not fit the checked call: a bug in the table.
    public var mismatch: Reply {
        .error(.failed("internal error: \(message.member ?? "") cannot read its arguments as declared"))
    }
}

extension Method {
    /// A method with one typed argument, e.g. `Method("CreateController", in: ("kind", String.self)) { call, kind in … }`.
    public init<A: DBusArgument>(_ name: String, in a: (String, A.Type), out: [Arg] = [],
                                 _ handler: @escaping (MethodCall, A) -> Reply) {
        self.init(name, in: [Arg(a.0, A.dbusSignature)], out: out) { call in
            guard let first = call.argument(0, as: A.self) else { return call.mismatch }
            return handler(call, first)
        }
    }

    /// A method with two typed arguments.
    public init<A: DBusArgument, B: DBusArgument>(_ name: String, in a: (String, A.Type), _ b: (String, B.Type),
                                                  out: [Arg] = [], _ handler: @escaping (MethodCall, A, B) -> Reply) {
        self.init(name, in: [Arg(a.0, A.dbusSignature), Arg(b.0, B.dbusSignature)], out: out) { call in
            guard let first = call.argument(0, as: A.self), let second = call.argument(1, as: B.self) else { return call.mismatch }
            return handler(call, first, second)
        }
    }

    /// A method with three typed arguments.
    public init<A: DBusArgument, B: DBusArgument, C: DBusArgument>(
        _ name: String, in a: (String, A.Type), _ b: (String, B.Type), _ c: (String, C.Type), out: [Arg] = [],
        _ handler: @escaping (MethodCall, A, B, C) -> Reply
    ) {
        self.init(name, in: [Arg(a.0, A.dbusSignature), Arg(b.0, B.dbusSignature), Arg(c.0, C.dbusSignature)], out: out) { call in
            guard let first = call.argument(0, as: A.self), let second = call.argument(1, as: B.self),
                  let third = call.argument(2, as: C.self) else { return call.mismatch }
            return handler(call, first, second, third)
        }
    }
}

extension Property {
    /// A read-write property whose setter receives the new value as `T` (its D-Bus type is `T`'s).
    public init<T: DBusArgument>(_ name: String, type: T.Type, emits: EmitsChanged = .true,
                                 get: @escaping () -> Value, set: @escaping (MethodCall, T) -> SetResult) {
        self.init(name, type: type, emits: emits, object: { _ in get() }, set: set)
    }

    /// As the initializer above, for a family's members: the getter receives the member's key.
    public init<T: DBusArgument>(_ name: String, type: T.Type, emits: EmitsChanged = .true,
                                 object get: @escaping (UInt64) -> Value, set: @escaping (MethodCall, T) -> SetResult) {
        self.init(name, type: T.dbusSignature, access: .readwrite, emits: emits, object: get, set: { call, value in
            guard let typed = T.from(dbus: value) else {
                return .error(.failed("internal error: \(name) cannot read its value as declared"))
            }
            return set(call, typed)
        })
    }
}
