// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// One D-Bus value of any type; containers carry their element signatures so
/// empty arrays and dictionaries still marshal with the right type.
public indirect enum Value: Equatable, CustomStringConvertible {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `a<elementSignature>`; every element must have that signature.
    case array(elementSignature: String, [Value])
    /// `a{<keySignature><valueSignature>}`; the key must be a basic type. Order is kept.
    case dict(keySignature: String, valueSignature: String, [(Value, Value)])
    /// `(...)`; must not be empty.
    case structure([Value])
    /// `v`.
    case variant(Value)

    /// The value's D-Bus type signature, e.g. `a{sv}`.
    public var signature: String {
        switch self {
        case .byte: return "y"
        case .bool: return "b"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .array(let e, _): return "a" + e
        case .dict(let k, let v, _): return "a{" + k + v + "}"
        case .structure(let m): return "(" + m.map(\.signature).joined() + ")"
        case .variant: return "v"
        }
    }

    /// An `a{sv}` dictionary, the usual shape of property maps.
    public static func stringVariantDict(_ entries: [(String, Value)]) -> Value {
        .dict(keySignature: "s", valueSignature: "v", entries.map { (.string($0.0), .variant($0.1)) })
    }

    /// An `ao` array.
    public static func objectPaths(_ paths: [String]) -> Value {
        .array(elementSignature: "o", paths.map { .objectPath($0) })
    }

    public static func == (a: Value, b: Value) -> Bool {
        switch (a, b) {
        case let (.byte(x), .byte(y)): return x == y
        case let (.bool(x), .bool(y)): return x == y
        case let (.int16(x), .int16(y)): return x == y
        case let (.uint16(x), .uint16(y)): return x == y
        case let (.int32(x), .int32(y)): return x == y
        case let (.uint32(x), .uint32(y)): return x == y
        case let (.int64(x), .int64(y)): return x == y
        case let (.uint64(x), .uint64(y)): return x == y
        // Bit equality, so NaN round-trips compare equal.
        case let (.double(x), .double(y)): return x.bitPattern == y.bitPattern
        case let (.string(x), .string(y)): return x == y
        case let (.objectPath(x), .objectPath(y)): return x == y
        case let (.signature(x), .signature(y)): return x == y
        case let (.array(s1, x), .array(s2, y)): return s1 == s2 && x == y
        case let (.dict(k1, v1, x), .dict(k2, v2, y)):
            return k1 == k2 && v1 == v2 && x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case let (.structure(x), .structure(y)): return x == y
        case let (.variant(x), .variant(y)): return x == y
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .byte(let v): return "\(v)"
        case .bool(let v): return "\(v)"
        case .int16(let v): return "\(v)"
        case .uint16(let v): return "\(v)"
        case .int32(let v): return "\(v)"
        case .uint32(let v): return "\(v)"
        case .int64(let v): return "\(v)"
        case .uint64(let v): return "\(v)"
        case .double(let v): return "\(v)"
        case .string(let v): return "\"\(v)\""
        case .objectPath(let v): return v
        case .signature(let v): return "'\(v)'"
        case .array(_, let a): return "[" + a.map(\.description).joined(separator: ", ") + "]"
        case .dict(_, _, let d): return "{" + d.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "}"
        case .structure(let m): return "(" + m.map(\.description).joined(separator: ", ") + ")"
        case .variant(let v): return "<\(v)>"
        }
    }

    /// Throws InvalidArgs for anything libdbus would refuse (or abort on):
    /// invalid strings, paths or signatures, mistyped elements, non-basic keys.
    public func validate() throws(DBusError) {
        switch self {
        case .string(let s): try Validate.utf8(s)
        case .objectPath(let p): try Validate.path(p)
        case .signature(let g):
            try Validate.signature(g)
            if g.utf8.count > 255 { throw DBusError.invalidArgs("signature too long: '\(g)'") }
        case .array(let e, let items):
            try Validate.singleType(e)
            for item in items {
                guard item.signature == e else {
                    throw DBusError.invalidArgs("array of '\(e)' holds an element of type '\(item.signature)'")
                }
                try item.validate()
            }
        case .dict(let k, let v, let entries):
            try Validate.singleType(v)
            guard k.utf8.count == 1, "ybnqiuxtdsog".utf8.contains(k.utf8.first!) else {
                throw DBusError.invalidArgs("dictionary key type '\(k)' is not a basic type")
            }
            for (key, value) in entries {
                guard key.signature == k, value.signature == v else {
                    throw DBusError.invalidArgs("dictionary of '{\(k)\(v)}' holds an entry of type '{\(key.signature)\(value.signature)}'")
                }
                try key.validate()
                try value.validate()
            }
        case .structure(let members):
            if members.isEmpty { throw DBusError.invalidArgs("empty structure") }
            for m in members { try m.validate() }
        case .variant(let inner):
            try inner.validate()
        default: break
        }
    }

    /// The payload of `.byte`.
    public var byteValue: UInt8? { if case .byte(let v) = self { return v }; return nil }
    /// The payload of `.bool`.
    public var boolValue: Bool? { if case .bool(let v) = self { return v }; return nil }
    /// The payload of `.int16`.
    public var int16Value: Int16? { if case .int16(let v) = self { return v }; return nil }
    /// The payload of `.uint16`.
    public var uint16Value: UInt16? { if case .uint16(let v) = self { return v }; return nil }
    /// The payload of `.int32`.
    public var int32Value: Int32? { if case .int32(let v) = self { return v }; return nil }
    /// The payload of `.uint32`.
    public var uint32Value: UInt32? { if case .uint32(let v) = self { return v }; return nil }
    /// The payload of `.int64`.
    public var int64Value: Int64? { if case .int64(let v) = self { return v }; return nil }
    /// The payload of `.uint64`.
    public var uint64Value: UInt64? { if case .uint64(let v) = self { return v }; return nil }
    /// The payload of `.double`.
    public var doubleValue: Double? { if case .double(let v) = self { return v }; return nil }
    /// The payload of `.string`.
    public var stringValue: String? { if case .string(let v) = self { return v }; return nil }
    /// The payload of `.objectPath`.
    public var objectPathValue: String? { if case .objectPath(let v) = self { return v }; return nil }
    /// The payload of `.signature`.
    public var signatureValue: String? { if case .signature(let v) = self { return v }; return nil }
    /// The elements of `.array`.
    public var arrayValues: [Value]? { if case .array(_, let v) = self { return v }; return nil }
    /// The entries of `.dict`.
    public var dictEntries: [(Value, Value)]? { if case .dict(_, _, let v) = self { return v }; return nil }
    /// The members of `.structure`.
    public var structureValues: [Value]? { if case .structure(let v) = self { return v }; return nil }
    /// The content of `.variant`.
    public var variantValue: Value? { if case .variant(let v) = self { return v }; return nil }
    /// An `a{s…}` dictionary keyed by string, with variants unwrapped (`a{sv}` → `[String: Value]`).
    public var stringKeyedDictionary: [String: Value]? {
        stringKeyedEntries.map { Dictionary($0, uniquingKeysWith: { _, last in last }) }
    }
    /// As `stringKeyedDictionary`, in the order the entries were sent (a property listing, for one).
    public var stringKeyedEntries: [(String, Value)]? {
        guard case .dict(_, _, let entries) = self else { return nil }
        var out: [(String, Value)] = []
        for (k, v) in entries {
            guard let key = k.stringValue else { return nil }
            out.append((key, v.variantValue ?? v))
        }
        return out
    }
}
