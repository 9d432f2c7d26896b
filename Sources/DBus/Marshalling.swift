// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import CDBus

/// Reading and writing `Value`s through `DBusMessageIter`. Containers are
/// always closed through the same iterator variable that opened them,
/// because the C struct is copied by value.
enum Marshalling {
    /// Reads the value at `iter`; with `limits`, arrays and strings past them throw LimitsExceeded
    /// as soon as the bound is passed, before anything larger is built.
    static func read(_ iter: inout DBusMessageIter, limits: ArgumentLimits? = nil) throws(DBusError) -> Value {
        let type = dbus_message_iter_get_arg_type(&iter)
        var v = DBusBasicValue()
        switch type {
        case CDBUS_TYPE_BYTE: dbus_message_iter_get_basic(&iter, &v); return .byte(v.byt)
        case CDBUS_TYPE_BOOLEAN: dbus_message_iter_get_basic(&iter, &v); return .bool(v.bool_val != 0)
        case CDBUS_TYPE_INT16: dbus_message_iter_get_basic(&iter, &v); return .int16(v.i16)
        case CDBUS_TYPE_UINT16: dbus_message_iter_get_basic(&iter, &v); return .uint16(v.u16)
        case CDBUS_TYPE_INT32: dbus_message_iter_get_basic(&iter, &v); return .int32(v.i32)
        case CDBUS_TYPE_UINT32: dbus_message_iter_get_basic(&iter, &v); return .uint32(v.u32)
        case CDBUS_TYPE_INT64: dbus_message_iter_get_basic(&iter, &v); return .int64(Int64(v.i64))
        case CDBUS_TYPE_UINT64: dbus_message_iter_get_basic(&iter, &v); return .uint64(UInt64(v.u64))
        case CDBUS_TYPE_DOUBLE: dbus_message_iter_get_basic(&iter, &v); return .double(v.dbl)
        case CDBUS_TYPE_STRING, CDBUS_TYPE_OBJECT_PATH, CDBUS_TYPE_SIGNATURE:
            dbus_message_iter_get_basic(&iter, &v)
            if let limits, let p = v.str, strlen(p) > limits.maxStringBytes {
                throw DBusError.limitsExceeded("a string of \(strlen(p)) bytes, more than the \(limits.maxStringBytes) accepted")
            }
            guard let p = v.str, let s = String(validatingCString: p) else {
                throw DBusError.invalidArgs("string argument is not valid UTF-8")
            }
            return type == CDBUS_TYPE_STRING ? .string(s) : type == CDBUS_TYPE_OBJECT_PATH ? .objectPath(s) : .signature(s)
        case CDBUS_TYPE_VARIANT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .variant(try read(&sub, limits: limits))
        case CDBUS_TYPE_STRUCT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .structure(try readAll(&sub, limits: limits))
        case CDBUS_TYPE_ARRAY:
            let elementSignature = String(signature(of: &iter).dropFirst())
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            if dbus_message_iter_get_element_type(&iter) == CDBUS_TYPE_DICT_ENTRY {
                // "{kv…}": the key is always one basic type code.
                let inner = elementSignature.dropFirst().dropLast()
                let keySignature = String(inner.prefix(1))
                let valueSignature = String(inner.dropFirst())
                var entries: [(Value, Value)] = []
                while dbus_message_iter_get_arg_type(&sub) == CDBUS_TYPE_DICT_ENTRY {
                    try checkLength(entries.count, limits)
                    var entry = DBusMessageIter()
                    dbus_message_iter_recurse(&sub, &entry)
                    let key = try read(&entry, limits: limits)
                    dbus_message_iter_next(&entry)
                    let value = try read(&entry, limits: limits)
                    entries.append((key, value))
                    dbus_message_iter_next(&sub)
                }
                return .dict(keySignature: keySignature, valueSignature: valueSignature, entries)
            }
            return .array(elementSignature: elementSignature, try readAll(&sub, limits: limits, isArray: true))
        case CDBUS_TYPE_UNIX_FD:
            throw DBusError.invalidArgs("unix file descriptors are not supported")
        default:
            throw DBusError.invalidArgs("unexpected type code \(type) in message")
        }
    }

    /// Reads every value from `iter` on, or only the first `count`.
    static func readAll(_ iter: inout DBusMessageIter, limits: ArgumentLimits? = nil, isArray: Bool = false,
                        count: Int = .max) throws(DBusError) -> [Value] {
        var out: [Value] = []
        while out.count < count, dbus_message_iter_get_arg_type(&iter) != CDBUS_TYPE_INVALID {
            if isArray { try checkLength(out.count, limits) }
            out.append(try read(&iter, limits: limits))
            dbus_message_iter_next(&iter)
        }
        return out
    }

    /// Throws once an array already holding `count` elements would take one more than the limit.
    private static func checkLength(_ count: Int, _ limits: ArgumentLimits?) throws(DBusError) {
        guard let limits, count >= limits.maxArrayElements else { return }
        throw DBusError.limitsExceeded("an array of more than \(limits.maxArrayElements) elements, the most accepted")
    }

    private static func signature(of iter: inout DBusMessageIter) -> String {
        guard let p = dbus_message_iter_get_signature(&iter) else { return "" }
        defer { dbus_free(p) }
        return String(cString: p)
    }

    /// Appends one value already checked by `Value.validate()`.
    static func write(_ value: Value, to iter: inout DBusMessageIter) throws(DBusError) {
        var v = DBusBasicValue()
        func basic(_ type: Int32) throws(DBusError) {
            guard dbus_message_iter_append_basic(&iter, type, &v) != 0 else { throw DBusError.noMemory() }
        }
        func text(_ type: Int32, _ s: String) throws(DBusError) {
            let appended = s.withCString { p in
                v.str = UnsafeMutablePointer(mutating: p)
                return dbus_message_iter_append_basic(&iter, type, &v) != 0
            }
            guard appended else { throw DBusError.noMemory() }
        }
        switch value {
        case .byte(let x): v.byt = x; try basic(CDBUS_TYPE_BYTE)
        case .bool(let x): v.bool_val = x ? 1 : 0; try basic(CDBUS_TYPE_BOOLEAN)
        case .int16(let x): v.i16 = x; try basic(CDBUS_TYPE_INT16)
        case .uint16(let x): v.u16 = x; try basic(CDBUS_TYPE_UINT16)
        case .int32(let x): v.i32 = x; try basic(CDBUS_TYPE_INT32)
        case .uint32(let x): v.u32 = x; try basic(CDBUS_TYPE_UINT32)
        case .int64(let x): v.i64 = .init(x); try basic(CDBUS_TYPE_INT64)
        case .uint64(let x): v.u64 = .init(x); try basic(CDBUS_TYPE_UINT64)
        case .double(let x): v.dbl = x; try basic(CDBUS_TYPE_DOUBLE)
        case .string(let s): try text(CDBUS_TYPE_STRING, s)
        case .objectPath(let s): try text(CDBUS_TYPE_OBJECT_PATH, s)
        case .signature(let s): try text(CDBUS_TYPE_SIGNATURE, s)
        case .array(let e, let items):
            try container(&iter, CDBUS_TYPE_ARRAY, e) { (sub: inout DBusMessageIter) throws(DBusError) in
                for item in items { try write(item, to: &sub) }
            }
        case .dict(let k, let vs, let entries):
            try container(&iter, CDBUS_TYPE_ARRAY, "{" + k + vs + "}") { (sub: inout DBusMessageIter) throws(DBusError) in
                for (key, value) in entries {
                    try container(&sub, CDBUS_TYPE_DICT_ENTRY, nil) { (entry: inout DBusMessageIter) throws(DBusError) in
                        try write(key, to: &entry)
                        try write(value, to: &entry)
                    }
                }
            }
        case .structure(let members):
            try container(&iter, CDBUS_TYPE_STRUCT, nil) { (sub: inout DBusMessageIter) throws(DBusError) in
                for m in members { try write(m, to: &sub) }
            }
        case .variant(let inner):
            try container(&iter, CDBUS_TYPE_VARIANT, inner.signature) { (sub: inout DBusMessageIter) throws(DBusError) in
                try write(inner, to: &sub)
            }
        }
    }

    private static func container(_ iter: inout DBusMessageIter, _ type: Int32, _ contained: String?,
                                  _ body: (inout DBusMessageIter) throws(DBusError) -> Void) throws(DBusError) {
        var sub = DBusMessageIter()
        let opened: dbus_bool_t
        if let contained {
            opened = contained.withCString { dbus_message_iter_open_container(&iter, type, $0, &sub) }
        } else {
            opened = dbus_message_iter_open_container(&iter, type, nil, &sub)
        }
        guard opened != 0 else { throw DBusError.noMemory() }
        do {
            try body(&sub)
        } catch {
            dbus_message_iter_abandon_container(&iter, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &sub) != 0 else { throw DBusError.noMemory() }
    }
}
