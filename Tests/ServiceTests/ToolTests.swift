// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// The stock D-Bus tools against the daemon: busctl, dbus-send, gdbus.
final class ToolTests: DaemonTestCase {
    func testBusctlIntrospectShowsTheManagerInterface() throws {
        let r = busctl(["introspect", Orientation1.busName, Orientation1.managerPath])
        XCTAssertEqual(r.status, 0, r.stderr)
        for member in [Orientation1.managerInterface, ".RegisterWindow", ".CreateController", ".SetDeviceOrientation", ".InjectAcceleration",
                       ".InterfaceOrientation", ".DeviceOrientation", ".ApplicationMask", ".RotationLocked", ".KeyWindow",
                       ".ScreenBounds", ".WillChange", ".DidChange", ".DeviceOrientationDidChange",
                       "org.freedesktop.DBus.Properties", "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer"] {
            XCTAssertTrue(r.stdout.contains(member), "introspection lacks \(member):\n\(r.stdout)")
        }
    }

    func testBusctlTreeShowsObjectsAsTheyComeAndGo() throws {
        let initial = tree()
        XCTAssertTrue(initial.contains(Orientation1.managerPath), initial)
        XCTAssertFalse(initial.contains("/window/"), initial)

        let app = try newClient()
        let window = try registerWindow(app)
        let controller = try createController(app)
        let listed = tree()
        XCTAssertTrue(listed.contains(window), listed)
        XCTAssertTrue(listed.contains(controller), listed)
        for parent in ["/", "/org", "/org/orientationd"] {
            XCTAssertTrue(listed.split(separator: "\n").contains { $0 == parent }, "\(parent) missing:\n\(listed)")
        }
        let r = busctl(["introspect", Orientation1.busName, window])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains(Orientation1.windowInterface) && r.stdout.contains(".EffectiveMask") && r.stdout.contains(".RequestGeometryUpdate"), r.stdout)

        try call(app, window, Orientation1.windowInterface, "Close")
        _ = try ctl(app, controller, "Destroy")
        let after = tree()
        XCTAssertFalse(after.contains(window), after)
        XCTAssertFalse(after.contains(controller), after)
        XCTAssertTrue(after.contains(Orientation1.managerPath), after)
    }

    func testBusctlPropertiesAndCalls() throws {
        var r = busctl(["get-property", Orientation1.busName, Orientation1.managerPath, Orientation1.managerInterface, "InterfaceOrientation"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "u 1")

        r = busctl(["set-property", Orientation1.busName, Orientation1.managerPath, Orientation1.managerInterface, "RotationLocked", "b", "true"])
        XCTAssertEqual(r.status, 0, r.stderr)
        r = busctl(["get-property", Orientation1.busName, Orientation1.managerPath, Orientation1.managerInterface, "RotationLocked"])
        XCTAssertEqual(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "b true")

        r = busctl(["set-property", Orientation1.busName, Orientation1.managerPath, Orientation1.managerInterface, "ApplicationMask", "u", "24"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try u("InterfaceOrientation"), 3, "a new application mask re-decides even when locked (P9)")

        // A window made by a short-lived busctl goes when busctl exits.
        r = busctl(["call", Orientation1.busName, Orientation1.managerPath, Orientation1.managerInterface, "RegisterWindow"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("o \"\(Orientation1.managerPath)/window/1\""), r.stdout)
        XCTAssertTrue(waitUntil(3) { !self.tree().contains("/window/1") }, "the window of a client that left remains")
        XCTAssertEqual(try o("KeyWindow"), "/")

        r = busctl(["call", Orientation1.busName, Orientation1.managerPath, Orientation1.managerInterface, "CreateController", "s", "tab"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("o \"\(Orientation1.managerPath)/controller/1\""), r.stdout)

        // Errors reach busctl as failures with the message.
        r = busctl(["call", Orientation1.busName, Orientation1.managerPath, Orientation1.managerInterface, "CreateController", "s", "popover"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("popover"), r.stderr)
    }

    func testDbusSendPrintReply() throws {
        var r = tool(["dbus-send", "--bus=\(bus.address)", "--print-reply", "--dest=\(Orientation1.busName)", Orientation1.managerPath,
                      "\(StandardInterface.properties).Get", "string:\(Orientation1.managerInterface)", "string:InterfaceOrientation"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("uint32 1"), r.stdout)

        r = tool(["dbus-send", "--bus=\(bus.address)", "--print-reply", "--dest=\(Orientation1.busName)", Orientation1.managerPath,
                  "\(Orientation1.managerInterface).SetDeviceOrientation", "uint32:4"])
        XCTAssertEqual(r.status, 0, r.stderr)

        r = tool(["dbus-send", "--bus=\(bus.address)", "--print-reply", "--dest=\(Orientation1.busName)", Orientation1.managerPath,
                  "\(StandardInterface.properties).GetAll", "string:\(Orientation1.managerInterface)"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for name in ["DeviceOrientation", "InterfaceOrientation", "SupportedMask", "ApplicationMask", "Idiom", "RotationLocked",
                     "HasAccelerometer", "KeyWindow", "RotationDuration", "ScreenBounds"] {
            XCTAssertTrue(r.stdout.contains("\"\(name)\""), "GetAll lacks \(name):\n\(r.stdout)")
        }

        // Wrong signature: the error name is printed.
        r = tool(["dbus-send", "--bus=\(bus.address)", "--print-reply", "--dest=\(Orientation1.busName)", Orientation1.managerPath,
                  "\(Orientation1.managerInterface).SetDeviceOrientation", "string:portrait"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains(std("InvalidArgs")), r.stderr)
    }

    func testGdbusCall() throws {
        guard toolExists("gdbus") else { throw unavailable("gdbus is not installed") }
        var r = tool(["gdbus", "call", "--address", bus.address, "--dest", Orientation1.busName, "--object-path", Orientation1.managerPath,
                      "--method", "\(StandardInterface.properties).Get", Orientation1.managerInterface, "Idiom"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("<'phone'>"), r.stdout)

        r = tool(["gdbus", "call", "--address", bus.address, "--dest", Orientation1.busName, "--object-path", Orientation1.managerPath,
                  "--method", "\(Orientation1.managerInterface).AttemptRotationToDeviceOrientation"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "()")

        r = tool(["gdbus", "introspect", "--address", bus.address, "--dest", Orientation1.busName, "--object-path", Orientation1.managerPath])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("WillChange"), r.stdout)

        r = tool(["gdbus", "call", "--address", bus.address, "--dest", Orientation1.busName, "--object-path", Orientation1.managerPath,
                  "--method", "\(Orientation1.managerInterface).EndGeneratingDeviceOrientationNotifications"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains(Orientation1.errorName("NotGenerating")), r.stderr)
    }
}
