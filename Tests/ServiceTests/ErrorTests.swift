// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// Every error of dbus-api.md, provoked and named; an error changes nothing.
final class ErrorTests: DaemonTestCase {
    override class var inProcess: Bool { true }
    /// A window with a navigation root holding one view, and a spare view; all owned by `app`.
    private func scene(_ app: TestClient) throws -> (window: String, nav: String, first: String, spare: String) {
        let window = try registerWindow(app)
        let nav = try createController(app, "navigation")
        let first = try createController(app)
        let spare = try createController(app)
        try ctl(app, nav, "SetViewControllers", [.objectPaths([first])])
        try setRoot(app, window, nav)
        return (window, nav, first, spare)
    }

    /// Snapshot of the manager and the given objects.
    private func snapshot(_ paths: [String]) throws -> [String: [String: Value]] {
        var out = ["manager": try getAll()]
        for p in paths { out[p] = try getAll(p) }
        return out
    }

    func testInvalidArgs() throws {
        let app = try newClient()
        let s = try scene(app)
        let tabs = try createController(app, "tab")
        let before = try snapshot([s.window, s.nav, s.first, s.spare, tabs])

        // Wrong signature, method and property.
        assertError(std("InvalidArgs")) { try self.call(app, Orientation1.managerPath, Orientation1.managerInterface, "SetDeviceOrientation", [.string("portrait")]) }
        assertError(std("InvalidArgs")) { try self.call(app, Orientation1.managerPath, Orientation1.managerInterface, "CreateController", []) }
        assertError(std("InvalidArgs")) { try self.set("SupportedMask", .string("all"), s.first, on: app) }
        assertError(std("InvalidArgs")) { try self.set("RotationLocked", .uint32(1)) }
        // Bad mask bits.
        for bad: UInt32 in [0, 1, 32, 31] where bad != 0 {
            assertError(std("InvalidArgs")) { try self.set("SupportedMask", .uint32(bad), s.first, on: app) }
        }
        assertError(std("InvalidArgs")) { try self.set("DelegateMask", .uint32(33), s.window, on: app) }
        assertError(std("InvalidArgs")) { try self.set("ApplicationMask", .uint32(0)) }
        assertError(std("InvalidArgs")) { try self.set("ApplicationMask", .uint32(1)) }
        assertError(std("InvalidArgs")) { try self.call(app, s.window, Orientation1.windowInterface, "RequestGeometryUpdate", [.uint32(64)]) }
        assertError(std("InvalidArgs")) { try self.set("PreferredOrientation", .uint32(5), s.first, on: app) }
        // Bad kind.
        let kind = assertError(std("InvalidArgs")) { try self.call(app, Orientation1.managerPath, Orientation1.managerInterface, "CreateController", [.string("popover")]) }
        XCTAssertTrue(kind.contains("popover"), kind)
        // Kind does not fit.
        assertError(std("InvalidArgs")) { try self.set("ForwardsToChild", .bool(false), s.first, on: app) }
        assertError(std("InvalidArgs")) { try self.ctl(app, s.first, "PushViewController", [.objectPath(s.spare)]) }
        assertError(std("InvalidArgs")) { try self.ctl(app, tabs, "PushViewController", [.objectPath(s.spare)]) }
        assertError(std("InvalidArgs")) { try self.ctl(app, s.first, "SetViewControllers", [.objectPaths([s.spare])]) }
        assertError(std("InvalidArgs")) { try self.set("SelectedIndex", .uint32(0), s.nav, on: app) }
        // SelectedIndex out of range (an empty tab controller reads 0, and only 0 fits).
        assertError(std("InvalidArgs")) { try self.set("SelectedIndex", .uint32(1), tabs, on: app) }
        // Device orientation out of range.
        assertError(std("InvalidArgs")) { try self.setDevice(9) }
        // NaN / infinite samples.
        assertError(std("InvalidArgs")) {
            try self.call(nil, Orientation1.managerPath, Orientation1.managerInterface, "InjectAcceleration", [.double(.nan), .double(0), .double(9.8)])
        }
        assertError(std("InvalidArgs")) {
            try self.call(nil, Orientation1.managerPath, Orientation1.managerInterface, "InjectAcceleration", [.double(0), .double(.infinity), .double(9.8)])
        }
        XCTAssertEqual(try snapshot([s.window, s.nav, s.first, s.spare, tabs]), before)

        // With two tabs, index 2 is out of range and index 1 fits.
        try ctl(app, tabs, "SetViewControllers", [.objectPaths([s.spare, try createController(app)])])
        assertError(std("InvalidArgs")) { try self.set("SelectedIndex", .uint32(2), tabs, on: app) }
        XCTAssertEqual(try u("SelectedIndex", tabs), 0)
        try set("SelectedIndex", .uint32(1), tabs, on: app)
        XCTAssertEqual(try u("SelectedIndex", tabs), 1)
    }

    func testAccessDeniedForAnotherClientsObjects() throws {
        let alice = try newClient()
        let bob = try newClient()
        let s = try scene(alice)
        let bobNav = try createController(bob, "navigation")
        let bobWindow = try registerWindow(bob)
        let before = try snapshot([s.window, s.nav, s.first, s.spare])

        let msg = assertError(std("AccessDenied")) { try self.set("DelegateMask", .uint32(2), s.window, on: bob) }
        XCTAssertTrue(msg.contains(alice.uniqueName) || msg.contains(bob.uniqueName), msg)
        assertError(std("AccessDenied")) { try self.set("SupportedMask", .uint32(2), s.first, on: bob) }
        assertError(std("AccessDenied")) { try self.ctl(bob, s.nav, "PopViewController") }
        assertError(std("AccessDenied")) { try self.ctl(bob, s.spare, "Destroy") }
        assertError(std("AccessDenied")) { try self.call(bob, s.window, Orientation1.windowInterface, "Close") }
        assertError(std("AccessDenied")) { try self.call(bob, s.window, Orientation1.windowInterface, "RequestGeometryUpdate", [.uint32(2)]) }
        // An argument owned by another client.
        assertError(std("AccessDenied")) { try self.ctl(bob, bobNav, "PushViewController", [.objectPath(s.spare)]) }
        assertError(std("AccessDenied")) { try self.setRoot(bob, bobWindow, s.spare) }
        assertError(std("AccessDenied")) { try self.ctl(alice, s.nav, "PushViewController", [.objectPath(bobNav)]) }
        XCTAssertEqual(try snapshot([s.window, s.nav, s.first, s.spare]), before)
        XCTAssertEqual(try get("ViewControllers", bobNav).arrayValues?.count, 0)
    }

    func testStandardErrorsForObjectsMethodsInterfacesAndProperties() throws {
        let app = try newClient()
        let s = try scene(app)
        let before = try snapshot([s.window, s.nav])

        assertError(std("UnknownObject")) { _ = try self.get("IsKey", Orientation1.managerPath + "/window/99") }
        assertError(std("UnknownObject")) { try self.call(app, Orientation1.managerPath + "/controller/99", Orientation1.controllerInterface, "Destroy") }
        assertError(std("UnknownObject")) { try self.ctl(app, s.nav, "PushViewController", [.objectPath(Orientation1.managerPath + "/controller/99")]) }
        assertError(std("UnknownObject")) { try self.setRoot(app, s.window, Orientation1.managerPath + "/window/1") }
        assertError(std("UnknownMethod")) { try self.call(app, Orientation1.managerPath, Orientation1.managerInterface, "Frobnicate") }
        assertError(std("UnknownMethod")) { try self.call(app, s.window, Orientation1.windowInterface, "PushViewController", [.objectPath(s.spare)]) }
        assertError(std("UnknownInterface")) { _ = try self.get("InterfaceOrientation", Orientation1.managerPath, "org.example.Nope") }
        assertError(std("UnknownInterface")) { _ = try self.get("IsKey", s.window, Orientation1.managerInterface) }
        assertError(std("UnknownProperty")) { _ = try self.get("Orientation") }
        assertError(std("UnknownProperty")) { try self.set("Nope", .uint32(1), s.window, on: app) }
        assertError(std("PropertyReadOnly")) { try self.set("InterfaceOrientation", .uint32(3)) }
        assertError(std("PropertyReadOnly")) { try self.set("DeviceOrientation", .uint32(3)) }
        assertError(std("PropertyReadOnly")) { try self.set("Idiom", .string("tablet")) }
        assertError(std("PropertyReadOnly")) { try self.set("EffectiveMask", .uint32(2), s.window, on: app) }
        assertError(std("PropertyReadOnly")) { try self.set("Kind", .string("tab"), s.nav, on: app) }
        XCTAssertEqual(try snapshot([s.window, s.nav]), before)

        // A destroyed controller is an unknown object afterwards.
        try ctl(app, s.spare, "Destroy")
        assertError(std("UnknownObject")) { _ = try self.get("Kind", s.spare) }
    }

    func testPolicyErrors() throws {
        let app = try newClient()
        let s = try scene(app)
        let other = try registerWindow(app)
        let sheet = try createController(app)
        let sheet2 = try createController(app)
        let landscape = try createController(app, mask: 24)
        let paths = [s.window, s.nav, s.first, s.spare, other, sheet, sheet2, landscape]
        try set("DelegateMask", .uint32(2), s.window, on: app)
        var before = try snapshot(paths)

        // NoCommonOrientation: a portrait-only window and landscape-only controllers.
        var m = assertError(Orientation1.errorName("NoCommonOrientation")) { try self.ctl(app, s.nav, "PushViewController", [.objectPath(landscape)]) }
        XCTAssertTrue(m.contains("common"), m)
        assertError(Orientation1.errorName("NoCommonOrientation")) { try self.set("SupportedMask", .uint32(24), s.first, on: app) }
        try set("SupportedMask", .uint32(2), s.first, on: app)
        assertError(Orientation1.errorName("NoCommonOrientation")) { try self.set("DelegateMask", .uint32(24), s.window, on: app) }
        try set("DelegateMask", .uint32(0), s.window, on: app)
        assertError(Orientation1.errorName("NoCommonOrientation")) { try self.set("ApplicationMask", .uint32(24)) }
        try set("SupportedMask", .uint32(26), s.first, on: app)
        try set("DelegateMask", .uint32(2), s.window, on: app)
        XCTAssertEqual(try snapshot(paths), before)

        // PreferredNotSupported.
        try set("PreferredOrientation", .uint32(3), sheet2, on: app)
        try set("SupportedMask", .uint32(2), sheet2, on: app)
        before = try snapshot(paths)
        assertError(Orientation1.errorName("PreferredNotSupported")) { try self.ctl(app, s.first, "PresentViewController", [.objectPath(sheet2)]) }
        XCTAssertEqual(try snapshot(paths), before)

        // InUse: a second place, or its own subtree.
        assertError(Orientation1.errorName("InUse")) { try self.setRoot(app, other, s.nav) }
        assertError(Orientation1.errorName("InUse")) { try self.ctl(app, s.nav, "PushViewController", [.objectPath(s.first)]) }
        assertError(Orientation1.errorName("InUse")) { try self.ctl(app, s.nav, "PushViewController", [.objectPath(s.nav)]) }
        assertError(Orientation1.errorName("InUse")) { try self.ctl(app, s.first, "PresentViewController", [.objectPath(s.nav)]) }
        XCTAssertEqual(try snapshot(paths), before)

        // AlreadyPresenting.
        try ctl(app, s.first, "PresentViewController", [.objectPath(sheet)])
        before = try snapshot(paths)
        assertError(Orientation1.errorName("AlreadyPresenting")) { try self.ctl(app, s.first, "PresentViewController", [.objectPath(s.spare)]) }
        assertError(Orientation1.errorName("InUse")) { try self.ctl(app, sheet2, "PresentViewController", [.objectPath(sheet)]) }
        XCTAssertEqual(try snapshot(paths), before)

        // CannotPop.
        m = assertError(Orientation1.errorName("CannotPop")) { try self.ctl(app, s.nav, "PopViewController") }
        XCTAssertEqual(try get("ViewControllers", s.nav).arrayValues?.count, 1)

        // NotGenerating.
        assertError(Orientation1.errorName("NotGenerating")) { try self.call(app, Orientation1.managerPath, Orientation1.managerInterface, "EndGeneratingDeviceOrientationNotifications") }
        try claim(app)
        try call(app, Orientation1.managerPath, Orientation1.managerInterface, "EndGeneratingDeviceOrientationNotifications")
        assertError(Orientation1.errorName("NotGenerating")) { try self.call(app, Orientation1.managerPath, Orientation1.managerInterface, "EndGeneratingDeviceOrientationNotifications") }

        // NotKeyWindow and UnsupportedOrientations.
        XCTAssertEqual(try o("KeyWindow"), s.window)
        before = try snapshot(paths)
        assertError(Orientation1.errorName("NotKeyWindow")) { try self.call(app, other, Orientation1.windowInterface, "RequestGeometryUpdate", [.uint32(2)]) }
        assertError(Orientation1.errorName("UnsupportedOrientations")) { try self.call(app, s.window, Orientation1.windowInterface, "RequestGeometryUpdate", [.uint32(24)]) }
        XCTAssertEqual(try snapshot(paths), before)
        // The geometry request that fits rotates, lock or not (P13).
        try set("DelegateMask", .uint32(0), s.window, on: app)
        try set("RotationLocked", .bool(true))
        try call(app, s.window, Orientation1.windowInterface, "RequestGeometryUpdate", [.uint32(16)])
        XCTAssertEqual(try u("InterfaceOrientation"), 4)
        _ = m
    }
}

/// `[Limits] Windows=2`.
final class LimitErrorTests: DaemonTestCase {
    override class var inProcess: Bool { true }
    override var configText: String? { "[Limits]\nWindows=2\nControllers=3\n" }

    func testLimitsExceeded() throws {
        let app = try newClient()
        _ = try registerWindow(app)
        _ = try registerWindow(app)
        let before = try getAll()
        assertError(std("LimitsExceeded")) { _ = try self.registerWindow(app) }
        XCTAssertFalse(tree().contains("/window/3"))
        for _ in 0..<3 { _ = try createController(app) }
        assertError(std("LimitsExceeded")) { _ = try self.createController(app) }
        XCTAssertEqual(try getAll(), before)
        // The limit is per client.
        let other = try newClient()
        XCTAssertEqual(try registerWindow(other), Orientation1.managerPath + "/window/3", "numbers count up and the refused one used none")
    }
}

/// `--sensor none`: InjectAcceleration is NotSimulated.
final class NoSensorErrorTests: DaemonTestCase {
    override class var inProcess: Bool { true }
    override var sensor: String { "none" }

    func testNotSimulated() throws {
        XCTAssertEqual(try b("HasAccelerometer"), false)
        assertError(Orientation1.errorName("NotSimulated")) {
            try self.call(nil, Orientation1.managerPath, Orientation1.managerInterface, "InjectAcceleration", [.double(0), .double(9.8), .double(0)])
        }
        // SetDeviceOrientation still works with any source.
        let app = try newClient()
        try claim(app)
        try setDevice(3)
        XCTAssertEqual(try u("DeviceOrientation"), 3)
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
    }
}

/// An unprivileged user on the real bus, through `dbus-send`: reading works, privileged changes are refused.
final class UnprivilegedUserErrorTests: DaemonTestCase {
    func testAccessDeniedForAnUnprivilegedUser() throws {
        guard toolExists("setpriv"), toolExists("dbus-send") else { throw unavailable("setpriv or dbus-send missing") }
        guard getuid() == 0 else { throw unavailable("needs root to switch to uid 65534") }
        // Let uid 65534 reach the private bus' socket.
        let socket = bus.address.components(separatedBy: "unix:path=").last?.components(separatedBy: ",").first ?? ""
        chmod(dirname(socket), 0o755)
        chmod(socket, 0o777)
        let before = try getAll()
        func asNobody(_ args: [String]) -> ToolResult {
            tool(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "dbus-send", "--bus=\(bus.address)",
                  "--print-reply", "--dest=\(Orientation1.busName)", Orientation1.managerPath] + args)
        }
        // The unprivileged user can read …
        var r = asNobody(["\(StandardInterface.properties).Get", "string:\(Orientation1.managerInterface)", "string:InterfaceOrientation"])
        XCTAssertEqual(r.status, 0, "uid 65534 cannot reach the bus: \(r.stderr)")
        // … but not lock, force, inject or configure.
        for args in [["\(StandardInterface.properties).Set", "string:\(Orientation1.managerInterface)", "string:RotationLocked", "variant:boolean:true"],
                     ["\(StandardInterface.properties).Set", "string:\(Orientation1.managerInterface)", "string:ApplicationMask", "variant:uint32:24"],
                     ["\(Orientation1.managerInterface).ResetApplicationMask"],
                     ["\(Orientation1.managerInterface).SetDeviceOrientation", "uint32:3"]] {
            r = asNobody(args)
            XCTAssertNotEqual(r.status, 0, "\(args) was allowed")
            XCTAssertTrue(r.stderr.contains(std("AccessDenied")), "\(args): \(r.stderr)")
        }
        XCTAssertTrue(r.stderr.contains("65534"), "the message says which rule refused: \(r.stderr)")
        XCTAssertEqual(try getAll(), before)
        // A non-privileged method works for them.
        r = asNobody(["\(Orientation1.managerInterface).AttemptRotationToDeviceOrientation"])
        XCTAssertEqual(r.status, 0, r.stderr)
    }
}
