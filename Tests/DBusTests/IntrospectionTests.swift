// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import DBus

final class IntrospectionTests: XCTestCase {
    func testInterfaceXMLListsArgumentsDirectionsAccessAndAnnotations() {
        let i = Interface(name: "org.example.I", methods: [
            Method("Add", in: [Arg("a", "u"), Arg("b", "u")], out: [Arg("sum", "u")]) { _ in .values([]) },
            Method("Nothing") { _ in .values([]) },
        ], properties: [
            Property("Live", type: "u", get: { .uint32(0) }),
            Property("Fixed", type: "s", emits: .const, get: { .string("") }),
            Property("Lazy", type: "ao", emits: .invalidates, get: { .objectPaths([]) }),
            Property("Quiet", type: "b", access: .readwrite, emits: .false, get: { .bool(false) }, set: { _, _ in .done }),
        ], signals: [
            Signal("Changed", args: [Arg("from", "u"), Arg("to", "u")]),
        ])
        XCTAssertEqual(i.introspectionXML, """
            <interface name="org.example.I">
             <method name="Add">
              <arg type="u" name="a" direction="in"/>
              <arg type="u" name="b" direction="in"/>
              <arg type="u" name="sum" direction="out"/>
             </method>
             <method name="Nothing"/>
             <signal name="Changed">
              <arg type="u" name="from"/>
              <arg type="u" name="to"/>
             </signal>
             <property name="Live" type="u" access="read"/>
             <property name="Fixed" type="s" access="read">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
             </property>
             <property name="Lazy" type="ao" access="read">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="invalidates"/>
             </property>
             <property name="Quiet" type="b" access="readwrite">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="false"/>
             </property>
            </interface>

            """)
    }
}
