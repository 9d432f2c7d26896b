// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
@testable import Policy
import XCTest

/// P20 (Docs/policy.md, "P20 Touch hold"): while a finger or pen is on the screen, and for
/// `TouchHoldMs` after it lifts, the device does not turn the screen; when the hold ends the latest
/// pose is acted on. Rotations the hierarchy, an application or the user ask for are not held.
final class P20_TouchHoldTests: XCTestCase {
    /// Claimed, upright, a finger on the screen.
    private let touching: (Fixture) -> Void = { f in
        f.claim()
        f.device(.portrait)
        f.policy.setTouchHold(true)
    }

    func testP20_aTurnDuringATouchTurnsNothingUntilTheHoldEnds() {
        run("P20", [
            Scenario(name: "a turn while touched reports the device and keeps the screen", setup: touching,
                     action: { f in f.device(.landscapeLeft) }, orientation: P, events: [dev(.landscapeLeft)], check: { f in
                         XCTAssertTrue(f.policy.touchHold)
                         XCTAssertEqual(f.policy.deviceOrientation, .landscapeLeft, "DeviceOrientation still reports the sensor")
                     }),
            Scenario(name: "the hold ends: the latest pose is acted on at once", setup: { f in
                self.touching(f)
                f.device(.landscapeLeft)
            }, action: { f in f.policy.setTouchHold(false) }, orientation: LR, events: rotation(P, LR),
                     check: { f in XCTAssertFalse(f.policy.touchHold) }),
            Scenario(name: "turned and back during the hold: nothing when it ends", setup: { f in
                self.touching(f)
                f.device(.landscapeLeft)
                f.device(.portrait)
            }, action: { f in f.policy.setTouchHold(false) }, orientation: P, events: []),
            Scenario(name: "face up during the hold: the screen stays when it ends", setup: { f in
                self.touching(f)
                f.device(.landscapeLeft)
                f.device(.faceUp)
            }, action: { f in f.policy.setTouchHold(false) }, orientation: P, events: []),
            Scenario(name: "AttemptRotation during the hold sees the pose it last acted on (P10)", setup: { f in
                self.touching(f)
                f.device(.landscapeLeft)
            }, action: { f in f.policy.attemptRotation() }, orientation: P, events: []),
            Scenario(name: "a focus change during the hold sees the pose last acted on (P10)", setup: { f in
                self.touching(f)
                f.device(.landscapeLeft)
            }, action: { f in f.policy.setFocusedProcess(4242, authority: B) }, orientation: P, events: []),
            Scenario(name: "unlocking during the hold catches up when it ends, not before", setup: { f in
                f.claim()
                f.device(.portrait)
                f.policy.setRotationLocked(true)
                f.device(.landscapeLeft)
                f.policy.setTouchHold(true)
            }, action: { f in f.policy.setRotationLocked(false) }, orientation: P, events: [dev(.landscapeLeft)], check: { f in
                f.policy.setTouchHold(false)
                f.settle()
                XCTAssertEqual(orientationEvents(f.drain()), rotation(P, LR))
            }),
            Scenario(name: "TouchHoldMs=0 never holds: a turn without a hold turns", setup: { f in
                f.claim()
                f.device(.portrait)
            }, action: { f in f.device(.landscapeLeft) }, orientation: LR, events: [dev(.landscapeLeft)] + rotation(P, LR)),
        ])
    }

    func testP20_rotationsAskedForAreNeverHeld() {
        run("P20", [
            Scenario(name: "the hierarchy rotates during a hold (P9)", setup: { f in
                self.touching(f)
                let c = try f.vc()
                f.named["c"] = c
                try f.window(root: c)
            }, action: { f in try f.policy.setSupportedMask(f["c"], mLandscapeRight, caller: A) }, orientation: LR,
                     events: rotation(P, LR)),
            Scenario(name: "a geometry request rotates during a hold (P13)", setup: { f in
                self.touching(f)
                let c = try f.vc()
                let w = try f.window(root: c)
                f.windowsNamed["w"] = w
                try f.policy.makeKeyAndVisible(w, caller: A, mayTakeKeyWindow: true)
            }, action: { f in try f.policy.requestGeometryUpdate(f.w("w"), mLandscapeLeft, caller: A) }, orientation: LL,
                     events: rotation(P, LL)),
            Scenario(name: "a forced device orientation rotates during a hold (P12)", setup: touching,
                     action: { f in try f.policy.setDeviceOrientation(DeviceOrientation.landscapeLeft.rawValue) },
                     orientation: LR, events: [dev(.landscapeLeft)] + rotation(P, LR), check: { f in
                         XCTAssertTrue(f.policy.touchHold, "the hold goes on")
                         f.device(.portrait)
                         f.settle()
                         XCTAssertEqual(orientationEvents(f.drain()), [dev(.portrait)], "the sensor is still held after it")
                     }),
            Scenario(name: "forcing the pose the sensor already reports acts on it during a hold (P12)", setup: { f in
                self.touching(f)
                f.device(.landscapeLeft)
            }, action: { f in try f.policy.setDeviceOrientation(DeviceOrientation.landscapeLeft.rawValue) },
                     orientation: LR, events: rotation(P, LR)),
            Scenario(name: "an accepted suggestion rotates during a hold (P19)", setup: { f in
                f.claim()
                f.device(.portrait)
                f.policy.setRotationLocked(true)
                f.device(.landscapeLeft)
                f.policy.setTouchHold(true)
            }, action: { f in try f.policy.acceptSuggestion() }, orientation: LR, events: rotation(P, LR)),
        ])
    }

    func testP20_noSuggestionIsMadeDuringAHold() {
        let f = Fixture()
        f.claim()
        f.device(.portrait)
        f.policy.setRotationLocked(true)
        f.policy.setTouchHold(true)
        f.device(.landscapeLeft)
        f.settle()
        XCTAssertEqual(f.policy.suggestedOrientation, .unknown, "no suggestion while touched")
        XCTAssertFalse(f.drain().contains { if case .rotationSuggested = $0 { true } else { false } })
        f.policy.setTouchHold(false)
        f.settle()
        XCTAssertEqual(f.policy.suggestedOrientation, LR, "the pose that stands is offered when the hold ends")
        XCTAssertTrue(f.drain().contains(.rotationSuggested(LR)))
        XCTAssertEqual(f.policy.interfaceOrientation, P, "offered, not made: rotation is locked")
    }

    func testP20_theHoldIsNamedWhenItBeginsAndEndsOnly() {
        let f = Fixture()
        f.claim()
        _ = f.policy.takeChanges()
        f.policy.setTouchHold(true)
        XCTAssertEqual(f.policy.takeChanges().manager.names, ["TouchHold"])
        f.policy.setTouchHold(true)
        XCTAssertTrue(f.policy.takeChanges().isEmpty, "a hold that goes on is not announced again")
        f.policy.setTouchHold(false)
        XCTAssertEqual(f.policy.takeChanges().manager.names, ["TouchHold"])
    }
}
