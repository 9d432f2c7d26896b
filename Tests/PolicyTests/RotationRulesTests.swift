// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
@testable import Policy
import XCTest

/// P8: device-driven rotation.
final class P8_DeviceDrivenRotationTests: XCTestCase {
    func testP8_deviceDrivenRotation() {
        run("P8", [
            Scenario(name: "landscape-left device → landscape-right interface", setup: { f in
                f.claim()
                try f.window(root: try f.vc())
            }, action: { $0.device(.landscapeLeft) }, orientation: LR, events: [dev(.landscapeLeft)] + rotation(P, LR)),
            Scenario(name: "landscape-right device → landscape-left interface", setup: { f in
                f.claim()
                try f.window(root: try f.vc())
            }, action: { $0.device(.landscapeRight) }, orientation: LL, events: [dev(.landscapeRight)] + rotation(P, LL)),
            Scenario(name: "back to portrait", setup: { f in
                f.claim()
                try f.window(root: try f.vc())
                f.device(.landscapeLeft)
            }, action: { $0.device(.portrait) }, orientation: P, events: [dev(.portrait)] + rotation(LR, P)),
            Scenario(name: "upside down outside the phone's mask", setup: { f in
                f.claim()
                try f.window(root: try f.vc())
            }, action: { $0.device(.portraitUpsideDown) }, orientation: P, events: [dev(.portraitUpsideDown)]),
            Scenario(name: "upside down on a tablet", configuration: PolicyConfiguration(idiom: .tablet), setup: { f in
                f.claim()
                try f.window(root: try f.vc())
            }, action: { $0.device(.portraitUpsideDown) }, orientation: PUD,
                     events: [dev(.portraitUpsideDown)] + rotation(P, PUD)),
            Scenario(name: "face up never rotates", setup: { f in
                f.claim()
                f.device(.landscapeLeft)
            }, action: { $0.device(.faceUp) }, orientation: LR, events: [dev(.faceUp)]),
            Scenario(name: "face down never rotates", setup: { f in
                f.claim()
                f.device(.landscapeLeft)
            }, action: { $0.device(.faceDown) }, orientation: LR, events: [dev(.faceDown)]),
            Scenario(name: "unknown never rotates", setup: { f in
                f.claim()
                f.device(.landscapeLeft)
            }, action: { $0.device(.unknown) }, orientation: LR, events: [dev(.unknown)]),
            Scenario(name: "target equals current: no rotation events", setup: { f in f.claim() },
                     action: { $0.device(.portrait) }, orientation: P, events: [dev(.portrait)]),
            Scenario(name: "the deciding controller refuses to autorotate", setup: { f in
                f.claim()
                try f.window(root: try f.vc(autorotate: false))
            }, action: { $0.device(.landscapeLeft) }, orientation: P, events: [dev(.landscapeLeft)]),
            Scenario(name: "a non-deciding controller's refusal does not matter", setup: { f in
                f.claim()
                try f.window(root: try f.nav([try f.vc(autorotate: false), try f.vc()]))
            }, action: { $0.device(.landscapeLeft) }, orientation: LR, events: [dev(.landscapeLeft)] + rotation(P, LR)),
            Scenario(name: "the deciding presented controller refuses", setup: { f in
                f.claim()
                let root = try f.vc()
                try f.window(root: root)
                try f.policy.present(try f.vc(autorotate: false), from: root, caller: A)
            }, action: { $0.device(.landscapeLeft) }, orientation: P, events: [dev(.landscapeLeft)]),
            Scenario(name: "target outside the mask in force", setup: { f in
                f.claim()
                try f.window(root: try f.vc(mPortrait | mLandscapeLeft))
            }, action: { $0.device(.landscapeLeft) }, orientation: P, events: [dev(.landscapeLeft)]),
            Scenario(name: "a non-key window's rules do not matter", setup: { f in
                f.claim()
                try f.window(root: try f.vc())
                try f.window(root: try f.vc(mPortrait, autorotate: false))
            }, action: { $0.device(.landscapeLeft) }, orientation: LR),
            Scenario(name: "locked: nothing (P11)", setup: { f in
                f.claim()
                f.policy.setRotationLocked(true)
            }, action: { $0.device(.landscapeLeft) }, orientation: P, events: []),
            Scenario(name: "unclaimed: nothing (P16)", action: { $0.device(.landscapeLeft) }, orientation: P, events: [],
                     check: { XCTAssertEqual($0.policy.deviceOrientation, .unknown) }),
        ])
    }

    func testP8_deviceChangeIsAnnouncedBeforeTheRotationItCauses() throws {
        let f = Fixture()
        f.claim()
        _ = f.drain()
        f.device(.landscapeLeft)
        XCTAssertEqual(f.policy.deviceOrientation, .landscapeLeft)
        XCTAssertEqual(f.policy.interfaceOrientation, LR, "InterfaceOrientation reads the target from WillChange on")
        XCTAssertEqual(f.policy.transition, Transition(from: P, to: LR))
        XCTAssertEqual(f.drain(), [dev(.landscapeLeft), will(P, LR)])
        f.policy.completeTransition()
        XCTAssertEqual(f.drain(), [did(P, LR)])
        XCTAssertNil(f.policy.transition)
    }
}

/// P9: hierarchy-driven rotation.
final class P9_HierarchyDrivenRotationTests: XCTestCase {
    func testP9_hierarchyDrivenRotation() {
        run("P9", [
            // "Static": nothing rotates while the current orientation is still allowed.
            Scenario(name: "push keeps the orientation while allowed, even with the device elsewhere", setup: { f in
                f.claim()
                f.named["n"] = try f.nav([try f.vc(mPortrait)])
                try f.window(root: f["n"])
                f.device(.landscapeLeft)
            }, action: { f in try f.policy.push(try f.vc(mAllButUpsideDown), onto: f["n"], caller: A) }, orientation: P, events: []),
            Scenario(name: "push landscape-only, device unknown: first in P9's order", setup: { f in
                f.named["n"] = try f.nav([try f.vc(mPortrait)])
                try f.window(root: f["n"])
            }, action: { f in try f.policy.push(try f.vc(mLandscape), onto: f["n"], caller: A) },
                     orientation: LR, events: rotation(P, LR)),
            Scenario(name: "push landscape-only, device landscape-right: interface(device)", setup: { f in
                f.claim()
                f.named["n"] = try f.nav([try f.vc(mPortrait)])
                try f.window(root: f["n"])
                f.device(.landscapeRight)
            }, action: { f in try f.policy.push(try f.vc(mLandscape), onto: f["n"], caller: A) },
                     orientation: LL, events: rotation(P, LL)),
            Scenario(name: "push landscape-only, device face up: skipped", setup: { f in
                f.claim()
                f.named["n"] = try f.nav([try f.vc(mPortrait)])
                try f.window(root: f["n"])
                f.device(.faceUp)
            }, action: { f in try f.policy.push(try f.vc(mLandscape), onto: f["n"], caller: A) },
                     orientation: LR, events: rotation(P, LR)),
            Scenario(name: "device outside the mask: the decider's preferred", setup: { f in
                f.claim()
                f.named["n"] = try f.nav([try f.vc(mPortrait)])
                try f.window(root: f["n"])
                f.device(.portrait)
            }, action: { f in try f.policy.push(try f.vc(mLandscape, preferred: LL.rawValue), onto: f["n"], caller: A) },
                     orientation: LL, events: rotation(P, LL)),
            Scenario(name: "preferred outside the mask is skipped", setup: { f in
                f.named["n"] = try f.nav([try f.vc(mPortrait)])
                try f.window(root: f["n"])
            }, action: { f in try f.policy.push(try f.vc(mLandscape, preferred: P.rawValue), onto: f["n"], caller: A) },
                     orientation: LR),
            Scenario(name: "order: landscape-left before upside down", configuration: PolicyConfiguration(idiom: .tablet),
                     setup: { f in f.named["r"] = try f.vc(); try f.window(root: f["r"]) },
                     action: { f in try f.policy.setSupportedMask(f["r"], mUpsideDown | mLandscapeLeft, caller: A) },
                     orientation: LL),
            Scenario(name: "order: upside down last", configuration: PolicyConfiguration(idiom: .tablet),
                     setup: { f in f.named["r"] = try f.vc(); try f.window(root: f["r"]) },
                     action: { f in try f.policy.setSupportedMask(f["r"], mUpsideDown, caller: A) }, orientation: PUD),
            Scenario(name: "pop back to a portrait-only controller", setup: { f in
                f.named["n"] = try f.nav([try f.vc(mPortrait), try f.vc(mLandscape)])
                try f.window(root: f["n"])
            }, action: { f in _ = try f.policy.pop(f["n"], caller: A) }, orientation: P, events: rotation(LR, P)),
            Scenario(name: "set view controllers", setup: { f in
                f.named["n"] = try f.nav([try f.vc(mPortrait)])
                try f.window(root: f["n"])
            }, action: { f in try f.policy.setViewControllers(f["n"], [try f.vc(mLandscapeLeft)], caller: A) },
                     orientation: LL, events: rotation(P, LL)),
            Scenario(name: "select a landscape tab", setup: { f in
                f.named["t"] = try f.tab([try f.vc(mPortrait), try f.vc(mLandscape)])
                try f.window(root: f["t"])
            }, action: { f in try f.policy.setSelectedIndex(f["t"], 1, caller: A) }, orientation: LR, events: rotation(P, LR)),
            Scenario(name: "stop forwarding: the container's own mask", setup: { f in
                f.named["n"] = try f.nav([try f.vc(mLandscape)], mask: mPortrait | mLandscapeLeft)
                try f.window(root: f["n"])
            }, action: { f in try f.policy.setForwardsToChild(f["n"], false, caller: A) }, orientation: P),
            Scenario(name: "set root", setup: { f in f.windowsNamed["w"] = try f.window() },
                     action: { f in try f.policy.setRootController(f.w("w"), try f.vc(mLandscapeLeft), caller: A) },
                     orientation: LL, events: rotation(P, LL)),
            Scenario(name: "make key", setup: { f in
                try f.window(root: try f.vc(mPortrait))
                f.windowsNamed["w"] = try f.window(root: try f.vc(mLandscape))
            }, action: { f in try f.policy.makeKeyAndVisible(f.w("w"), caller: A) }, orientation: LR, events: rotation(P, LR)),
            Scenario(name: "register the first window, landscape application", configuration: PolicyConfiguration(),
                     setup: { f in try f.policy.setApplicationMask(mLandscape) },
                     action: { f in try f.window(delegate: mLandscapeLeft) }, orientation: LL),
            Scenario(name: "close the key window", setup: { f in
                try f.window(root: try f.vc(mPortrait))
                f.windowsNamed["w"] = try f.window(root: try f.vc(mLandscape))
                try f.policy.makeKeyAndVisible(f.w("w"), caller: A)
            }, action: { f in try f.policy.closeWindow(f.w("w"), caller: A) }, orientation: P, events: rotation(LR, P)),
            Scenario(name: "a client leaves", setup: { f in
                try f.window(A, root: try f.vc(mPortrait))
                let w = try f.window(B, root: try f.vc(mLandscape, client: B))
                try f.policy.makeKeyAndVisible(w, caller: B, mayTakeKeyWindow: true)
            }, action: { f in f.policy.clientLeft(B) }, orientation: P, events: rotation(LR, P)),
            Scenario(name: "destroy the top", setup: { f in
                f.named["top"] = try f.vc(mLandscape)
                try f.window(root: try f.nav([try f.vc(mPortrait), f["top"]]))
            }, action: { f in try f.policy.destroy(f["top"], caller: A) }, orientation: P, events: rotation(LR, P)),
            Scenario(name: "a mask change", setup: { f in f.named["r"] = try f.vc(); try f.window(root: f["r"]) },
                     action: { f in try f.policy.setSupportedMask(f["r"], mLandscapeRight, caller: A) }, orientation: LR),
            // Presentation.
            Scenario(name: "present with a preferred orientation rotates to it, though the current one is allowed", setup: { f in
                f.named["r"] = try f.vc()
                try f.window(root: f["r"])
            }, action: { f in try f.policy.present(try f.vc(preferred: LL.rawValue), from: f["r"], caller: A) },
                     orientation: LL, events: rotation(P, LL)),
            Scenario(name: "present with preferred: locked and not autorotating all the same", setup: { f in
                f.claim()
                f.device(.portrait)
                f.policy.setRotationLocked(true)
                f.named["r"] = try f.vc(mAllButUpsideDown, autorotate: false)
                try f.window(root: f["r"])
            }, action: { f in try f.policy.present(try f.vc(mLandscape, preferred: LR.rawValue, autorotate: false),
                                                   from: f["r"], caller: A) },
                     orientation: LR, events: rotation(P, LR)),
            Scenario(name: "present without preferred: static when allowed", setup: { f in
                f.named["r"] = try f.vc()
                try f.window(root: f["r"])
            }, action: { f in try f.policy.present(try f.vc(mAllButUpsideDown), from: f["r"], caller: A) }, orientation: P,
                     events: []),
            Scenario(name: "present without preferred: fallback when not allowed", setup: { f in
                f.named["r"] = try f.vc()
                try f.window(root: f["r"])
            }, action: { f in try f.policy.present(try f.vc(mLandscape), from: f["r"], caller: A) }, orientation: LR),
            Scenario(name: "present a forwarding navigation: its top's preferred", setup: { f in
                f.named["r"] = try f.vc()
                try f.window(root: f["r"])
            }, action: { f in
                try f.policy.present(try f.nav([try f.vc(mLandscape, preferred: LL.rawValue)]), from: f["r"], caller: A)
            }, orientation: LL, events: rotation(P, LL)),
            Scenario(name: "present a forwarding navigation: its top's preferred must be in the top's mask", setup: { f in
                f.named["r"] = try f.vc()
                try f.window(root: f["r"])
                f.named["n"] = try f.nav([try f.vc(mLandscape, preferred: P.rawValue)])
            }, action: { f in try f.policy.present(f["n"], from: f["r"], caller: A) }, error: .preferredNotSupported),
            Scenario(name: "a presented forwarding container's own preferred does not count: its top decides", setup: { f in
                f.named["r"] = try f.vc()
                try f.window(root: f["r"])
                let top = try f.vc(preferred: LL.rawValue)
                f.named["n"] = try f.nav([top], mask: mLandscapeRight)
                try f.policy.setPreferredOrientation(f["n"], P.rawValue, caller: A)
            }, action: { f in try f.policy.present(f["n"], from: f["r"], caller: A) }, orientation: LL, events: rotation(P, LL)),
            Scenario(name: "a presented non-forwarding container's own preferred counts", setup: { f in
                f.named["r"] = try f.vc()
                try f.window(root: f["r"])
                f.named["n"] = try f.nav([try f.vc(preferred: LL.rawValue)], forwards: false, mask: mLandscapeRight)
                try f.policy.setPreferredOrientation(f["n"], P.rawValue, caller: A)
            }, action: { f in try f.policy.present(f["n"], from: f["r"], caller: A) }, error: .preferredNotSupported),
            Scenario(name: "preferred outside the presented controller's mask", setup: { f in
                f.named["r"] = try f.vc()
                try f.window(root: f["r"])
                f.named["c"] = try f.vc(mLandscape, preferred: P.rawValue)
            }, action: { f in try f.policy.present(f["c"], from: f["r"], caller: A) }, error: .preferredNotSupported),
            Scenario(name: "preferred outside the window's effective mask", setup: { f in
                f.named["r"] = try f.vc()
                try f.window(delegate: mPortrait | mLandscapeLeft, root: f["r"])
                f.named["c"] = try f.vc(mAllButUpsideDown, preferred: LR.rawValue)
            }, action: { f in try f.policy.present(f["c"], from: f["r"], caller: A) }, error: .noCommonOrientation),
            Scenario(name: "dismiss back to a portrait-only presenter", setup: { f in
                f.named["r"] = try f.vc(mPortrait)
                try f.window(root: f["r"])
                try f.policy.present(try f.vc(mLandscape), from: f["r"], caller: A)
            }, action: { f in try f.policy.dismiss(f["r"], caller: A) }, orientation: P, events: rotation(LR, P)),
            Scenario(name: "presented controller dismisses itself", setup: { f in
                f.named["r"] = try f.vc(mPortrait)
                try f.window(root: f["r"])
                f.named["c"] = try f.vc(mLandscape)
                try f.policy.present(f["c"], from: f["r"], caller: A)
            }, action: { f in try f.policy.dismiss(f["c"], caller: A) }, orientation: P,
                     check: { f in
                         XCTAssertNil(f.policy.controller(f["r"])?.presented)
                         XCTAssertNil(f.policy.controller(f["c"])?.presenting)
                     }),
            Scenario(name: "dismiss takes everything above", setup: { f in
                f.named["r"] = try f.vc(mPortrait)
                try f.window(root: f["r"])
                f.named["c"] = try f.vc()
                f.named["d"] = try f.vc(mLandscape)
                try f.policy.present(f["c"], from: f["r"], caller: A)
                try f.policy.present(f["d"], from: f["c"], caller: A)
            }, action: { f in try f.policy.dismiss(f["r"], caller: A) }, orientation: P, check: { f in
                XCTAssertNil(f.policy.controller(f["c"])?.presented)
                XCTAssertNil(f.policy.controller(f["d"])?.presenting)
                XCTAssertEqual(f.policy.decidingController(of: f.policy.keyWindow!), f["r"])
            }),
            Scenario(name: "dismiss on a controller that presents nothing and is not presented: nothing", setup: { f in
                f.named["r"] = try f.vc()
                try f.window(root: f["r"])
            }, action: { f in try f.policy.dismiss(f["r"], caller: A) }, events: []),
            Scenario(name: "presentation in a non-key window does not rotate", setup: { f in
                try f.window(root: try f.vc())
                f.named["r"] = try f.vc()
                try f.window(root: f["r"])
            }, action: { f in try f.policy.present(try f.vc(preferred: LR.rawValue), from: f["r"], caller: A) },
                     orientation: P, events: []),
        ])
    }
}

/// P10: AttemptRotationToDeviceOrientation applies P8.
final class P10_AttemptRotationTests: XCTestCase {
    func testP10_attemptRotation() {
        func held(_ f: Fixture) throws {
            f.claim()
            f.named["r"] = try f.vc(autorotate: false)
            try f.window(root: f["r"])
            f.device(.landscapeLeft)
        }
        run("P10", [
            Scenario(name: "after allowing autorotation", setup: { f in
                try held(f)
                try f.policy.setShouldAutorotate(f["r"], true, caller: A)
            }, action: { $0.policy.attemptRotation() }, orientation: LR, events: rotation(P, LR)),
            Scenario(name: "allowing autorotation alone does not rotate", setup: held,
                     action: { f in try f.policy.setShouldAutorotate(f["r"], true, caller: A) }, orientation: P, events: []),
            Scenario(name: "still refused", setup: held, action: { $0.policy.attemptRotation() }, orientation: P, events: []),
            Scenario(name: "locked", setup: { f in
                try held(f)
                try f.policy.setShouldAutorotate(f["r"], true, caller: A)
                f.policy.setRotationLocked(true)
            }, action: { $0.policy.attemptRotation() }, orientation: P, events: []),
            Scenario(name: "device unknown", setup: { f in try f.window(root: try f.vc()) },
                     action: { $0.policy.attemptRotation() }, orientation: P, events: []),
            Scenario(name: "device face up", setup: { f in
                f.claim()
                f.device(.faceUp)
            }, action: { $0.policy.attemptRotation() }, orientation: P, events: []),
            Scenario(name: "target outside the mask", setup: { f in
                try held(f)
                try f.policy.setShouldAutorotate(f["r"], true, caller: A)
                try f.policy.setSupportedMask(f["r"], mPortrait, caller: A)
            }, action: { $0.policy.attemptRotation() }, orientation: P, events: []),
            Scenario(name: "already there", setup: { f in
                f.claim()
                f.device(.landscapeLeft)
            }, action: { $0.policy.attemptRotation() }, orientation: LR, events: []),
        ])
    }
}

/// P11: the rotation lock.
final class P11_RotationLockTests: XCTestCase {
    func testP11_rotationLock() {
        run("P11", [
            Scenario(name: "locking never rotates", setup: { f in
                f.claim()
                f.named["r"] = try f.vc(autorotate: false)
                try f.window(root: f["r"])
                f.device(.landscapeLeft)
                try f.policy.setShouldAutorotate(f["r"], true, caller: A)
            }, action: { $0.policy.setRotationLocked(true) }, orientation: P, events: [],
                     check: { XCTAssertTrue($0.policy.rotationLocked) }),
            Scenario(name: "reports while locked are kept, not published", setup: { f in
                f.claim()
                f.policy.setRotationLocked(true)
            }, action: { $0.device(.landscapeLeft) }, orientation: P, events: [], check: { f in
                XCTAssertEqual(f.policy.deviceOrientation, .unknown, "still the value before the lock")
                XCTAssertEqual(f.policy.latestReport, .landscapeLeft)
            }),
            Scenario(name: "the value held at locking time stays", setup: { f in
                f.claim()
                f.device(.portrait)
                f.policy.setRotationLocked(true)
            }, action: { f in
                f.device(.landscapeLeft)
                f.device(.landscapeRight)
            }, orientation: P, events: [], check: { XCTAssertEqual($0.policy.deviceOrientation, .portrait) }),
            Scenario(name: "unlocking publishes the latest report, then rotates", setup: { f in
                f.claim()
                f.device(.portrait)
                f.policy.setRotationLocked(true)
                f.device(.landscapeLeft)
                f.device(.landscapeRight)
            }, action: { $0.policy.setRotationLocked(false) }, orientation: LL,
                     events: [dev(.landscapeRight)] + rotation(P, LL)),
            Scenario(name: "unlocking with the same reading: P10 still applies", setup: { f in
                f.claim()
                f.named["r"] = try f.vc(autorotate: false)
                try f.window(root: f["r"])
                f.device(.landscapeLeft)
                f.policy.setRotationLocked(true)
                try f.policy.setShouldAutorotate(f["r"], true, caller: A)
            }, action: { $0.policy.setRotationLocked(false) }, orientation: LR, events: rotation(P, LR)),
            Scenario(name: "locked and unclaimed: reads 0; a claim shows the pose held, without rotating", setup: { f in
                f.policy.setRotationLocked(true)
                f.device(.landscapeLeft)
            }, action: { $0.claim() }, orientation: P, events: [dev(.landscapeLeft)],
                     check: { XCTAssertEqual($0.policy.deviceOrientation, .landscapeLeft) }),
            Scenario(name: "unlocking while unclaimed signals nothing", setup: { f in
                f.policy.setRotationLocked(true)
                f.device(.landscapeLeft)
            }, action: { $0.policy.setRotationLocked(false) }, orientation: P, events: [],
                     check: { XCTAssertEqual($0.policy.deviceOrientation, .unknown) }),
            Scenario(name: "locking twice changes nothing", setup: { $0.policy.setRotationLocked(true) },
                     action: { $0.policy.setRotationLocked(true) },
                     check: { XCTAssertTrue($0.policy.takeChanges().isEmpty) }),
            Scenario(name: "a lock restored at start (P15) holds", setup: { _ in }, action: { f in
                let p = Policy(rotationLocked: true)
                p.beginGenerating(client: A)
                p.sensorReported(.landscapeLeft)
                XCTAssertEqual(p.interfaceOrientation, P)
                XCTAssertTrue(p.rotationLocked)
            }),
        ])
    }
}

/// P12: SetDeviceOrientation is a device report.
final class P12_ForcedDeviceOrientationTests: XCTestCase {
    func testP12_forcedDeviceOrientation() {
        run("P12", [
            Scenario(name: "claimed: announced and followed", setup: { f in
                f.claim()
                try f.window(root: try f.vc())
            }, action: { f in try f.policy.setDeviceOrientation(3) }, orientation: LR,
                     events: [dev(.landscapeLeft)] + rotation(P, LR)),
            Scenario(name: "face down is accepted", setup: { $0.claim() }, action: { f in try f.policy.setDeviceOrientation(6) },
                     orientation: P, events: [dev(.faceDown)]),
            Scenario(name: "shouldAutorotate false: the forced pose does not rotate", setup: { f in
                f.claim()
                try f.window(root: try f.vc(autorotate: false))
            }, action: { f in try f.policy.setDeviceOrientation(4) }, orientation: P, events: [dev(.landscapeRight)]),
            Scenario(name: "unclaimed: kept, reported when a claim starts (P16)",
                     action: { f in
                         try f.policy.setDeviceOrientation(4)
                         XCTAssertEqual(f.policy.deviceOrientation, .unknown)
                         XCTAssertEqual(f.policy.interfaceOrientation, P)
                         XCTAssertEqual(orientationEvents(f.drain()), [])
                         f.claim()
                     }, orientation: LL, events: [dev(.landscapeRight)] + rotation(P, LL)),
            Scenario(name: "locked: kept, published on unlock (P11)", setup: { f in
                f.claim()
                f.policy.setRotationLocked(true)
            }, action: { f in
                try f.policy.setDeviceOrientation(3)
                XCTAssertEqual(orientationEvents(f.drain()), [])
                f.policy.setRotationLocked(false)
            }, orientation: LR, events: [dev(.landscapeLeft)] + rotation(P, LR)),
            Scenario(name: "already reading d: no device signal, P10 applies", setup: { f in
                f.claim()
                f.named["r"] = try f.vc(autorotate: false)
                try f.window(root: f["r"])
                f.device(.landscapeLeft)
                try f.policy.setShouldAutorotate(f["r"], true, caller: A)
            }, action: { f in try f.policy.setDeviceOrientation(3) }, orientation: LR, events: rotation(P, LR)),
            Scenario(name: "0 is not a pose to set", action: { f in try f.policy.setDeviceOrientation(0) }, error: .invalidArgs),
            Scenario(name: "7 is not a pose", action: { f in try f.policy.setDeviceOrientation(7) }, error: .invalidArgs),
            Scenario(name: "a later sensor report overrides the forced pose", setup: { f in
                f.claim()
                try f.policy.setDeviceOrientation(3)
            }, action: { $0.device(.portrait) }, orientation: P, events: [dev(.portrait)] + rotation(LR, P)),
        ])
    }
}

/// P13: RequestGeometryUpdate on the key window.
final class P13_GeometryRequestTests: XCTestCase {
    func testP13_geometryRequest() {
        func key(_ f: Fixture, mask: UInt32 = 0, autorotate: Bool = true) throws {
            f.named["r"] = try f.vc(mask, autorotate: autorotate)
            f.windowsNamed["w"] = try f.window(root: f["r"])
        }
        run("P13", [
            Scenario(name: "landscape while portrait: first allowed in P9's order", setup: { try key($0) },
                     action: { f in try f.policy.requestGeometryUpdate(f.w("w"), mLandscape, caller: A) },
                     orientation: LR, events: rotation(P, LR)),
            Scenario(name: "the device's orientation when allowed", setup: { f in
                f.claim()
                try key(f, autorotate: false)
                f.device(.landscapeRight)
            }, action: { f in try f.policy.requestGeometryUpdate(f.w("w"), mLandscape, caller: A) },
                     orientation: LL, events: rotation(P, LL)),
            Scenario(name: "the deciding controller's preferred orientation before the fixed order",
                     setup: { f in
                f.named["r"] = try f.vc(preferred: UInt32(LL.rawValue))
                f.windowsNamed["w"] = try f.window(root: f["r"])
            }, action: { f in try f.policy.requestGeometryUpdate(f.w("w"), mLandscape, caller: A) },
                     orientation: LL, events: rotation(P, LL)),
            Scenario(name: "the device's orientation before the preferred one", setup: { f in
                f.claim()
                f.named["r"] = try f.vc(preferred: UInt32(LL.rawValue), autorotate: false)
                f.windowsNamed["w"] = try f.window(root: f["r"])
                f.device(.landscapeLeft)
            }, action: { f in try f.policy.requestGeometryUpdate(f.w("w"), mLandscape, caller: A) },
                     orientation: LR, events: rotation(P, LR)),
            Scenario(name: "a preferred orientation outside the request is passed over", setup: { f in
                f.named["r"] = try f.vc(preferred: UInt32(LL.rawValue))
                f.windowsNamed["w"] = try f.window(root: f["r"])
            }, action: { f in try f.policy.requestGeometryUpdate(f.w("w"), mLandscapeRight | mUpsideDown, caller: A) },
                     orientation: LR, events: rotation(P, LR)),
            Scenario(name: "keeps the current orientation when allowed", setup: { f in
                f.claim()
                try key(f, autorotate: false)
                f.device(.landscapeRight)
            }, action: { f in try f.policy.requestGeometryUpdate(f.w("w"), mAll, caller: A) }, orientation: P, events: []),
            Scenario(name: "lock and shouldAutorotate do not apply", setup: { f in
                try key(f, autorotate: false)
                f.policy.setRotationLocked(true)
            }, action: { f in try f.policy.requestGeometryUpdate(f.w("w"), mLandscapeLeft, caller: A) },
                     orientation: LL, events: rotation(P, LL)),
            Scenario(name: "only within the effective mask", setup: { try key($0, mask: mPortrait | mLandscapeLeft) },
                     action: { f in try f.policy.requestGeometryUpdate(f.w("w"), mAll, caller: A) }, orientation: P),
            Scenario(name: "partial overlap", setup: { try key($0, mask: mPortrait | mLandscapeLeft) },
                     action: { f in try f.policy.requestGeometryUpdate(f.w("w"), mLandscape, caller: A) }, orientation: LL),
            Scenario(name: "nothing in common", setup: { try key($0, mask: mPortrait) },
                     action: { f in try f.policy.requestGeometryUpdate(f.w("w"), mLandscape, caller: A) },
                     error: .unsupportedOrientations),
            Scenario(name: "outside the phone's window mask", setup: { try key($0) },
                     action: { f in try f.policy.requestGeometryUpdate(f.w("w"), mUpsideDown, caller: A) },
                     error: .unsupportedOrientations),
            Scenario(name: "not the key window", setup: { f in
                try key(f)
                f.windowsNamed["other"] = try f.window()
            }, action: { f in try f.policy.requestGeometryUpdate(f.w("other"), mLandscape, caller: A) }, error: .notKeyWindow),
            Scenario(name: "invalid mask", setup: { try key($0) },
                     action: { f in try f.policy.requestGeometryUpdate(f.w("w"), 0, caller: A) }, error: .invalidArgs),
            Scenario(name: "another client's window", setup: { try key($0) },
                     action: { f in try f.policy.requestGeometryUpdate(f.w("w"), mLandscape, caller: B) }, error: .accessDenied),
            Scenario(name: "unknown window", setup: { try key($0) },
                     action: { f in try f.policy.requestGeometryUpdate(WindowID(rawValue: 99), mLandscape, caller: A) },
                     error: .unknownObject),
        ])
    }
}

/// P14: transitions, their order, and decisions deferred while one is under way.
final class P14_TransitionTests: XCTestCase {
    func testP14_oneRotationIsWillChangeThenDidChange() throws {
        let f = Fixture()
        let w = try f.window()
        _ = f.drain()
        try f.policy.requestGeometryUpdate(w, mLandscape, caller: A)
        XCTAssertEqual(f.drain(), [will(P, LR)])
        XCTAssertEqual(f.policy.interfaceOrientation, LR)
        XCTAssertEqual(f.policy.transition, Transition(from: P, to: LR))
        f.policy.completeTransition()
        XCTAssertEqual(f.drain(), [did(P, LR)])
        XCTAssertNil(f.policy.transition)
        f.policy.completeTransition()
        XCTAssertEqual(f.drain(), [], "completing with nothing under way does nothing")
    }

    func testP14_transitions() {
        run("P14", [
            Scenario(name: "a hierarchy decision during a transition waits for DidChange", setup: { f in
                f.claim()
                f.named["n"] = try f.nav([try f.vc()])
                try f.window(root: f["n"])
            }, action: { f in
                f.device(.landscapeLeft)
                try f.policy.push(try f.vc(mPortrait), onto: f["n"], caller: A)
                XCTAssertEqual(orientationEvents(f.drain()), [dev(.landscapeLeft), will(P, LR)], "nothing before DidChange")
                XCTAssertEqual(f.policy.interfaceOrientation, LR)
            }, orientation: P, events: [did(P, LR)] + rotation(LR, P)),
            Scenario(name: "a presentation made meanwhile still counts as one", setup: { f in
                f.claim()
                f.named["r"] = try f.vc()
                try f.window(root: f["r"])
            }, action: { f in
                f.device(.landscapeLeft)
                try f.policy.present(try f.vc(preferred: LL.rawValue), from: f["r"], caller: A)
            }, orientation: LL, events: [dev(.landscapeLeft), will(P, LR), did(P, LR), will(LR, LL), did(LR, LL)]),
            Scenario(name: "a presentation dismissed meanwhile no longer counts", setup: { f in
                f.claim()
                f.named["r"] = try f.vc()
                try f.window(root: f["r"])
            }, action: { f in
                f.device(.landscapeLeft)
                try f.policy.present(try f.vc(preferred: LL.rawValue), from: f["r"], caller: A)
                try f.policy.dismiss(f["r"], caller: A)
            }, orientation: LR, events: [dev(.landscapeLeft)] + rotation(P, LR)),
            Scenario(name: "device changes are announced at once, the rotation they ask for waits", setup: { f in
                f.claim()
                try f.window(root: try f.vc())
            }, action: { f in
                f.device(.landscapeLeft)
                f.device(.portrait)
            }, orientation: P, events: [dev(.landscapeLeft), will(P, LR), dev(.portrait), did(P, LR), will(LR, P), did(LR, P)]),
            Scenario(name: "re-decided against the state at DidChange: a moot decision emits nothing", setup: { f in
                f.claim()
                try f.window(root: try f.vc())
            }, action: { f in
                f.device(.landscapeLeft)
                f.device(.landscapeRight)
                f.device(.landscapeLeft)
            }, orientation: LR, events: [dev(.landscapeLeft), will(P, LR), dev(.landscapeRight), dev(.landscapeLeft), did(P, LR)]),
            Scenario(name: "a geometry request during a transition", setup: { f in
                f.claim()
                f.windowsNamed["w"] = try f.window(root: try f.vc(autorotate: false))
            }, action: { f in
                try f.policy.setApplicationMask(mLandscape)
                try f.policy.requestGeometryUpdate(f.w("w"), mLandscapeLeft, caller: A)
            }, orientation: LL, events: rotation(P, LR) + rotation(LR, LL)),
            Scenario(name: "a lock during a transition stops the deferred device decision", setup: { f in
                f.claim()
                try f.window(root: try f.vc())
            }, action: { f in
                f.device(.landscapeLeft)
                f.device(.portrait)
                f.policy.setRotationLocked(true)
            }, orientation: LR, events: [dev(.landscapeLeft), will(P, LR), dev(.portrait), did(P, LR)]),
            Scenario(name: "no events for a decision whose target is the current orientation", setup: { f in
                f.claim()
                f.named["r"] = try f.vc()
                try f.window(root: f["r"])
            }, action: { f in
                f.device(.portrait)
                try f.policy.present(try f.vc(preferred: P.rawValue), from: f["r"], caller: A)
                try f.policy.setApplicationMask(mAll)
                f.policy.attemptRotation()
            }, orientation: P, events: [dev(.portrait)]),
        ])
    }
}

/// P15: the start.
final class P15_StartTests: XCTestCase {
    func testP15_start() {
        let rows: [(String, PolicyConfiguration, OrientationMask?, InterfaceOrientation?, Bool, InterfaceOrientation)] = [
            ("no saved state", PolicyConfiguration(), nil, nil, false, P),
            ("saved orientation in the mask", PolicyConfiguration(), nil, LL, false, LL),
            ("saved upside down outside the phone's mask", PolicyConfiguration(), nil, PUD, false, P),
            ("saved upside down on a tablet", PolicyConfiguration(idiom: .tablet), nil, PUD, false, PUD),
            ("saved unknown", PolicyConfiguration(), nil, .unknown, false, P),
            ("saved portrait, landscape application", PolicyConfiguration(applicationMask: .landscape), nil, P, false, LR),
            ("saved mask overrides the config", PolicyConfiguration(applicationMask: .landscape), .all, P, false, P),
            ("saved orientation checked against the saved mask", PolicyConfiguration(), .landscapeLeft, LR, true, LL),
            ("lock restored", PolicyConfiguration(), nil, LR, true, LR),
        ]
        for (name, config, mask, orientation, locked, expected) in rows {
            let p = Policy(configuration: config, savedApplicationMask: mask, savedOrientation: orientation, rotationLocked: locked)
            XCTAssertEqual(p.interfaceOrientation, expected, name)
            XCTAssertNotEqual(p.interfaceOrientation, .unknown, name)
            XCTAssertEqual(p.rotationLocked, locked, name)
            XCTAssertNil(p.transition, name)
            XCTAssertEqual(p.deviceOrientation, .unknown, name)
            XCTAssertNil(p.keyWindow, name)
            XCTAssertTrue(p.takeChanges().isEmpty, "\(name): starting announces nothing")
        }
    }
}

/// P16: claims.
final class P16_ClaimsTests: XCTestCase {
    func testP16_claimCounting() throws {
        let f = Fixture()
        f.policy.beginGenerating(client: A)
        XCTAssertEqual(f.drain(), [.sensorNeeded(true)], "the latest report is unknown: no device signal")
        f.policy.beginGenerating(client: A)
        f.policy.beginGenerating(client: B)
        XCTAssertEqual(f.drain(), [], "only the first claim starts the sensor")
        XCTAssertEqual(f.policy.claims(of: A), 2)
        XCTAssertEqual(f.policy.claims(of: B), 1)
        XCTAssertEqual(f.policy.totalClaims, 3)
        f.device(.landscapeLeft)
        XCTAssertEqual(f.drain(), [dev(.landscapeLeft), will(P, LR)])
        f.settle()
        try f.policy.endGenerating(client: A)
        try f.policy.endGenerating(client: A)
        assertRefused(.notGenerating, f, "A's count is 0") { try f.policy.endGenerating(client: A) }
        XCTAssertEqual(f.policy.deviceOrientation, .landscapeLeft, "B still claims")
        _ = f.drain()
        try f.policy.endGenerating(client: B)
        XCTAssertEqual(f.drain(), [.sensorNeeded(false), dev(.unknown)])
        XCTAssertEqual(f.policy.deviceOrientation, .unknown)
        XCTAssertEqual(f.policy.interfaceOrientation, LR, "unknown never rotates")
        XCTAssertEqual(f.policy.latestReport, .unknown, "a real source's pose is forgotten with the last claim")
        f.policy.beginGenerating(client: B)
        XCTAssertEqual(f.drain(), [.sensorNeeded(true)], "no pose from an earlier claim")
        XCTAssertEqual(f.policy.deviceOrientation, .unknown)
        f.device(.portrait)
        XCTAssertEqual(f.drain(), [dev(.portrait), will(LR, P)], "the first fresh pose is shown")
    }

    func testP16_aPoseHeldByTheSimulatedSensorIsShownAgainWhenAClaimStarts() throws {
        let f = Fixture()
        f.policy.sensorKeepsPoseWhileStopped = true
        f.claim()
        f.device(.landscapeLeft)
        f.settle()
        try f.policy.endGenerating(client: A)
        XCTAssertEqual(f.policy.latestReport, .landscapeLeft, "the pose is held")
        _ = f.drain()
        f.claim()
        XCTAssertEqual(f.drain(), [.sensorNeeded(true), dev(.landscapeLeft)], "the held pose is reported at once")
    }

    func testP16_aForcedPoseOutlivesClaimsWithARealSource() throws {
        let f = Fixture()
        f.claim()
        try f.policy.setDeviceOrientation(DeviceOrientation.landscapeRight.rawValue)
        f.settle()
        try f.policy.endGenerating(client: A)
        _ = f.drain()
        f.claim()
        XCTAssertEqual(f.drain(), [.sensorNeeded(true), dev(.landscapeRight)], "SetDeviceOrientation's pose is kept")
        f.device(.portrait)
        XCTAssertEqual(f.policy.deviceOrientation, .portrait, "until the source classifies another")
    }

    func testP16_whileLockedTheFirstFreshPoseOfAClaimIsShownAndLaterOnesAreHeld() throws {
        let f = Fixture()
        f.claim()
        f.device(.portrait)
        f.policy.setRotationLocked(true)
        try f.policy.endGenerating(client: A)
        f.claim()
        XCTAssertEqual(f.policy.deviceOrientation, .unknown, "nothing from the earlier claim")
        f.device(.landscapeLeft)
        XCTAssertEqual(f.policy.deviceOrientation, .landscapeLeft, "the pose the claim starts with")
        XCTAssertEqual(f.policy.interfaceOrientation, P, "locking never rotates")
        f.device(.portraitUpsideDown)
        XCTAssertEqual(f.policy.deviceOrientation, .landscapeLeft, "later reports are held while locked (P11)")
        XCTAssertEqual(f.policy.latestReport, .portraitUpsideDown)
    }

    func testP16_aVanishedSensorReadsUnknownEvenWhileLocked() throws {
        let f = Fixture()
        f.claim()
        f.device(.landscapeLeft)
        f.settle()
        f.policy.setRotationLocked(true)
        _ = f.drain()
        f.policy.sensorVanished()
        XCTAssertEqual(f.drain(), [dev(.unknown)])
        XCTAssertEqual(f.policy.latestReport, .unknown)
        f.device(.portrait)
        XCTAssertEqual(f.policy.deviceOrientation, .portrait, "a device that comes back gives the claim its pose")
        XCTAssertEqual(f.policy.interfaceOrientation, LR, "and the lock still holds the interface")
    }

    func testP16_claims() {
        run("P16", [
            Scenario(name: "a client that never began", action: { f in try f.policy.endGenerating(client: B) },
                     error: .notGenerating),
            Scenario(name: "a pose held before any claim is reported as soon as someone claims", setup: { f in
                try f.window(root: try f.vc())
                f.device(.landscapeRight)
            }, action: { $0.claim(B) }, orientation: LL, events: [dev(.landscapeRight)] + rotation(P, LL)),
            Scenario(name: "a client leaving drops its claims", setup: { f in
                f.claim(A)
                f.claim(B)
                f.claim(B)
                f.device(.landscapeLeft)
            }, action: { $0.policy.clientLeft(B) }, check: { f in
                XCTAssertEqual(f.policy.claims(of: B), 0)
                XCTAssertEqual(f.policy.totalClaims, 1)
                XCTAssertEqual(f.policy.deviceOrientation, .landscapeLeft)
            }),
            Scenario(name: "the last claimant leaving stops the sensor", setup: { f in
                f.claim(B)
                f.device(.landscapeLeft)
            }, action: { f in
                f.policy.clientLeft(B)
                XCTAssertTrue(f.drain().contains(.sensorNeeded(false)))
            }, orientation: LR, events: [], check: { f in
                XCTAssertEqual(f.policy.deviceOrientation, .unknown)
                XCTAssertEqual(f.policy.totalClaims, 0)
            }),
            Scenario(name: "a client leaving removes its windows and controllers, not others'", setup: { f in
                f.named["a"] = try f.vc(mPortrait)
                f.windowsNamed["a"] = try f.window(A, root: f["a"])
                f.named["b1"] = try f.vc(mLandscape, client: B)
                f.named["b2"] = try f.nav([f["b1"]], client: B)
                f.windowsNamed["b"] = try f.window(B, root: f["b2"])
                try f.policy.makeKeyAndVisible(f.w("b"), caller: B, mayTakeKeyWindow: true)
            }, action: { f in
                f.policy.clientLeft(B)
                let events = f.drain()
                XCTAssertTrue(events.contains(.windowRemoved(f.w("b"))))
                XCTAssertTrue(events.contains(.controllerRemoved(f["b1"])))
                XCTAssertTrue(events.contains(.controllerRemoved(f["b2"])))
                XCTAssertFalse(events.contains(.windowRemoved(f.w("a"))))
            }, orientation: P, check: { f in
                XCTAssertNil(f.policy.window(f.w("b")))
                XCTAssertNil(f.policy.controller(f["b1"]))
                XCTAssertNil(f.policy.controller(f["b2"]))
                XCTAssertNotNil(f.policy.controller(f["a"]))
                XCTAssertEqual(f.policy.keyWindow, f.w("a"))
                XCTAssertEqual(f.policy.windowIDs, [f.w("a")])
            }),
            Scenario(name: "a client that leaves may count again from zero", setup: { f in
                f.claim(B)
                try f.window(B)
                f.policy.clientLeft(B)
            }, action: { f in _ = try f.policy.registerWindow(client: B, user: userOf(B)) }, check: { f in
                XCTAssertEqual(f.policy.windowIDs.count, 1)
            }),
        ])
    }
}
