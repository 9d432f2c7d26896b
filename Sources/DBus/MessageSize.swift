// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Glibc
import CDBus

extension Message {
    /// The bytes the message takes on the wire, to within a few bytes of padding: its header fields and
    /// its body. The body is measured from the lengths the wire format carries (an array's byte length is
    /// read, never its elements), so measuring costs a walk of the arguments' top level and of the
    /// structures and variants in it, not of the data: a 30 MiB array is measured as fast as an empty one.
    public var wireSize: Int {
        // The fixed header (12 bytes) and the header fields' array length, then each field: its code
        // and variant signature (4 bytes), its length (4), the text and its NUL, padded to 8.
        var size = 16
        for field in [dbus_message_get_path(raw), dbus_message_get_interface(raw), dbus_message_get_member(raw),
                      dbus_message_get_error_name(raw), dbus_message_get_destination(raw), dbus_message_get_sender(raw)] {
            if let field { size += Self.align(8 + strlen(field) + 1, 8) }
        }
        if let signature = dbus_message_get_signature(raw), signature.pointee != 0 { size += Self.align(6 + strlen(signature), 8) }
        if dbus_message_get_reply_serial(raw) != 0 { size += 8 }
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return size }
        return Self.measure(&iter, from: Self.align(size, 8))
    }

    /// The offset after the arguments from `iter` to the end of its level, starting at `offset`.
    private static func measure(_ iter: inout DBusMessageIter, from offset: Int) -> Int {
        var o = offset
        while true {
            let type = dbus_message_iter_get_arg_type(&iter)
            switch type {
            case CDBUS_TYPE_INVALID: return o
            case CDBUS_TYPE_STRING, CDBUS_TYPE_OBJECT_PATH:
                var text: UnsafePointer<CChar>?
                dbus_message_iter_get_basic(&iter, &text)
                o = align(o, 4) + 4 + (text.map { strlen($0) } ?? 0) + 1
            case CDBUS_TYPE_SIGNATURE:
                var text: UnsafePointer<CChar>?
                dbus_message_iter_get_basic(&iter, &text)
                o += 1 + (text.map { strlen($0) } ?? 0) + 1
            case CDBUS_TYPE_ARRAY:
                o = align(align(o, 4) + 4, alignment(of: dbus_message_iter_get_element_type(&iter)))
                // The length is read inside the array; recursing into it visits no element.
                var inner = DBusMessageIter()
                dbus_message_iter_recurse(&iter, &inner)
                o += Int(max(0, cdbus_iter_array_bytes(&inner)))
            case CDBUS_TYPE_VARIANT:
                var inner = DBusMessageIter()
                dbus_message_iter_recurse(&iter, &inner)
                if let signature = dbus_message_iter_get_signature(&inner) {
                    o += 1 + strlen(signature) + 1
                    dbus_free(signature)
                }
                o = measure(&inner, from: o)
            case CDBUS_TYPE_STRUCT, CDBUS_TYPE_DICT_ENTRY:
                var inner = DBusMessageIter()
                dbus_message_iter_recurse(&iter, &inner)
                o = measure(&inner, from: align(o, 8))
            default:
                let a = alignment(of: type)
                o = align(o, a) + a
            }
            guard dbus_message_iter_next(&iter) != 0 else { return o }
        }
    }

    /// The alignment of a value of `type` on the wire, which for a fixed type is also its size.
    private static func alignment(of type: Int32) -> Int {
        switch type {
        case CDBUS_TYPE_BYTE, CDBUS_TYPE_SIGNATURE, CDBUS_TYPE_VARIANT: 1
        case CDBUS_TYPE_INT16, CDBUS_TYPE_UINT16: 2
        case CDBUS_TYPE_INT64, CDBUS_TYPE_UINT64, CDBUS_TYPE_DOUBLE, CDBUS_TYPE_STRUCT, CDBUS_TYPE_DICT_ENTRY: 8
        default: 4
        }
    }

    private static func align(_ offset: Int, _ boundary: Int) -> Int { (offset + boundary - 1) / boundary * boundary }
}
