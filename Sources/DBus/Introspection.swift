// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// Introspection XML derived from the interface tables
/// (the format of `org.freedesktop.DBus.Introspectable.Introspect`).
enum Introspection {
    static let header = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
        "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    static let peer = StandardInterface.peer
    static let introspectable = StandardInterface.introspectable
    static let properties = StandardInterface.properties

    /// The standard interfaces every object implements; declared as tables only to describe them.
    static var standardInterfaces: [Interface] {
        let none: (MethodCall) -> Reply = { _ in .deferred }
        return [
            Interface(name: peer, methods: [
                Method("Ping", none),
                Method("GetMachineId", out: [Arg("machine_uuid", "s")], none),
            ]),
            Interface(name: introspectable, methods: [
                Method("Introspect", out: [Arg("xml_data", "s")], none),
            ]),
            Interface(name: properties, methods: [
                Method("Get", in: [Arg("interface_name", "s"), Arg("property_name", "s")], out: [Arg("value", "v")], none),
                Method("GetAll", in: [Arg("interface_name", "s")], out: [Arg("props", "a{sv}")], none),
                Method("Set", in: [Arg("interface_name", "s"), Arg("property_name", "s"), Arg("value", "v")], none),
            ], signals: [
                Signal("PropertiesChanged", args: [Arg("interface_name", "s"), Arg("changed_properties", "a{sv}"),
                                                   Arg("invalidated_properties", "as")]),
            ]),
        ]
    }

    static func isStandard(_ name: String) -> Bool {
        name == peer || name == introspectable || name == properties
    }

    /// A whole `<node>` document: the standard interfaces, `interfaces`, then one `<node name=…/>` per child,
    /// and a comment saying how many children were left out of a long list. A folder (a node with no
    /// object, only children) has only `Peer` and `Introspectable`: it has no properties to ask about.
    static func document(interfaces: [Interface], children: [String], omitted: Int = 0, folder: Bool = false) -> String {
        var xml = header + "<node>\n"
        let standard = folder ? standardInterfaces.filter { $0.name != properties } : standardInterfaces
        for i in standard + interfaces { xml += i.introspectionXML(indent: " ") }
        for c in children { xml += " <node name=\"\(escape(c))\"/>\n" }
        if omitted > 0 {
            xml += " <!-- \(omitted) more objects here are not listed; each answers at its own path -->\n"
        }
        xml += "</node>\n"
        return xml
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(ch)
            }
        }
        return out
    }
}

extension Interface {
    /// This interface's `<interface>` element, as it appears in Introspect output,
    /// so the project's `dbus/*.xml` can be checked against the table.
    public var introspectionXML: String { introspectionXML(indent: "") }

    /// The `<interface>` element with every line prefixed by `indent`.
    public func introspectionXML(indent: String) -> String {
        let e = Introspection.escape
        let i1 = indent + " ", i2 = indent + "  "
        var xml = "\(indent)<interface name=\"\(e(name))\">\n"
        for a in annotations { xml += "\(i1)<annotation name=\"\(e(a.name))\" value=\"\(e(a.value))\"/>\n" }
        func arg(_ a: Arg, _ direction: String?) -> String {
            let dir = direction.map { " direction=\"\($0)\"" } ?? ""
            return "\(i2)<arg type=\"\(e(a.type))\" name=\"\(e(a.name))\"\(dir)/>\n"
        }
        for m in methods {
            if m.inArgs.isEmpty && m.outArgs.isEmpty {
                xml += "\(i1)<method name=\"\(e(m.name))\"/>\n"
                continue
            }
            xml += "\(i1)<method name=\"\(e(m.name))\">\n"
            for a in m.inArgs { xml += arg(a, "in") }
            for a in m.outArgs { xml += arg(a, "out") }
            xml += "\(i1)</method>\n"
        }
        for s in signals {
            if s.args.isEmpty {
                xml += "\(i1)<signal name=\"\(e(s.name))\"/>\n"
                continue
            }
            xml += "\(i1)<signal name=\"\(e(s.name))\">\n"
            for a in s.args { xml += arg(a, nil) }
            xml += "\(i1)</signal>\n"
        }
        for p in properties {
            let access = p.access == .read ? "read" : "readwrite"
            let open = "\(i1)<property name=\"\(e(p.name))\" type=\"\(e(p.type))\" access=\"\(access)\""
            let annotation: String?
            switch p.emits {
            case .true: annotation = nil
            case .invalidates: annotation = "invalidates"
            case .const: annotation = "const"
            case .false: annotation = "false"
            }
            let others = p.annotations.map { "\(i2)<annotation name=\"\(e($0.name))\" value=\"\(e($0.value))\"/>\n" }.joined()
            if annotation != nil || !others.isEmpty {
                xml += open + ">\n"
                if let annotation {
                    xml += "\(i2)<annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"\(annotation)\"/>\n"
                }
                xml += others
                xml += "\(i1)</property>\n"
            } else {
                xml += open + "/>\n"
            }
        }
        xml += "\(indent)</interface>\n"
        return xml
    }
}
