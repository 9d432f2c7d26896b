// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// The seed articles' examples (the examples of Docs/policy.md), end to end over the bus.
/// Values: interface portrait 1, upside-down 2, landscape-right 3, landscape-left 4; masks 2, 4, 8, 16.
final class SeedScenarioTests: DaemonTestCase {
    override class var inProcess: Bool { true }
    func testStartsInPortraitWithThePhoneDefaults() throws {
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        XCTAssertEqual(try u("DeviceOrientation"), 0, "nobody claims, so the device reads unknown (P16)")
        XCTAssertEqual(try u("ApplicationMask"), 26)
        XCTAssertEqual(try u("SupportedMask"), 26, "no key window: the application mask is in force (P7)")
        XCTAssertEqual(try o("KeyWindow"), "/")
        XCTAssertEqual(try get("Idiom").stringValue, "phone")
        XCTAssertEqual(try b("HasAccelerometer"), true)
        XCTAssertEqual(try get("RotationDuration").doubleValue, 0)
    }

    /// A portrait-only base controller: the device turns to landscape, the interface stays portrait.
    func testPortraitOnlyBaseControllerKeepsPortraitWhenTheDeviceTurns() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let base = try createController(app, mask: 2)
        try setRoot(app, window, base)
        XCTAssertEqual(try o("KeyWindow"), window, "the first window becomes key (P6)")
        XCTAssertEqual(try u("EffectiveMask", window), 2)
        XCTAssertEqual(try o("DecidingController", window), base)
        XCTAssertEqual(try u("SupportedMask"), 2)

        try claim(app)
        try setDevice(3)
        XCTAssertEqual(try u("DeviceOrientation"), 3)
        XCTAssertEqual(try u("InterfaceOrientation"), 1, "landscape is not in the base controller's mask (P8)")

        // Allowing landscape does not rotate by itself (P9: portrait still allowed) …
        try set("SupportedMask", .uint32(26), base, on: app)
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        // … attemptRotationToDeviceOrientation does (P10).
        try call(app, Orientation1.managerPath, Orientation1.managerInterface, "AttemptRotationToDeviceOrientation")
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
    }

    /// A navigation controller that forwards to its top: the top's rules decide.
    func testNavigationControllerForwardsToItsTop() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let nav = try createController(app, "navigation")
        let first = try createController(app)
        let portraitOnly = try createController(app, mask: 2)
        try ctl(app, nav, "SetViewControllers", [.objectPaths([first])])
        try setRoot(app, window, nav)
        XCTAssertEqual(try get("ForwardsToChild", nav).boolValue, true, "forwarding is the default")
        XCTAssertEqual(try o("DecidingController", window), first)

        try ctl(app, nav, "PushViewController", [.objectPath(portraitOnly)])
        XCTAssertEqual(try get("ViewControllers", nav).arrayValues?.compactMap(\.objectPathValue), [first, portraitOnly])
        XCTAssertEqual(try o("Parent", portraitOnly), nav)
        XCTAssertEqual(try o("DecidingController", window), portraitOnly)
        XCTAssertEqual(try u("EffectiveMask", window), 2)

        try claim(app)
        try setDevice(3)
        XCTAssertEqual(try u("InterfaceOrientation"), 1, "the top is portrait-only")

        let popped = try ctl(app, nav, "PopViewController")
        XCTAssertEqual(popped.first?.objectPathValue, portraitOnly)
        XCTAssertEqual(try o("DecidingController", window), first)
        XCTAssertEqual(try u("InterfaceOrientation"), 1, "pop is static while portrait is allowed (P9)")
        try call(app, Orientation1.managerPath, Orientation1.managerInterface, "AttemptRotationToDeviceOrientation")
        XCTAssertEqual(try u("InterfaceOrientation"), 3)

        // Not forwarding: the container's own rules decide (UIKit's stock container).
        try ctl(app, nav, "PushViewController", [.objectPath(portraitOnly)])
        XCTAssertEqual(try u("InterfaceOrientation"), 1, "a portrait-only top rotates a landscape screen back (P9)")
        try set("ForwardsToChild", .bool(false), nav, on: app)
        XCTAssertEqual(try o("DecidingController", window), nav)
        XCTAssertEqual(try u("EffectiveMask", window), 26)
    }

    /// A tab controller that forwards to its selection.
    func testTabControllerForwardsToItsSelection() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let tabs = try createController(app, "tab")
        let portrait = try createController(app, mask: 2)
        let landscape = try createController(app, mask: 24)
        try ctl(app, tabs, "SetViewControllers", [.objectPaths([portrait, landscape])])
        XCTAssertEqual(try u("SelectedIndex", tabs), 0)
        try setRoot(app, window, tabs)
        XCTAssertEqual(try o("DecidingController", window), portrait)
        XCTAssertEqual(try u("EffectiveMask", window), 2)

        try set("SelectedIndex", .uint32(1), tabs, on: app)
        XCTAssertEqual(try o("DecidingController", window), landscape)
        XCTAssertEqual(try u("InterfaceOrientation"), 3, "portrait is no longer allowed: first landscape of P9's order")

        try set("SelectedIndex", .uint32(0), tabs, on: app)
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
    }

    /// A landscape-only controller pushed: static while the current orientation is allowed, else it rotates.
    func testLandscapeOnlyControllerPushedRotatesOnlyWhenTheCurrentOrientationIsNotAllowed() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let nav = try createController(app, "navigation")
        let home = try createController(app)
        let player = try createController(app, mask: 24)
        let player2 = try createController(app, mask: 24)
        try ctl(app, nav, "SetViewControllers", [.objectPaths([home])])
        try setRoot(app, window, nav)
        try claim(app)

        // Already in landscape-left: pushing a landscape-only controller changes nothing.
        try setDevice(4)
        XCTAssertEqual(try u("InterfaceOrientation"), 4)
        let recorder = try newRecorder()
        try ctl(app, nav, "PushViewController", [.objectPath(player)])
        recorder.settle()
        XCTAssertEqual(try u("InterfaceOrientation"), 4)
        XCTAssertEqual(recorder.count("WillChange"), 0, "\(recorder.events)")
        _ = try ctl(app, nav, "PopViewController")

        // In portrait with the device upright: the push rotates to the first landscape of P9's order.
        try setDevice(1)
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        try ctl(app, nav, "PushViewController", [.objectPath(player)])
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
        _ = try ctl(app, nav, "PopViewController")
        XCTAssertEqual(try u("InterfaceOrientation"), 3, "pop is static too")

        // With a preferred orientation the pushed controller's preference comes before the fallback order.
        try call(app, Orientation1.managerPath, Orientation1.managerInterface, "AttemptRotationToDeviceOrientation")
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        try set("PreferredOrientation", .uint32(4), player2, on: app)
        try ctl(app, nav, "PushViewController", [.objectPath(player2)])
        XCTAssertEqual(try u("InterfaceOrientation"), 4)
    }

    /// A controller presented modally with a preferred orientation rotates to it, even when locked.
    func testPresentedControllerWithPreferredOrientationRotatesEvenWhenLocked() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let home = try createController(app)
        let player = try createController(app, mask: 24, preferred: 4)
        try setRoot(app, window, home)
        try set("RotationLocked", .bool(true))
        try set("ShouldAutorotate", .bool(false), home, on: app)

        try ctl(app, home, "PresentViewController", [.objectPath(player)])
        XCTAssertEqual(try u("InterfaceOrientation"), 4, "presentation is hierarchy-driven (P9)")
        XCTAssertEqual(try o("PresentedController", home), player)
        XCTAssertEqual(try o("PresentingController", player), home)
        XCTAssertEqual(try o("DecidingController", window), player)
        XCTAssertEqual(try u("EffectiveMask", window), 24)

        try ctl(app, home, "DismissViewController")
        XCTAssertEqual(try o("PresentedController", home), "/")
        XCTAssertEqual(try o("DecidingController", window), home)
        XCTAssertEqual(try u("InterfaceOrientation"), 4, "dismiss is static while the orientation is allowed")

        // A preferred orientation rotates even when the current one is allowed.
        let sheet = try createController(app, preferred: 3)
        try ctl(app, home, "PresentViewController", [.objectPath(sheet)])
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
        // Presented controller that presents nothing dismisses itself.
        try ctl(app, sheet, "DismissViewController")
        XCTAssertEqual(try o("PresentedController", home), "/")
    }

    /// A preferred orientation outside the presented controller's mask is refused, and nothing changes.
    func testPreferredOrientationOutsideTheMaskIsRefused() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let home = try createController(app)
        let bad = try createController(app, mask: 2, preferred: 3)
        try setRoot(app, window, home)
        let before = try getAll(home)
        let message = assertError(Orientation1.errorName("PreferredNotSupported")) {
            try ctl(app, home, "PresentViewController", [.objectPath(bad)])
        }
        XCTAssertTrue(message.contains("controller"), message)
        XCTAssertEqual(try getAll(home), before)
        XCTAssertEqual(try o("PresentingController", bad), "/")
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
    }

    /// A window delegate that allows portrait only.
    func testWindowDelegateMaskAllowsPortraitOnly() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let home = try createController(app)
        try setRoot(app, window, home)
        try set("DelegateMask", .uint32(2), window, on: app)
        XCTAssertEqual(try u("SupportedMask", window), 2)
        XCTAssertEqual(try u("EffectiveMask", window), 2)
        XCTAssertEqual(try u("SupportedMask"), 2)

        try claim(app)
        try setDevice(3)
        XCTAssertEqual(try u("InterfaceOrientation"), 1)

        // A landscape-only controller cannot go into a portrait-only window (P5).
        let landscape = try createController(app, mask: 24)
        assertError(Orientation1.errorName("NoCommonOrientation")) { try ctl(app, home, "PresentViewController", [.objectPath(landscape)]) }

        try set("DelegateMask", .uint32(0), window, on: app)
        XCTAssertEqual(try u("SupportedMask", window), 26, "0: not implemented, the application mask applies (P2)")
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        try call(app, Orientation1.managerPath, Orientation1.managerInterface, "AttemptRotationToDeviceOrientation")
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
    }

    /// The rotation lock: reports are held while locked; unlocking catches up (P11).
    func testRotationLockHoldsTheDeviceAndUnlockCatchesUp() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        try setRoot(app, window, try createController(app))
        try claim(app)
        try setDevice(1)
        XCTAssertEqual(try u("DeviceOrientation"), 1)

        let recorder = try newRecorder()
        try set("RotationLocked", .bool(true))
        XCTAssertEqual(try b("RotationLocked"), true)
        try setDevice(3)
        recorder.settle()
        XCTAssertEqual(try u("DeviceOrientation"), 1, "while locked, reports do not change DeviceOrientation")
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        XCTAssertEqual(recorder.count("DeviceOrientationDidChange"), 0, "\(recorder.events)")
        XCTAssertEqual(recorder.count("WillChange"), 0)
        try call(app, Orientation1.managerPath, Orientation1.managerInterface, "AttemptRotationToDeviceOrientation")
        XCTAssertEqual(try u("InterfaceOrientation"), 1, "attempt does nothing while locked")

        try set("RotationLocked", .bool(false))
        XCTAssertEqual(try u("DeviceOrientation"), 3, "unlocking takes the latest report at once")
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
        recorder.wait { $0.member == "DidChange" }
        let order = recorder.managerEvents.map(\.description).filter { !$0.hasPrefix("PC") }
        // The turn while locked was offered (P19) before the unlock made it.
        XCTAssertEqual(order, ["RotationSuggested(3)", "DeviceOrientationDidChange(3)", "WillChange(1,3)", "DidChange(1,3)"])
        XCTAssertEqual(try u("SuggestedOrientation"), 0, "unlocking ended the suggestion")
    }

    /// A forced device orientation is a device report (P12): it needs ShouldAutorotate and a claim.
    func testForcedDeviceOrientationIsADeviceReport() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let home = try createController(app, autorotate: false)
        try setRoot(app, window, home)

        // No claim: the pose is held and reported once someone claims (P16).
        try setDevice(3)
        XCTAssertEqual(try u("DeviceOrientation"), 0)
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        try claim(app)
        XCTAssertEqual(try u("DeviceOrientation"), 3)
        XCTAssertEqual(try u("InterfaceOrientation"), 1, "ShouldAutorotate is false")

        // The seeds' forced rotation "must return YES" from shouldAutorotate; the same pose again applies P10.
        try set("ShouldAutorotate", .bool(true), home, on: app)
        let recorder = try newRecorder()
        try setDevice(3)
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
        recorder.wait { $0.member == "DidChange" }
        XCTAssertEqual(recorder.count("DeviceOrientationDidChange"), 0, "the device already read 3: \(recorder.events)")

        // Face up never rotates.
        try setDevice(5)
        XCTAssertEqual(try u("DeviceOrientation"), 5)
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
        assertError(std("InvalidArgs")) { try self.setDevice(7) }
        assertError(std("InvalidArgs")) { try self.setDevice(0) }

        // The last claim ends: the device reads unknown again.
        try call(app, Orientation1.managerPath, Orientation1.managerInterface, "EndGeneratingDeviceOrientationNotifications")
        XCTAssertEqual(try u("DeviceOrientation"), 0)
    }
}
