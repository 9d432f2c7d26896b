// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DesktopSession

/// The few JSON shapes the tool prints, rendered on one line (no Foundation).
extension JSON {
    var rendered: String {
        switch self {
        case .string(let s): return JSON.quote(s)
        case .int(let n): return String(n)
        case .double(let d): return d.isFinite ? "\(d)" : "null"
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map(\.rendered).joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.map { JSON.quote($0.0) + ": " + $0.1.rendered }.joined(separator: ", ") + "}"
        }
    }

    /// A JSON string literal with the escapes RFC 8259 requires.
    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
