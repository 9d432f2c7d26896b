// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
@testable import Policy
import XCTest

/// The seed articles' examples (the examples of Docs/policy.md), at the policy level.
final class SeedExampleTests: XCTestCase {
    /// A base controller whose `supportedInterfaceOrientations` is portrait only: the device turning changes nothing on screen.
    func testSeed_portraitOnlyBaseController() throws {
        let f = Fixture()
        f.claim()
        let base = try f.vc(mPortrait)
        let w = try f.window(root: base)
        _ = f.drain()
        for d: DeviceOrientation in [.landscapeLeft, .landscapeRight, .portraitUpsideDown, .faceUp] {
            f.device(d)
            f.settle()
            XCTAssertEqual(f.policy.interfaceOrientation, P, d.name)
            XCTAssertEqual(f.policy.deviceOrientation, d, "the device itself is still reported")
        }
        XCTAssertEqual(orientationEvents(f.drain()), [dev(.landscapeLeft), dev(.landscapeRight), dev(.portraitUpsideDown), dev(.faceUp)])
        XCTAssertEqual(f.policy.effectiveMask(of: w).rawValue, mPortrait)
        XCTAssertEqual(f.policy.decidingController(of: w), base)
    }

    /// A navigation controller subclass forwarding to `topViewController`; the stock one (not forwarding) uses its own rules.
    func testSeed_navigationControllerForwardsToTop() throws {
        let f = Fixture()
        f.claim()
        let portraitOnly = try f.vc(mPortrait)
        let nav = try f.nav([portraitOnly])
        let w = try f.window(root: nav)
        f.device(.landscapeLeft)
        f.settle()
        XCTAssertEqual(f.policy.interfaceOrientation, P, "the top is portrait only")
        XCTAssertEqual(f.policy.decidingController(of: w), portraitOnly)

        let free = try f.vc(mAllButUpsideDown)
        try f.policy.push(free, onto: nav, caller: A)
        f.settle()
        XCTAssertEqual(f.policy.interfaceOrientation, P, "push is static")
        f.policy.attemptRotation()
        f.settle()
        XCTAssertEqual(f.policy.interfaceOrientation, LR, "the new top lets the device rotate")
        _ = f.drain()
        XCTAssertEqual(try f.policy.pop(nav, caller: A), free)
        f.settle()
        XCTAssertEqual(f.policy.interfaceOrientation, P, "back to the portrait-only top")
        XCTAssertEqual(orientationEvents(f.drain()), rotation(LR, P))

        try f.policy.setForwardsToChild(nav, false, caller: A)
        XCTAssertEqual(f.policy.decidingController(of: w), nav, "stock navigation: its own rules")
        f.policy.attemptRotation()
        f.settle()
        XCTAssertEqual(f.policy.interfaceOrientation, LR)
    }

    /// A tab bar controller forwarding to `selectedViewController`.
    func testSeed_tabControllerForwardsToSelection() throws {
        let f = Fixture()
        f.claim()
        let portraitOnly = try f.vc(mPortrait), free = try f.vc(), landscapeOnly = try f.vc(mLandscape)
        let tab = try f.tab([portraitOnly, free, landscapeOnly])
        let w = try f.window(root: tab)
        f.device(.landscapeRight)
        f.settle()
        XCTAssertEqual(f.policy.interfaceOrientation, P)
        try f.policy.setSelectedIndex(tab, 1, caller: A)
        f.settle()
        XCTAssertEqual(f.policy.decidingController(of: w), free)
        XCTAssertEqual(f.policy.interfaceOrientation, P, "selecting is static while allowed")
        f.policy.attemptRotation()
        f.settle()
        XCTAssertEqual(f.policy.interfaceOrientation, LL)
        try f.policy.setSelectedIndex(tab, 0, caller: A)
        f.settle()
        XCTAssertEqual(f.policy.interfaceOrientation, P)
        try f.policy.setSelectedIndex(tab, 2, caller: A)
        f.settle()
        XCTAssertEqual(f.policy.interfaceOrientation, LL, "landscape only: the device's landscape")
        XCTAssertEqual(f.policy.effectiveMask(of: w).rawValue, mLandscape)
    }

    /// A landscape-only controller pushed from a portrait one rotates (its mask excludes portrait); popping comes back.
    func testSeed_landscapeOnlyControllerPushed() throws {
        let f = Fixture()
        let nav = try f.nav([try f.vc(mPortrait)])
        try f.window(root: nav)
        _ = f.drain()
        let landscape = try f.vc(mLandscape)
        try f.policy.push(landscape, onto: nav, caller: A)
        XCTAssertEqual(orientationEvents(f.drain()), [will(P, LR)])
        f.policy.completeTransition()
        XCTAssertEqual(orientationEvents(f.drain()), [did(P, LR)])
        _ = try f.policy.pop(nav, caller: A)
        f.settle()
        XCTAssertEqual(orientationEvents(f.drain()), rotation(LR, P))
        // An all-but-upside-down controller pushed instead does not rotate: push is static.
        try f.policy.push(try f.vc(mAllButUpsideDown), onto: nav, caller: A)
        f.settle()
        XCTAssertEqual(orientationEvents(f.drain()), [])
    }

    /// A player presented modally with `preferredInterfaceOrientationForPresentation`: shown in it, lock or not.
    func testSeed_modalWithPreferredOrientation() throws {
        let f = Fixture()
        f.claim()
        f.device(.portrait)
        f.policy.setRotationLocked(true)
        let base = try f.vc(mPortrait)
        let w = try f.window(root: base)
        let player = try f.vc(mLandscape, preferred: LL.rawValue)
        _ = f.drain()
        try f.policy.present(player, from: base, caller: A)
        f.settle()
        XCTAssertEqual(f.policy.interfaceOrientation, LL)
        XCTAssertEqual(f.policy.decidingController(of: w), player)
        XCTAssertEqual(orientationEvents(f.drain()), rotation(P, LL))
        try f.policy.dismiss(player, caller: A)
        f.settle()
        XCTAssertEqual(f.policy.interfaceOrientation, P)
        XCTAssertEqual(orientationEvents(f.drain()), rotation(LL, P))
    }

    /// "preferredInterfaceOrientationForPresentation must match a supported interface orientation".
    func testSeed_preferredOrientationOutsideTheMask() throws {
        let f = Fixture()
        let base = try f.vc()
        try f.window(root: base)
        let bad = try f.vc(mLandscape, preferred: P.rawValue)
        assertRefused(.preferredNotSupported, f, "preferred portrait, mask landscape") {
            try f.policy.present(bad, from: base, caller: A)
        }
        XCTAssertNil(f.policy.controller(base)?.presented)
        XCTAssertNil(f.policy.controller(bad)?.presenting)
    }

    /// `application:supportedInterfaceOrientationsForWindow:` returning portrait only.
    func testSeed_windowDelegateAllowsPortraitOnly() throws {
        let f = Fixture()
        f.claim()
        let root = try f.vc()
        let w = try f.window(delegate: mPortrait, root: root)
        f.device(.landscapeLeft)
        f.settle()
        XCTAssertEqual(f.policy.interfaceOrientation, P)
        XCTAssertEqual(f.policy.supportedMask(of: w).rawValue, mPortrait)
        XCTAssertEqual(f.policy.effectiveMask(of: w).rawValue, mPortrait)
        let landscapeOnly = try f.vc(mLandscape)
        assertRefused(.noCommonOrientation, f, "landscape-only presented") {
            try f.policy.present(landscapeOnly, from: root, caller: A)
        }
        assertRefused(.unsupportedOrientations, f, "geometry landscape") {
            try f.policy.requestGeometryUpdate(w, mLandscape, caller: A)
        }
        try f.policy.setApplicationMask(mLandscape) // the delegate wins; the window is unaffected
        f.settle()
        XCTAssertEqual(f.policy.interfaceOrientation, P)
        try f.policy.setDelegateMask(w, 0, caller: A)
        f.settle()
        XCTAssertEqual(f.policy.effectiveMask(of: w).rawValue, mLandscape)
        XCTAssertEqual(f.policy.interfaceOrientation, LR, "back to the application mask: the device's landscape")
    }

    /// The user's rotation lock.
    func testSeed_rotationLock() throws {
        let f = Fixture()
        f.claim()
        try f.window(root: try f.vc())
        f.device(.portrait)
        f.policy.setRotationLocked(true)
        _ = f.drain()
        f.device(.landscapeLeft)
        f.settle()
        XCTAssertEqual(orientationEvents(f.drain()), [], "the notification becomes invalid while locked")
        XCTAssertEqual(f.policy.deviceOrientation, .portrait)
        XCTAssertEqual(f.policy.interfaceOrientation, P)
        f.policy.setRotationLocked(false)
        f.settle()
        XCTAssertEqual(orientationEvents(f.drain()), [dev(.landscapeLeft)] + rotation(P, LR))
    }

    /// The "force landscape" trick: `[UIDevice setOrientation:]` with `shouldAutorotate` returning YES.
    func testSeed_forcedDeviceOrientation() throws {
        let f = Fixture()
        f.claim()
        let player = try f.vc(mAllButUpsideDown)
        try f.window(root: player)
        f.device(.portrait)
        _ = f.drain()
        try f.policy.setDeviceOrientation(DeviceOrientation.landscapeLeft.rawValue)
        f.settle()
        XCTAssertEqual(orientationEvents(f.drain()), [dev(.landscapeLeft)] + rotation(P, LR))
        XCTAssertEqual(f.policy.deviceOrientation, .landscapeLeft)
        // It "must return YES": with shouldAutorotate false the forced pose does not rotate.
        try f.policy.setShouldAutorotate(player, false, caller: A)
        try f.policy.setDeviceOrientation(DeviceOrientation.portrait.rawValue)
        f.settle()
        XCTAssertEqual(orientationEvents(f.drain()), [dev(.portrait)])
        XCTAssertEqual(f.policy.interfaceOrientation, LR)
    }
}
