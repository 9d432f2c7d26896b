// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// A minimal XML reader for the project's own files and for Introspect output:
/// elements and attributes only (text is ignored). It checks what makes a file
/// well-formed for our purposes — balanced tags, one root, quoted attributes,
/// no duplicate attribute, no `--` inside comments — and throws on the first fault.
/// (Foundation's XMLParser would pull FoundationXML and libxml2 into the tests.)
struct XMLElement {
    var name: String
    var attributes: [String: String]
    var children: [XMLElement]
    /// The text directly inside the element, trimmed (entities left as written).
    var text = ""

    /// The direct children named `name`.
    func children(_ name: String) -> [XMLElement] { children.filter { $0.name == name } }

    /// Every element below this one, depth first.
    var descendants: [XMLElement] { children.flatMap { [$0] + $0.descendants } }
}

struct XMLFault: Error, CustomStringConvertible {
    var description: String
}

enum XMLReader {
    /// Parses `text` into its root element.
    static func parse(_ text: String) throws(XMLFault) -> XMLElement {
        let s = Array(text.unicodeScalars)
        var i = 0
        var stack: [XMLElement] = []
        var root: XMLElement?

        func fault(_ what: String) -> XMLFault {
            let line = s[0..<min(i, s.count)].filter { $0 == "\n" }.count + 1
            return XMLFault(description: "line \(line): \(what)")
        }
        func starts(_ prefix: String) -> Bool {
            let p = Array(prefix.unicodeScalars)
            return i + p.count <= s.count && Array(s[i..<i + p.count]) == p
        }
        func skip(past end: String) throws(XMLFault) -> String {
            let e = Array(end.unicodeScalars)
            var j = i
            while j + e.count <= s.count {
                if Array(s[j..<j + e.count]) == e {
                    let body = String(String.UnicodeScalarView(s[i..<j]))
                    i = j + e.count
                    return body
                }
                j += 1
            }
            throw fault("unterminated construct, expected '\(end)'")
        }
        func isNameScalar(_ c: Unicode.Scalar) -> Bool {
            c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_" || c == ":" || c == "."
        }
        func name() throws(XMLFault) -> String {
            let start = i
            while i < s.count, isNameScalar(s[i]) { i += 1 }
            guard i > start else { throw fault("expected a name") }
            return String(String.UnicodeScalarView(s[start..<i]))
        }
        func spaces() { while i < s.count, s[i].properties.isWhitespace { i += 1 } }

        while i < s.count {
            if s[i] != "<" {
                if stack.isEmpty && !s[i].properties.isWhitespace { throw fault("text outside the root element") }
                if !stack.isEmpty { stack[stack.count - 1].text.unicodeScalars.append(s[i]) }
                i += 1
                continue
            }
            if starts("<!--") {
                i += 4
                let body = try skip(past: "-->")
                if body.contains("--") { throw fault("'--' inside a comment") }
            } else if starts("<?") {
                i += 2
                _ = try skip(past: "?>")
            } else if starts("<!DOCTYPE") {
                guard root == nil, stack.isEmpty else { throw fault("DOCTYPE after the root element") }
                // Skip to the closing '>' outside quotes (our files have no internal subset).
                var quote: Unicode.Scalar?
                while i < s.count {
                    let c = s[i]
                    i += 1
                    if let q = quote { if c == q { quote = nil } } else if c == "\"" || c == "'" { quote = c } else if c == ">" { break }
                }
            } else if starts("</") {
                i += 2
                let n = try name()
                spaces()
                guard i < s.count, s[i] == ">" else { throw fault("expected '>' after </\(n)") }
                i += 1
                guard var open = stack.popLast() else { throw fault("</\(n)> closes nothing") }
                guard open.name == n else { throw fault("</\(n)> closes <\(open.name)>") }
                open.text = String(open.text.trimmingPrefix(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
                if stack.isEmpty { root = open } else { stack[stack.count - 1].children.append(open) }
            } else {
                guard root == nil else { throw fault("a second root element") }
                i += 1
                var element = XMLElement(name: try name(), attributes: [:], children: [])
                var selfClosing = false
                while true {
                    spaces()
                    guard i < s.count else { throw fault("unterminated <\(element.name)>") }
                    if s[i] == ">" { i += 1; break }
                    if starts("/>") { i += 2; selfClosing = true; break }
                    let key = try name()
                    spaces()
                    guard i < s.count, s[i] == "=" else { throw fault("attribute \(key) has no value") }
                    i += 1
                    spaces()
                    guard i < s.count, s[i] == "\"" || s[i] == "'" else { throw fault("attribute \(key) is not quoted") }
                    let q = s[i]
                    i += 1
                    let value = try skip(past: String(q))
                    if value.contains("<") { throw fault("'<' in the value of \(key)") }
                    guard element.attributes[key] == nil else { throw fault("attribute \(key) given twice") }
                    element.attributes[key] = unescape(value)
                }
                if selfClosing {
                    if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
                } else {
                    stack.append(element)
                }
            }
        }
        if let open = stack.last { throw fault("<\(open.name)> is never closed") }
        guard let root else { throw fault("no root element") }
        return root
    }

    static func unescape(_ s: String) -> String {
        s.replacing("&lt;", with: "<").replacing("&gt;", with: ">")
            .replacing("&quot;", with: "\"").replacing("&apos;", with: "'")
            .replacing("&amp;", with: "&")
    }
}

/// The comparable content of one `<interface>`: one line per member, sorted, with
/// argument names, types and directions, property type and access, and the
/// EmitsChangedSignal annotation (`true` when absent, as the specification says).
func normalisedMembers(of interface: XMLElement) -> [String] {
    var lines: [String] = []
    for member in interface.children {
        let name = member.attributes["name"] ?? "?"
        switch member.name {
        case "method":
            let args = member.children("arg").map { a in
                "\(a.attributes["direction"] ?? "in") \(a.attributes["type"] ?? "?") \(a.attributes["name"] ?? "")"
            }
            lines.append("method \(name)(\(args.joined(separator: ", ")))")
        case "signal":
            let args = member.children("arg").map { a in "\(a.attributes["type"] ?? "?") \(a.attributes["name"] ?? "")" }
            lines.append("signal \(name)(\(args.joined(separator: ", ")))")
        case "property":
            var emits = "true"
            var others: [String] = []
            for a in member.children("annotation") {
                if a.attributes["name"] == "org.freedesktop.DBus.Property.EmitsChangedSignal" {
                    emits = a.attributes["value"] ?? "?"
                } else {
                    others.append(" \(a.attributes["name"] ?? "?")=\(a.attributes["value"] ?? "")")
                }
            }
            lines.append("property \(name) \(member.attributes["type"] ?? "?") \(member.attributes["access"] ?? "?") emits=\(emits)"
                + others.sorted().joined())
        case "annotation":
            lines.append("annotation \(name)=\(member.attributes["value"] ?? "")")
        default:
            lines.append("\(member.name) \(name)")
        }
    }
    return lines.sorted()
}
