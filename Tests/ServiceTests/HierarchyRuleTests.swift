// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// More of P5, P6, P9, P13 and P16 over the bus, beyond the seed scenarios.
final class HierarchyRuleTests: DaemonTestCase {
    override class var inProcess: Bool { true }
    /// Dismissing a landscape player over a portrait-only screen rotates back (P9 fallback order).
    func testDismissRotatesBackWhenThePresenterDoesNotAllowTheOrientation() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let home = try createController(app, mask: 2)
        let player = try createController(app, mask: 24, preferred: 4)
        try setRoot(app, window, home)
        try ctl(app, home, "PresentViewController", [.objectPath(player)])
        XCTAssertEqual(try u("InterfaceOrientation"), 4)
        try ctl(app, home, "DismissViewController")
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
    }

    /// Presenting a forwarding navigation container: its top's preferred orientation counts (P9, last bullet).
    func testPresentedForwardingContainerUsesItsTopsPreferredOrientation() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let home = try createController(app)
        let nav = try createController(app, "navigation")
        let top = try createController(app, mask: 24, preferred: 4)
        try ctl(app, nav, "SetViewControllers", [.objectPaths([top])])
        try setRoot(app, window, home)
        try ctl(app, home, "PresentViewController", [.objectPath(nav)])
        XCTAssertEqual(try o("DecidingController", window), top)
        XCTAssertEqual(try u("InterfaceOrientation"), 4)
    }

    /// A preferred orientation outside the window's mask is NoCommonOrientation (P9), and nothing changes.
    func testPreferredOrientationOutsideTheWindowMaskIsNoCommonOrientation() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let home = try createController(app)
        let sheet = try createController(app, preferred: 4)
        try setRoot(app, window, home)
        try set("DelegateMask", .uint32(10), window, on: app)
        let before = try getAll(home)
        assertError(Orientation1.errorName("NoCommonOrientation")) { try self.ctl(app, home, "PresentViewController", [.objectPath(sheet)]) }
        XCTAssertEqual(try getAll(home), before)
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
    }

    /// A device-driven rotation needs the deciding controller's ShouldAutorotate (P8); a hierarchy one does not (P9).
    func testShouldAutorotateFalseBlocksDeviceRotationOnly() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let home = try createController(app, autorotate: false)
        try setRoot(app, window, home)
        try claim(app)
        try setDevice(3)
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        try set("SupportedMask", .uint32(24), home, on: app)
        XCTAssertEqual(try u("InterfaceOrientation"), 3, "the hierarchy change rotates to interface(device)")
    }

    /// The hierarchy fallback prefers interface(device), then the decider's preferred orientation (P9).
    func testHierarchyFallbackPrefersTheDeviceOrientation() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let home = try createController(app, preferred: 3)
        try setRoot(app, window, home)
        try claim(app)
        try setDevice(5)  // face up: no interface orientation, the step is skipped
        try set("SupportedMask", .uint32(24), home, on: app)
        XCTAssertEqual(try u("InterfaceOrientation"), 3, "the decider's preferred orientation")
        try set("SupportedMask", .uint32(26), home, on: app)
        try setDevice(1)
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        try set("PreferredOrientation", .uint32(0), home, on: app)
        try setDevice(4)
        try set("SupportedMask", .uint32(2), home, on: app)
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        try set("SupportedMask", .uint32(24), home, on: app)
        XCTAssertEqual(try u("InterfaceOrientation"), 4, "interface(device) comes first")
    }

    /// RequestGeometryUpdate keeps the current orientation when allowed, else interface(device) (P13).
    func testGeometryRequest() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let home = try createController(app, autorotate: false)
        try setRoot(app, window, home)
        try claim(app)
        try setDevice(4)
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        try call(app, window, Orientation1.windowInterface, "RequestGeometryUpdate", [.uint32(26)])
        XCTAssertEqual(try u("InterfaceOrientation"), 1, "portrait is allowed: kept")
        try call(app, window, Orientation1.windowInterface, "RequestGeometryUpdate", [.uint32(24)])
        XCTAssertEqual(try u("InterfaceOrientation"), 4, "interface(device), ShouldAutorotate notwithstanding")
        try call(app, window, Orientation1.windowInterface, "RequestGeometryUpdate", [.uint32(8)])
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
    }

    /// Destroying the deciding controller re-decides (P9); a root that is destroyed leaves the window empty.
    func testDestroyDetachesAndReDecides() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let nav = try createController(app, "navigation")
        let home = try createController(app, mask: 2)
        let player = try createController(app, mask: 24)
        try ctl(app, nav, "SetViewControllers", [.objectPaths([home, player])])
        try setRoot(app, window, nav)
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
        try ctl(app, player, "Destroy")
        XCTAssertEqual(try get("ViewControllers", nav).arrayValues?.compactMap(\.objectPathValue), [home])
        XCTAssertEqual(try o("DecidingController", window), home)
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        try ctl(app, nav, "Destroy")
        XCTAssertEqual(try o("RootController", window), "/")
        XCTAssertEqual(try o("DecidingController", window), "/")
        XCTAssertEqual(try o("Parent", home), "/")
        XCTAssertEqual(try u("EffectiveMask", window), 26)
    }

    /// Making another client's window key is privileged: root may (the tests run as root).
    func testMakeKeyAndVisibleOfAnotherClientsWindowIsPrivileged() throws {
        let alice = try newClient()
        let bob = try newClient()
        let a = try registerWindow(alice)
        let b = try registerWindow(bob)
        XCTAssertEqual(try o("KeyWindow"), a)
        try call(alice, b, Orientation1.windowInterface, "MakeKeyAndVisible")
        XCTAssertEqual(try o("KeyWindow"), b)
    }

    /// Claims count per client; the sensor reads 0 only once every claim ended (P16).
    func testClaimsCountPerClient() throws {
        let alice = try newClient()
        let bob = try newClient()
        try setDevice(3)
        try claim(alice)
        try claim(alice)
        try claim(bob)
        XCTAssertEqual(try u("DeviceOrientation"), 3)
        try call(alice, Orientation1.managerPath, Orientation1.managerInterface, "EndGeneratingDeviceOrientationNotifications")
        try call(alice, Orientation1.managerPath, Orientation1.managerInterface, "EndGeneratingDeviceOrientationNotifications")
        assertError(Orientation1.errorName("NotGenerating")) { try self.call(alice, Orientation1.managerPath, Orientation1.managerInterface, "EndGeneratingDeviceOrientationNotifications") }
        XCTAssertEqual(try u("DeviceOrientation"), 3, "Bob still claims")
        bob.close()
        XCTAssertTrue(waitUntil(3) { (try? self.u("DeviceOrientation")) == 0 }, "Bob's claim ends when he leaves")
    }

    /// Locked and unclaimed: a claim shows the pose held, without rotating (P11 with P16).
    func testClaimWhileLockedShowsTheHeldPoseWithoutRotating() throws {
        let app = try newClient()
        try set("RotationLocked", .bool(true))
        try setDevice(3)
        XCTAssertEqual(try u("DeviceOrientation"), 0)
        let recorder = try newRecorder()
        try claim(app)
        XCTAssertEqual(try u("DeviceOrientation"), 3)
        XCTAssertEqual(try u("InterfaceOrientation"), 1, "locking never rotates")
        recorder.settle()
        XCTAssertEqual(recorder.managerEvents.filter { !$0.description.hasPrefix("PC") }.map(\.description),
                       ["DeviceOrientationDidChange(3)"])
    }

    /// IsKey is announced on both windows when the key window changes; KeyWindow on the manager.
    func testKeyChangesAreAnnouncedOnBothWindows() throws {
        let app = try newClient()
        let first = try registerWindow(app)
        let second = try registerWindow(app)
        let recorder = try newRecorder()
        try call(app, second, Orientation1.windowInterface, "MakeKeyAndVisible")
        XCTAssertTrue(recorder.wait { $0.path == first && $0.changed["IsKey"] == .bool(false) }, "\(recorder.events)")
        XCTAssertTrue(recorder.wait { $0.path == second && $0.changed["IsKey"] == .bool(true) }, "\(recorder.events)")
        XCTAssertTrue(recorder.wait { $0.path == Orientation1.managerPath && $0.changed["KeyWindow"] == .objectPath(second) }, "\(recorder.events)")
    }

    /// PropertiesChanged is sent for the manager's writable properties and the key window.
    func testManagerPropertiesAreAnnounced() throws {
        let recorder = try newRecorder()
        try set("RotationLocked", .bool(true))
        try set("ApplicationMask", .uint32(30))
        let app = try newClient()
        let window = try registerWindow(app)
        XCTAssertTrue(recorder.wait { $0.changed["KeyWindow"] == .objectPath(window) }, "\(recorder.events)")
        XCTAssertTrue(recorder.events.contains { $0.changed["RotationLocked"] == .bool(true) }, "\(recorder.events)")
        XCTAssertTrue(recorder.events.contains { $0.changed["ApplicationMask"] == .uint32(30) }, "\(recorder.events)")
        XCTAssertTrue(recorder.events.contains { $0.path == Orientation1.managerPath && $0.changed["SupportedMask"] == .uint32(30) },
                      "\(recorder.events)")
        XCTAssertFalse(recorder.events.contains { $0.changed["Idiom"] != nil || $0.changed["RotationDuration"] != nil },
                       "const properties are not announced")
    }
}

/// `[Limits] Depth=3`, idiom tablet, unknown keys only warned about.
final class ConfiguredDaemonTests: DaemonTestCase {
    override var configText: String? {
        "[Application]\nIdiom=tablet\n[Limits]\nDepth=3\n[Nonsense]\nKey=1\n[Rotation]\nSpeed=2\n"
    }

    func testTabletDefaultsAndWarnings() throws {
        XCTAssertEqual(try get("Idiom").stringValue, "tablet")
        XCTAssertEqual(try u("ApplicationMask"), 30)
        let app = try newClient()
        let c = try createController(app)
        XCTAssertEqual(try u("SupportedMask", c), 30, "controller default is the idiom's (P3)")
        let log = daemon?.log ?? ""
        XCTAssertTrue(log.contains("Nonsense") && log.contains("Speed"), "unknown group and key are warned about:\n\(log)")
    }

    func testDepthLimit() throws {
        let app = try newClient()
        let a = try createController(app, "navigation")
        let b = try createController(app, "navigation")
        let c = try createController(app, "navigation")
        let d = try createController(app)
        try ctl(app, a, "PushViewController", [.objectPath(b)])
        try ctl(app, b, "PushViewController", [.objectPath(c)])
        assertError(std("LimitsExceeded")) { try self.ctl(app, c, "PushViewController", [.objectPath(d)]) }
        XCTAssertEqual(try get("ViewControllers", c).arrayValues?.count, 0)
    }
}
