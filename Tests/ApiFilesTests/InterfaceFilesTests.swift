// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import DBus
import OrientationAPI
import TestSupport

/// `dbus/*.xml` describe exactly what the running daemon introspects.
final class InterfaceFilesTests: XCTestCase {
    static let files = [
        Orientation1.managerInterface: "dbus/\(Orientation1.managerInterface).xml",
        Orientation1.windowInterface: "dbus/\(Orientation1.windowInterface).xml",
        Orientation1.controllerInterface: "dbus/\(Orientation1.controllerInterface).xml",
        SensorProxy.interface: "dbus/\(SensorProxy.interface).xml",
        SensorProxy.compassInterface: "dbus/\(SensorProxy.compassInterface).xml",
    ]

    func testEachInterfaceFileHoldsOnlyItsInterface() throws {
        let xmlFiles = packageDirectory("dbus").filter { $0.hasSuffix(".xml") }.map { "dbus/" + $0 }
        XCTAssertEqual(xmlFiles.sorted(), Self.files.values.sorted(), "dbus/ holds one XML file per interface")
        for (interface, file) in Self.files {
            let text = try XCTUnwrap(readPackageFile(file), "\(file) is missing")
            let root = try XMLReader.parse(text)
            XCTAssertEqual(root.name, "node", file)
            XCTAssertEqual(root.children.map(\.name), ["interface"], "\(file) declares one interface and nothing else")
            XCTAssertEqual(root.children.first?.attributes["name"], interface, file)
        }
    }

    func testInterfaceFilesMatchWhatTheDaemonIntrospects() throws {
        let world = try World()
        defer { _ = world.tearDown() }
        try world.startDaemon(["--sensor-proxy-compat"], checked: false)
        // Windows and controllers live as long as the connection that made them: keep it open.
        let client = try Connection(bus: .address(world.bus.address))
        defer { client.close() }
        func call(_ path: String, _ interface: String, _ method: String, _ values: [Value] = [],
                  destination: String = Orientation1.busName) throws -> [Value] {
            try client.callBlocking(destination: destination, path: path, interface: interface,
                                    method: method, values: values, timeoutMs: 5000)
        }
        let manager = Orientation1.managerPath
        let window = try XCTUnwrap(call(manager, Orientation1.managerInterface, "RegisterWindow").first?.objectPathValue)
        let controller = try XCTUnwrap(call(manager, Orientation1.managerInterface, "CreateController",
                                            [.string("navigation")]).first?.objectPathValue)
        let objects = [
            Orientation1.managerInterface: manager,
            Orientation1.windowInterface: window,
            Orientation1.controllerInterface: controller,
            SensorProxy.interface: SensorProxy.path,
            SensorProxy.compassInterface: SensorProxy.compassPath,
        ]
        for (interface, path) in objects.sorted(by: { $0.key < $1.key }) {
            let destination = interface.hasPrefix(SensorProxy.interface) ? SensorProxy.busName : Orientation1.busName
            let xml = try XCTUnwrap(call(path, "org.freedesktop.DBus.Introspectable", "Introspect", destination: destination).first?.stringValue)
            let live = try XCTUnwrap(XMLReader.parse(xml).children("interface").first { $0.attributes["name"] == interface },
                                     "\(path) does not introspect \(interface)")
            let file = try XCTUnwrap(Self.files[interface])
            let documented = try XCTUnwrap(XMLReader.parse(try XCTUnwrap(readPackageFile(file))).children("interface").first)
            let want = normalisedMembers(of: live), have = normalisedMembers(of: documented)
            for line in want where !have.contains(line) {
                XCTFail("\(file) lacks or misdescribes what the daemon has: \(line)")
            }
            for line in have where !want.contains(line) {
                XCTFail("\(file) declares what the daemon does not have: \(line)")
            }
            XCTAssertFalse(want.isEmpty, "\(interface) introspected with no members")
        }
    }

    /// The normaliser itself: attribute order, comments, whitespace and the default
    /// annotation do not matter; a changed direction, type, access or annotation does.
    func testNormaliserIgnoresLayoutButNotMeaning() throws {
        let a = try XMLReader.parse("""
            <node><interface name="x.Y">
              <!-- a comment -->
              <method name="M"><arg type="u" name="v" direction="in"/><arg name="r" type="o" direction="out"/></method>
              <property name="P" type="u" access="read"/>
              <property name="C" type="s" access="read"><annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/></property>
              <signal name="S"><arg type="u" name="a"/></signal>
            </interface></node>
            """)
        let b = try XMLReader.parse("""
            <node>
            <interface name='x.Y'>
            <signal name="S"><arg name="a" type="u"/></signal>
            <property access="read" type="s" name="C">
              <annotation value="const" name="org.freedesktop.DBus.Property.EmitsChangedSignal"/>
            </property>
            <property access="read" name="P" type="u">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="true"/>
            </property>
            <method name="M"><arg name="v" type="u"/><arg direction="out" type="o" name="r"/></method>
            </interface>
            </node>
            """)
        XCTAssertEqual(normalisedMembers(of: a.children[0]), normalisedMembers(of: b.children[0]))
        let c = try XMLReader.parse(#"<node><interface name="x.Y"><property name="P" type="u" access="readwrite"/></interface></node>"#)
        XCTAssertNotEqual(normalisedMembers(of: c.children[0]).first { $0.hasPrefix("property P") },
                          normalisedMembers(of: a.children[0]).first { $0.hasPrefix("property P") })
        XCTAssertThrowsError(try XMLReader.parse("<node><interface></node>"))
        XCTAssertThrowsError(try XMLReader.parse("<node><!-- a -- b --></node>"))
        XCTAssertThrowsError(try XMLReader.parse("<node a=\"1\" a=\"2\"/>"))
    }
}
