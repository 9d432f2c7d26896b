import Foundation
import XCTest
import DBus
import TestSupport

/// The stock D-Bus tools against the daemon: busctl, dbus-send, gdbus.
final class ToolTests: DaemonTestCase {
    func testBusctlIntrospectShowsTheManagerInterface() throws {
        let r = busctl(["introspect", busName, managerPath])
        XCTAssertEqual(r.status, 0, r.stderr)
        for member in [managerIface, ".RegisterWindow", ".CreateController", ".SetDeviceOrientation", ".InjectAcceleration",
                       ".InterfaceOrientation", ".DeviceOrientation", ".ApplicationMask", ".RotationLocked", ".KeyWindow",
                       ".ScreenBounds", ".WillChange", ".DidChange", ".DeviceOrientationDidChange",
                       "org.freedesktop.DBus.Properties", "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer"] {
            XCTAssertTrue(r.stdout.contains(member), "introspection lacks \(member):\n\(r.stdout)")
        }
    }

    func testBusctlTreeShowsObjectsAsTheyComeAndGo() throws {
        let initial = tree()
        XCTAssertTrue(initial.contains(managerPath), initial)
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
        let r = busctl(["introspect", busName, window])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains(windowIface) && r.stdout.contains(".EffectiveMask") && r.stdout.contains(".RequestGeometryUpdate"), r.stdout)

        try call(app, window, windowIface, "Close")
        _ = try ctl(app, controller, "Destroy")
        let after = tree()
        XCTAssertFalse(after.contains(window), after)
        XCTAssertFalse(after.contains(controller), after)
        XCTAssertTrue(after.contains(managerPath), after)
    }

    func testBusctlPropertiesAndCalls() throws {
        var r = busctl(["get-property", busName, managerPath, managerIface, "InterfaceOrientation"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "u 1")

        r = busctl(["set-property", busName, managerPath, managerIface, "RotationLocked", "b", "true"])
        XCTAssertEqual(r.status, 0, r.stderr)
        r = busctl(["get-property", busName, managerPath, managerIface, "RotationLocked"])
        XCTAssertEqual(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "b true")

        r = busctl(["set-property", busName, managerPath, managerIface, "ApplicationMask", "u", "24"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try u("InterfaceOrientation"), 3, "a new application mask re-decides even when locked (P9)")

        // A window made by a short-lived busctl goes when busctl exits.
        r = busctl(["call", busName, managerPath, managerIface, "RegisterWindow"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("o \"\(managerPath)/window/1\""), r.stdout)
        XCTAssertTrue(waitUntil(3) { !self.tree().contains("/window/1") }, "the window of a client that left remains")
        XCTAssertEqual(try o("KeyWindow"), "/")

        r = busctl(["call", busName, managerPath, managerIface, "CreateController", "s", "tab"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("o \"\(managerPath)/controller/1\""), r.stdout)

        // Errors reach busctl as failures with the message.
        r = busctl(["call", busName, managerPath, managerIface, "CreateController", "s", "popover"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("popover"), r.stderr)
    }

    func testDbusSendPrintReply() throws {
        var r = tool(["dbus-send", "--bus=\(bus.address)", "--print-reply", "--dest=\(busName)", managerPath,
                      "\(propsIface).Get", "string:\(managerIface)", "string:InterfaceOrientation"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("uint32 1"), r.stdout)

        r = tool(["dbus-send", "--bus=\(bus.address)", "--print-reply", "--dest=\(busName)", managerPath,
                  "\(managerIface).SetDeviceOrientation", "uint32:4"])
        XCTAssertEqual(r.status, 0, r.stderr)

        r = tool(["dbus-send", "--bus=\(bus.address)", "--print-reply", "--dest=\(busName)", managerPath,
                  "\(propsIface).GetAll", "string:\(managerIface)"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for name in ["DeviceOrientation", "InterfaceOrientation", "SupportedMask", "ApplicationMask", "Idiom", "RotationLocked",
                     "HasAccelerometer", "KeyWindow", "RotationDuration", "ScreenBounds"] {
            XCTAssertTrue(r.stdout.contains("\"\(name)\""), "GetAll lacks \(name):\n\(r.stdout)")
        }

        // Wrong signature: the error name is printed.
        r = tool(["dbus-send", "--bus=\(bus.address)", "--print-reply", "--dest=\(busName)", managerPath,
                  "\(managerIface).SetDeviceOrientation", "string:portrait"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains(std("InvalidArgs")), r.stderr)
    }

    func testGdbusCall() throws {
        guard toolExists("gdbus") else { throw XCTSkip("gdbus is not installed") }
        var r = tool(["gdbus", "call", "--address", bus.address, "--dest", busName, "--object-path", managerPath,
                      "--method", "\(propsIface).Get", managerIface, "Idiom"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("<'phone'>"), r.stdout)

        r = tool(["gdbus", "call", "--address", bus.address, "--dest", busName, "--object-path", managerPath,
                  "--method", "\(managerIface).AttemptRotationToDeviceOrientation"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "()")

        r = tool(["gdbus", "introspect", "--address", bus.address, "--dest", busName, "--object-path", managerPath])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("WillChange"), r.stdout)

        r = tool(["gdbus", "call", "--address", bus.address, "--dest", busName, "--object-path", managerPath,
                  "--method", "\(managerIface).EndGeneratingDeviceOrientationNotifications"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains(own("NotGenerating")), r.stderr)
    }
}
