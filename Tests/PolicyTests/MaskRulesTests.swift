// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
@testable import Policy
import XCTest

/// P1: the application mask comes from the config, else the idiom's default.
final class P1_ApplicationMaskTests: XCTestCase {
    func testP1_applicationMaskFromConfigOrIdiom() {
        let rows: [(String, PolicyConfiguration, OrientationMask?, UInt32, InterfaceOrientation)] = [
            ("phone default", PolicyConfiguration(), nil, 26, P),
            ("tablet default", PolicyConfiguration(idiom: .tablet), nil, 30, P),
            ("config landscape", PolicyConfiguration(applicationMask: .landscape), nil, 24, LR),
            ("config upside down on tablet", PolicyConfiguration(idiom: .tablet, applicationMask: .portraitUpsideDown), nil, 4, PUD),
            ("invalid config mask falls back to idiom", PolicyConfiguration(applicationMask: OrientationMask(rawValue: 32)), nil, 26, P),
            ("empty config mask falls back to idiom", PolicyConfiguration(idiom: .tablet, applicationMask: []), nil, 30, P),
            ("saved mask overrides config", PolicyConfiguration(applicationMask: .landscape), .landscapeLeft, 16, LL),
            ("invalid saved mask ignored", PolicyConfiguration(applicationMask: .landscape), OrientationMask(rawValue: 1), 24, LR),
        ]
        for (name, config, saved, mask, orientation) in rows {
            let p = Policy(configuration: config, savedApplicationMask: saved)
            XCTAssertEqual(p.applicationMask.rawValue, mask, name)
            XCTAssertEqual(p.supportedMask.rawValue, mask, "\(name): no key window, the application mask is in force")
            XCTAssertEqual(p.interfaceOrientation, orientation, name)
        }
    }

    func testP1_setApplicationMask() {
        run("P1", [
            Scenario(name: "landscape without windows rotates (P7, P9)", action: { try $0.policy.setApplicationMask(mLandscape) },
                     orientation: LR, events: rotation(P, LR),
                     check: { XCTAssertEqual($0.policy.applicationMask.rawValue, mLandscape) }),
            Scenario(name: "a mask still holding the orientation does not rotate", action: { try $0.policy.setApplicationMask(mAll) },
                     orientation: P, events: []),
            Scenario(name: "same mask: no rotation, but it now overrides the config",
                     action: { try $0.policy.setApplicationMask(mAllButUpsideDown) },
                     orientation: P, events: [], check: { f in
                         XCTAssertTrue(f.policy.takeChanges().isEmpty)
                         XCTAssertEqual(f.policy.applicationMaskOverride?.rawValue, mAllButUpsideDown)
                     }),
            Scenario(name: "zero", action: { try $0.policy.setApplicationMask(0) }, error: .invalidArgs),
            Scenario(name: "bit 0", action: { try $0.policy.setApplicationMask(1) }, error: .invalidArgs),
            Scenario(name: "bit 5", action: { try $0.policy.setApplicationMask(32) }, error: .invalidArgs),
            Scenario(name: "all bits", action: { try $0.policy.setApplicationMask(.max) }, error: .invalidArgs),
            Scenario(name: "windows without delegate follow it",
                     setup: { f in f.windowsNamed["w"] = try f.window() },
                     action: { try $0.policy.setApplicationMask(mLandscapeLeft) }, orientation: LL,
                     check: { f in
                         XCTAssertEqual(f.policy.supportedMask(of: f.w("w")).rawValue, mLandscapeLeft)
                         XCTAssertEqual(f.policy.effectiveMask(of: f.w("w")).rawValue, mLandscapeLeft)
                     }),
            Scenario(name: "window with a delegate mask does not follow it",
                     setup: { f in f.windowsNamed["w"] = try f.window(delegate: mPortrait, root: try f.vc(mPortrait)) },
                     action: { try $0.policy.setApplicationMask(mLandscape) }, orientation: P, events: [],
                     check: { f in XCTAssertEqual(f.policy.supportedMask(of: f.w("w")).rawValue, mPortrait) }),
            Scenario(name: "refused when a root would share nothing (P5)",
                     setup: { f in try f.window(root: try f.vc(mPortrait)) },
                     action: { try $0.policy.setApplicationMask(mLandscape) }, error: .noCommonOrientation),
            Scenario(name: "refused when a buried stack member would share nothing (P5)",
                     setup: { f in try f.window(root: try f.nav([try f.vc(mPortrait), try f.vc(mAllButUpsideDown)])) },
                     action: { try $0.policy.setApplicationMask(mLandscape) }, error: .noCommonOrientation),
        ])
    }

    func testP1_resetApplicationMask() {
        let portraitOnly = PolicyConfiguration(applicationMask: .portrait)
        run("P1 reset", [
            Scenario(name: "the config's mask is in force again, and P9 follows", configuration: portraitOnly,
                     setup: { try $0.policy.setApplicationMask(mLandscape) },
                     action: { try $0.policy.resetApplicationMask() }, orientation: P, events: rotation(LR, P),
                     check: { f in
                         XCTAssertEqual(f.policy.applicationMask.rawValue, mPortrait)
                         XCTAssertNil(f.policy.applicationMaskOverride)
                     }),
            Scenario(name: "without a config mask, the idiom's default",
                     setup: { try $0.policy.setApplicationMask(mLandscapeLeft) },
                     action: { try $0.policy.resetApplicationMask() }, orientation: LL, events: [],
                     check: { XCTAssertEqual($0.policy.applicationMask.rawValue, mAllButUpsideDown) }),
            Scenario(name: "nothing set over the bus: nothing changes", configuration: portraitOnly,
                     action: { try $0.policy.resetApplicationMask() }, orientation: P, events: [],
                     check: { XCTAssertTrue($0.policy.takeChanges().isEmpty) }),
            Scenario(name: "refused when a window's hierarchy would share nothing with the config's (P5)",
                     configuration: portraitOnly, setup: { f in
                         try f.policy.setApplicationMask(mLandscape)
                         try f.window(root: try f.vc(mLandscape))
                     }, action: { try $0.policy.resetApplicationMask() }, error: .noCommonOrientation),
        ])
        let restored = Policy(configuration: portraitOnly, savedApplicationMask: .landscapeLeft)
        XCTAssertEqual(restored.applicationMaskOverride, .landscapeLeft, "a saved mask is one set over the bus")
        XCTAssertNoThrow(try restored.resetApplicationMask())
        XCTAssertEqual(restored.applicationMask, .portrait)
        XCTAssertNil(Policy(configuration: portraitOnly).applicationMaskOverride, "the config's is no override")
    }
}

/// P2: a window's mask is its delegate's when non-zero, else the application's.
final class P2_WindowMaskTests: XCTestCase {
    func testP2_windowMask() {
        run("P2", [
            Scenario(name: "no delegate: application mask",
                     setup: { f in f.windowsNamed["w"] = try f.window() }, action: { _ in },
                     check: { f in
                         XCTAssertEqual(f.policy.window(f.w("w"))?.delegateMask.rawValue, 0)
                         XCTAssertEqual(f.policy.supportedMask(of: f.w("w")).rawValue, mAllButUpsideDown)
                     }),
            Scenario(name: "delegate mask wins over the application mask",
                     setup: { f in f.windowsNamed["w"] = try f.window() },
                     action: { f in try f.policy.setDelegateMask(f.w("w"), mPortrait | mUpsideDown, caller: A) },
                     orientation: P, events: [],
                     check: { f in XCTAssertEqual(f.policy.supportedMask(of: f.w("w")).rawValue, mPortrait | mUpsideDown) }),
            Scenario(name: "delegate landscape on the key window rotates (P9)",
                     setup: { f in f.windowsNamed["w"] = try f.window() },
                     action: { f in try f.policy.setDelegateMask(f.w("w"), mLandscape, caller: A) },
                     orientation: LR, events: rotation(P, LR)),
            Scenario(name: "zero restores the application mask",
                     setup: { f in f.windowsNamed["w"] = try f.window(delegate: mLandscapeLeft) },
                     action: { f in try f.policy.setDelegateMask(f.w("w"), 0, caller: A) },
                     orientation: LL, events: [],
                     check: { f in XCTAssertEqual(f.policy.supportedMask(of: f.w("w")).rawValue, mAllButUpsideDown) }),
            Scenario(name: "zero refused when the application mask shares nothing with the root (P5)",
                     configuration: PolicyConfiguration(applicationMask: .landscape),
                     setup: { f in f.windowsNamed["w"] = try f.window(delegate: mPortrait, root: try f.vc(mPortrait)) },
                     action: { f in try f.policy.setDelegateMask(f.w("w"), 0, caller: A) }, error: .noCommonOrientation),
            Scenario(name: "invalid bits", setup: { f in f.windowsNamed["w"] = try f.window() },
                     action: { f in try f.policy.setDelegateMask(f.w("w"), 33, caller: A) }, error: .invalidArgs),
            Scenario(name: "another client's window", setup: { f in f.windowsNamed["w"] = try f.window(B) },
                     action: { f in try f.policy.setDelegateMask(f.w("w"), mPortrait, caller: A) }, error: .accessDenied),
            Scenario(name: "unknown window",
                     action: { f in try f.policy.setDelegateMask(WindowID(rawValue: 9), mPortrait, caller: A) },
                     error: .unknownObject),
            Scenario(name: "disjoint with the root (P5)",
                     setup: { f in f.windowsNamed["w"] = try f.window(root: try f.vc(mPortrait)) },
                     action: { f in try f.policy.setDelegateMask(f.w("w"), mLandscape, caller: A) }, error: .noCommonOrientation),
        ])
    }
}

/// P3: controller defaults.
final class P3_ControllerDefaultsTests: XCTestCase {
    func testP3_controllerDefaults() throws {
        for (idiom, mask) in [(Idiom.phone, mAllButUpsideDown), (.tablet, mAll)] {
            let f = Fixture(PolicyConfiguration(idiom: idiom))
            for kind in ControllerKind.allCases {
                let id = try f.policy.createController(kind: kind.rawValue, client: A, user: userOf(A))
                let c = try XCTUnwrap(f.policy.controller(id))
                XCTAssertEqual(c.kind, kind)
                XCTAssertEqual(c.owner, A)
                XCTAssertEqual(c.supportedMask.rawValue, mask, "\(idiom) \(kind)")
                XCTAssertTrue(c.shouldAutorotate)
                XCTAssertEqual(c.preferredOrientation, .unknown)
                XCTAssertTrue(c.forwardsToChild)
                XCTAssertEqual(c.children, [])
                XCTAssertEqual(c.selectedIndex, 0)
                XCTAssertNil(c.presented ?? c.presenting ?? c.parent)
                XCTAssertNil(c.rootOf)
                XCTAssertEqual(f.drain(), [.controllerAdded(id)])
            }
        }
    }

    func testP3_zeroRestoresDefaultAndBadKind() {
        run("P3", [
            Scenario(name: "writing 0 restores the idiom default", configuration: PolicyConfiguration(idiom: .tablet),
                     setup: { f in f.named["c"] = try f.vc(mLandscape) },
                     action: { f in try f.policy.setSupportedMask(f["c"], 0, caller: A) },
                     check: { f in XCTAssertEqual(f.policy.controller(f["c"])?.supportedMask.rawValue, mAll) }),
            Scenario(name: "unknown kind", action: { f in _ = try f.policy.createController(kind: "split", client: A, user: userOf(A)) },
                     error: .invalidArgs),
            Scenario(name: "kind is case-sensitive", action: { f in _ = try f.policy.createController(kind: "View", client: A, user: userOf(A)) },
                     error: .invalidArgs),
            Scenario(name: "preferred must be an interface value", setup: { f in f.named["c"] = try f.vc() },
                     action: { f in try f.policy.setPreferredOrientation(f["c"], 5, caller: A) }, error: .invalidArgs),
            Scenario(name: "preferred outside the mask is accepted until presented",
                     setup: { f in f.named["c"] = try f.vc(mPortrait) },
                     action: { f in try f.policy.setPreferredOrientation(f["c"], LR.rawValue, caller: A) },
                     check: { f in XCTAssertEqual(f.policy.controller(f["c"])?.preferredOrientation, LR) }),
            Scenario(name: "forwarding is for containers only", setup: { f in f.named["c"] = try f.vc() },
                     action: { f in try f.policy.setForwardsToChild(f["c"], false, caller: A) }, error: .invalidArgs),
            Scenario(name: "should autorotate on another's controller", setup: { f in f.named["c"] = try f.vc(client: B) },
                     action: { f in try f.policy.setShouldAutorotate(f["c"], false, caller: A) }, error: .accessDenied),
        ])
    }
}

/// P4: the deciding controller.
final class P4_DecidingControllerTests: XCTestCase {
    func testP4_decidingController() {
        // Each setup names the window "w" and the expected decider "d" (absent: none).
        func row(_ name: String, _ build: @escaping (Fixture) throws -> Void, effective: UInt32) -> Scenario {
            Scenario(name: name, setup: build, action: { _ in }, check: { f in
                XCTAssertEqual(f.policy.decidingController(of: f.w("w")), f.named["d"], name)
                XCTAssertEqual(f.policy.effectiveMask(of: f.w("w")).rawValue, effective, name)
            })
        }
        run("P4", [
            row("no root: none, the window mask", { f in f.windowsNamed["w"] = try f.window() }, effective: 26),
            row("a view root", { f in
                f.named["d"] = try f.vc(mPortrait)
                f.windowsNamed["w"] = try f.window(root: f["d"])
            }, effective: 2),
            row("root presents", { f in
                let root = try f.vc(mPortrait)
                f.named["d"] = try f.vc(mAllButUpsideDown)
                f.windowsNamed["w"] = try f.window(root: root)
                try f.policy.present(f["d"], from: root, caller: A)
            }, effective: 26),
            row("a presentation chain ends at the last presented", { f in
                let root = try f.vc(), mid = try f.vc()
                f.named["d"] = try f.vc(mLandscapeLeft)
                f.windowsNamed["w"] = try f.window(root: root)
                try f.policy.present(mid, from: root, caller: A)
                try f.policy.present(f["d"], from: mid, caller: A)
            }, effective: 16),
            row("forwarding navigation: the top", { f in
                f.named["d"] = try f.vc(mLandscape)
                f.windowsNamed["w"] = try f.window(root: try f.nav([try f.vc(mPortrait), f["d"]]))
            }, effective: 24),
            row("non-forwarding navigation: itself", { f in
                f.named["d"] = try f.nav([try f.vc(mPortrait), try f.vc(mLandscape)], forwards: false, mask: mAllButUpsideDown)
                f.windowsNamed["w"] = try f.window(root: f["d"])
            }, effective: 26),
            row("empty forwarding navigation: itself", { f in
                f.named["d"] = try f.nav([], mask: mLandscapeRight)
                f.windowsNamed["w"] = try f.window(root: f["d"])
            }, effective: 8),
            row("forwarding tab: the selected child", { f in
                f.named["d"] = try f.vc(mLandscapeLeft)
                f.windowsNamed["w"] = try f.window(root: try f.tab([try f.vc(mPortrait), f["d"]], selected: 1))
            }, effective: 16),
            row("non-forwarding tab: itself", { f in
                f.named["d"] = try f.tab([try f.vc(mPortrait)], forwards: false)
                f.windowsNamed["w"] = try f.window(root: f["d"])
            }, effective: 26),
            row("empty forwarding tab: itself", { f in
                f.named["d"] = try f.tab([], mask: mPortrait)
                f.windowsNamed["w"] = try f.window(root: f["d"])
            }, effective: 2),
            row("presentation wins over the stack", { f in
                let nav = try f.nav([try f.vc(mPortrait)])
                f.named["d"] = try f.vc(mLandscape)
                f.windowsNamed["w"] = try f.window(root: nav)
                try f.policy.present(f["d"], from: nav, caller: A)
            }, effective: 24),
            row("tab → navigation → top presents", { f in
                let top = try f.vc(mPortrait)
                let nav = try f.nav([try f.vc(), top])
                f.named["d"] = try f.vc(mPortrait | mLandscapeRight)
                f.windowsNamed["w"] = try f.window(root: try f.tab([try f.vc(), nav], selected: 1))
                try f.policy.present(f["d"], from: top, caller: A)
            }, effective: 10),
            row("a presented forwarding navigation: its top", { f in
                let root = try f.vc()
                f.named["d"] = try f.vc(mLandscapeRight)
                f.windowsNamed["w"] = try f.window(root: root)
                try f.policy.present(try f.nav([try f.vc(), f["d"]]), from: root, caller: A)
            }, effective: 8),
            row("the window mask narrows the decider's", { f in
                f.named["d"] = try f.vc(mPortrait | mLandscapeRight)
                f.windowsNamed["w"] = try f.window(delegate: mPortrait | mLandscapeLeft, root: f["d"])
            }, effective: 2),
        ])
    }

    func testP4_decidingControllerFollowsChanges() throws {
        let f = Fixture()
        let a = try f.vc(mPortrait), b = try f.vc(mAllButUpsideDown)
        let tab = try f.tab([a, b])
        let w = try f.window(root: tab)
        XCTAssertEqual(f.policy.decidingController(of: w), a)
        try f.policy.setSelectedIndex(tab, 1, caller: A)
        XCTAssertEqual(f.policy.decidingController(of: w), b)
        try f.policy.setForwardsToChild(tab, false, caller: A)
        XCTAssertEqual(f.policy.decidingController(of: w), tab)
        try f.policy.setForwardsToChild(tab, true, caller: A)
        try f.policy.destroy(b, caller: A)
        XCTAssertEqual(f.policy.decidingController(of: w), a, "destroying the selected last tab selects the one before")
        try f.policy.setRootController(w, nil, caller: A)
        XCTAssertNil(f.policy.decidingController(of: w))
    }
}

/// P5: effective mask, and the refusal of anything that would leave some hierarchy member without a common orientation.
final class P5_EffectiveMaskTests: XCTestCase {
    func testP5_effectiveMaskNeverEmpty() {
        let upside = mUpsideDown // shares nothing with the phone's 26
        run("P5", [
            Scenario(name: "effective = window ∩ decider",
                     setup: { f in f.windowsNamed["w"] = try f.window(delegate: mPortrait | mLandscapeRight, root: try f.vc(mLandscape)) },
                     action: { _ in }, orientation: LR,
                     check: { f in XCTAssertEqual(f.policy.effectiveMask(of: f.w("w")).rawValue, mLandscapeRight) }),
            Scenario(name: "a detached controller may have any mask", action: { f in _ = try f.vc(upside) }),
            Scenario(name: "set root sharing nothing", setup: { f in
                f.windowsNamed["w"] = try f.window()
                f.named["c"] = try f.vc(upside)
            }, action: { f in try f.policy.setRootController(f.w("w"), f["c"], caller: A) }, error: .noCommonOrientation),
            Scenario(name: "set root whose buried child shares nothing", setup: { f in
                f.windowsNamed["w"] = try f.window()
                f.named["c"] = try f.nav([try f.vc(upside), try f.vc()])
            }, action: { f in try f.policy.setRootController(f.w("w"), f["c"], caller: A) }, error: .noCommonOrientation),
            Scenario(name: "root's mask", setup: { f in
                f.named["c"] = try f.vc()
                try f.window(root: f["c"])
            }, action: { f in try f.policy.setSupportedMask(f["c"], upside, caller: A) }, error: .noCommonOrientation),
            Scenario(name: "mask of a buried stack member", setup: { f in
                f.named["c"] = try f.vc()
                try f.window(root: try f.nav([f["c"], try f.vc()]))
            }, action: { f in try f.policy.setSupportedMask(f["c"], upside, caller: A) }, error: .noCommonOrientation),
            Scenario(name: "mask of an unselected tab", setup: { f in
                f.named["c"] = try f.vc()
                try f.window(root: try f.tab([try f.vc(), f["c"]]))
            }, action: { f in try f.policy.setSupportedMask(f["c"], upside, caller: A) }, error: .noCommonOrientation),
            Scenario(name: "mask of a non-forwarding container's child", setup: { f in
                f.named["c"] = try f.vc()
                try f.window(root: try f.nav([f["c"]], forwards: false))
            }, action: { f in try f.policy.setSupportedMask(f["c"], upside, caller: A) }, error: .noCommonOrientation),
            Scenario(name: "mask of a controller presented by a buried child", setup: { f in
                let bottom = try f.vc()
                try f.window(root: try f.nav([bottom, try f.vc()]))
                f.named["c"] = try f.vc()
                try f.policy.present(f["c"], from: bottom, caller: A)
            }, action: { f in try f.policy.setSupportedMask(f["c"], upside, caller: A) }, error: .noCommonOrientation),
            Scenario(name: "push sharing nothing", setup: { f in
                f.named["n"] = try f.nav([try f.vc()])
                try f.window(root: f["n"])
                f.named["c"] = try f.vc(upside)
            }, action: { f in try f.policy.push(f["c"], onto: f["n"], caller: A) }, error: .noCommonOrientation),
            Scenario(name: "set view controllers sharing nothing", setup: { f in
                f.named["n"] = try f.tab([])
                try f.window(root: f["n"])
                f.named["ok"] = try f.vc()
                f.named["c"] = try f.vc(upside)
            }, action: { f in try f.policy.setViewControllers(f["n"], [f["ok"], f["c"]], caller: A) },
                     error: .noCommonOrientation),
            Scenario(name: "present sharing nothing", setup: { f in
                f.named["r"] = try f.vc()
                try f.window(root: f["r"])
                f.named["c"] = try f.vc(upside)
            }, action: { f in try f.policy.present(f["c"], from: f["r"], caller: A) }, error: .noCommonOrientation),
            Scenario(name: "delegate mask vs a presented controller", setup: { f in
                let r = try f.vc()
                f.windowsNamed["w"] = try f.window(root: r)
                try f.policy.present(try f.vc(mPortrait), from: r, caller: A)
            }, action: { f in try f.policy.setDelegateMask(f.w("w"), mLandscape, caller: A) }, error: .noCommonOrientation),
            Scenario(name: "application mask vs an unselected tab", setup: { f in
                try f.window(root: try f.tab([try f.vc(), try f.vc(mPortrait)]))
            }, action: { f in try f.policy.setApplicationMask(mLandscape) }, error: .noCommonOrientation),
            Scenario(name: "a mask that still shares is accepted and narrows the effective mask", setup: { f in
                f.named["c"] = try f.vc()
                f.windowsNamed["w"] = try f.window(root: f["c"])
            }, action: { f in try f.policy.setSupportedMask(f["c"], mLandscapeLeft | mUpsideDown, caller: A) },
                     orientation: LL, events: rotation(P, LL),
                     check: { f in XCTAssertEqual(f.policy.effectiveMask(of: f.w("w")).rawValue, mLandscapeLeft) }),
        ])
    }
}

/// P6: the key window.
final class P6_KeyWindowTests: XCTestCase {
    func testP6_keyWindow() {
        run("P6", [
            Scenario(name: "first registered becomes key, later ones do not", action: { f in
                f.windowsNamed["1"] = try f.window()
                f.windowsNamed["2"] = try f.window()
            }, check: { f in
                XCTAssertEqual(f.policy.keyWindow, f.w("1"))
            }),
            Scenario(name: "make key and visible", setup: { f in
                f.windowsNamed["1"] = try f.window()
                f.windowsNamed["2"] = try f.window()
            }, action: { f in try f.policy.makeKeyAndVisible(f.w("2"), caller: A) },
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("2")) }),
            Scenario(name: "privileged caller may make another's window key", setup: { f in
                f.windowsNamed["1"] = try f.window()
                f.windowsNamed["2"] = try f.window(B)
            }, action: { f in try f.policy.makeKeyAndVisible(f.w("2"), caller: nil) },
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("2")) }),
            Scenario(name: "another client's window", setup: { f in
                f.windowsNamed["1"] = try f.window()
                f.windowsNamed["2"] = try f.window(B)
            }, action: { f in try f.policy.makeKeyAndVisible(f.w("2"), caller: A) }, error: .accessDenied),
            Scenario(name: "unknown window", action: { f in try f.policy.makeKeyAndVisible(WindowID(rawValue: 7), caller: nil) },
                     error: .unknownObject),
            Scenario(name: "closing the key window: the most recently key one", setup: { f in
                f.windowsNamed["1"] = try f.window()
                f.windowsNamed["2"] = try f.window()
                f.windowsNamed["3"] = try f.window()
                try f.policy.makeKeyAndVisible(f.w("2"), caller: A)
                try f.policy.makeKeyAndVisible(f.w("3"), caller: A)
            }, action: { f in try f.policy.closeWindow(f.w("3"), caller: A) },
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("2")) }),
            Scenario(name: "a once-key window beats a newer never-key one", setup: { f in
                f.windowsNamed["1"] = try f.window()
                f.windowsNamed["2"] = try f.window()
                try f.policy.makeKeyAndVisible(f.w("2"), caller: A)
                f.windowsNamed["3"] = try f.window()
            }, action: { f in try f.policy.closeWindow(f.w("2"), caller: A) },
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("1")) }),
            Scenario(name: "none ever key: the most recently registered", setup: { f in
                f.windowsNamed["1"] = try f.window()
                f.windowsNamed["2"] = try f.window()
                f.windowsNamed["3"] = try f.window()
            }, action: { f in try f.policy.closeWindow(f.w("1"), caller: A) },
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("3")) }),
            Scenario(name: "closing a non-key window keeps the key", setup: { f in
                f.windowsNamed["1"] = try f.window()
                f.windowsNamed["2"] = try f.window()
            }, action: { f in try f.policy.closeWindow(f.w("2"), caller: A) },
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("1")) }),
            Scenario(name: "the last window goes: no key window", setup: { f in f.windowsNamed["1"] = try f.window() },
                     action: { f in try f.policy.closeWindow(f.w("1"), caller: A) },
                     check: { f in
                         XCTAssertNil(f.policy.keyWindow)
                         XCTAssertNil(f.policy.window(f.w("1")))
                     }),
            Scenario(name: "a new window becomes key when none is", setup: { f in
                f.windowsNamed["1"] = try f.window()
                try f.policy.closeWindow(f.w("1"), caller: A)
            }, action: { f in f.windowsNamed["2"] = try f.window() },
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("2")) }),
            Scenario(name: "the key window's owner leaves", setup: { f in
                f.windowsNamed["1"] = try f.window(A)
                f.windowsNamed["2"] = try f.window(B)
                try f.policy.makeKeyAndVisible(f.w("2"), caller: B, mayTakeKeyWindow: true)
            }, action: { f in f.policy.clientLeft(B) },
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("1")) }),
            Scenario(name: "closing another's window", setup: { f in f.windowsNamed["1"] = try f.window(B) },
                     action: { f in try f.policy.closeWindow(f.w("1"), caller: A) }, error: .accessDenied),
            Scenario(name: "close keeps the controllers, detached", setup: { f in
                f.named["r"] = try f.vc()
                f.windowsNamed["1"] = try f.window(root: f["r"])
            }, action: { f in try f.policy.closeWindow(f.w("1"), caller: A) },
                     check: { f in
                         XCTAssertNotNil(f.policy.controller(f["r"]))
                         XCTAssertNil(f.policy.controller(f["r"])?.rootOf)
                     }),
            Scenario(name: "making the key window key again rotates nothing", setup: { f in f.windowsNamed["1"] = try f.window() },
                     action: { f in try f.policy.makeKeyAndVisible(f.w("1"), caller: A) }, orientation: P, events: []),
        ])
    }
}

/// P7: without a key window the application mask is in force and autorotation is allowed.
final class P7_NoKeyWindowTests: XCTestCase {
    func testP7_noKeyWindow() {
        run("P7", [
            Scenario(name: "the application mask is in force", configuration: PolicyConfiguration(applicationMask: .landscape),
                     action: { _ in }, check: { f in
                         XCTAssertNil(f.policy.keyWindow)
                         XCTAssertEqual(f.policy.supportedMask.rawValue, mLandscape)
                     }),
            Scenario(name: "the device rotates the interface", setup: { $0.claim() },
                     action: { $0.device(.landscapeRight) }, orientation: LL,
                     events: [dev(.landscapeRight)] + rotation(P, LL)),
            Scenario(name: "but not outside the application mask", setup: { $0.claim() },
                     action: { $0.device(.portraitUpsideDown) }, orientation: P, events: [dev(.portraitUpsideDown)]),
            Scenario(name: "closing the last window: its restrictions go, nothing rotates (P9)", setup: { f in
                f.claim()
                f.windowsNamed["w"] = try f.window(root: try f.vc(mPortrait))
                f.device(.landscapeLeft)
            }, action: { f in try f.policy.closeWindow(f.w("w"), caller: A) }, orientation: P, events: [],
                     check: { f in XCTAssertEqual(f.policy.supportedMask.rawValue, mAllButUpsideDown) }),
            Scenario(name: "closing the last landscape-only window keeps landscape (P9 static)", setup: { f in
                f.windowsNamed["w"] = try f.window(root: try f.vc(mLandscape))
            }, action: { f in try f.policy.closeWindow(f.w("w"), caller: A) }, orientation: LR, events: []),
        ])
    }
}
