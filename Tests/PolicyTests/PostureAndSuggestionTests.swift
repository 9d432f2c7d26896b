// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
@testable import Policy
import XCTest

/// The suggestions the action made, in order.
private func suggestions(_ events: [PolicyEvent]) -> [InterfaceOrientation] {
    events.compactMap { if case .rotationSuggested(let to) = $0 { to } else { nil } }
}

/// P18 (Docs/sensors.md, "Posture"): in a posture outside `[Posture] Rotate` the device does not turn the screen;
/// P8 and P10 act as if it were upright, and every posture change applies P10.
final class P18_PostureTests: XCTestCase {
    func testP18_aLaptopNeverTurnsTheScreenWhateverTheAccelerometerSays() {
        let laptop: (Fixture) -> Void = { f in
            f.claim()
            f.device(.portrait)
            f.policy.setPosture(.laptop, hingeAngle: 110)
        }
        run("P18", [
            Scenario(name: "in laptop posture a turn of the device turns nothing", setup: laptop,
                     action: { f in f.device(.landscapeLeft) }, orientation: P, events: [dev(.landscapeLeft)], check: { f in
                         XCTAssertEqual(f.policy.deviceOrientation, .landscapeLeft, "DeviceOrientation still reports the sensor's pose")
                         XCTAssertEqual(f.policy.posture, .laptop)
                         XCTAssertEqual(f.policy.hingeAngle, 110)
                     }),
            Scenario(name: "entering laptop from a turned tablet turns the screen upright", setup: { f in
                f.claim()
                f.policy.setPosture(.tablet, hingeAngle: 355)
                f.device(.landscapeLeft)
            }, action: { f in f.policy.setPosture(.laptop, hingeAngle: 100) }, orientation: P, events: rotation(LR, P)),
            Scenario(name: "leaving laptop for tablet follows the device again", setup: { f in
                laptop(f)
                f.device(.landscapeLeft)
            }, action: { f in f.policy.setPosture(.tablet, hingeAngle: 360) }, orientation: LR, events: rotation(P, LR)),
            Scenario(name: "tent and stand turn by default", setup: laptop, action: { f in
                f.policy.setPosture(.tent, hingeAngle: 300)
                f.device(.portraitUpsideDown)
            }, orientation: P, events: [dev(.portraitUpsideDown)],
                     check: { f in XCTAssertEqual(f.policy.posture, .tent, "upside down is outside the phone's mask, not P18") }),
            Scenario(name: "tent on a tablet turns upside down", configuration: tablet, setup: laptop, action: { f in
                f.policy.setPosture(.tent, hingeAngle: 300)
                f.device(.portraitUpsideDown)
            }, orientation: PUD, events: [dev(.portraitUpsideDown)] + rotation(P, PUD)),
            Scenario(name: "entering laptop when the mask in force has no portrait: P9 keeps the screen",
                     configuration: PolicyConfiguration(applicationMask: OrientationMask(rawValue: mLandscape)), setup: { f in
                f.claim()
                f.device(.landscapeRight)
            }, action: { f in f.policy.setPosture(.laptop) }, orientation: LL, events: []),
            Scenario(name: "entering laptop while locked turns nothing (P11)", setup: { f in
                f.claim()
                f.device(.landscapeLeft)
                f.policy.setRotationLocked(true)
            }, action: { f in f.policy.setPosture(.laptop) }, orientation: LR, events: []),
            Scenario(name: "the hierarchy still rotates in laptop posture (P9)", setup: { f in
                laptop(f)
                let c = try f.vc()
                f.named["c"] = c
                try f.window(root: c)
            }, action: { f in try f.policy.setSupportedMask(f["c"], mLandscapeRight, caller: A) }, orientation: LR,
                     events: rotation(P, LR)),
            Scenario(name: "[Posture] Rotate without tablet: tablet holds the screen too",
                     configuration: PolicyConfiguration(rotatingPostures: [.tent]), setup: { f in
                f.claim()
                f.policy.setPosture(.tablet)
            }, action: { f in f.device(.landscapeLeft) }, orientation: P, events: [dev(.landscapeLeft)]),
            Scenario(name: "the same posture again changes nothing but the angle", setup: laptop,
                     action: { f in f.policy.setPosture(.laptop, hingeAngle: 120) }, orientation: P, events: [],
                     check: { f in XCTAssertEqual(f.policy.hingeAngle, 120) }),
            Scenario(name: "a switch gives no angle: −1", setup: laptop,
                     action: { f in f.policy.setPosture(.tablet, hingeAngle: -1) }, orientation: P, events: [],
                     check: { f in XCTAssertEqual(f.policy.hingeAngle, -1) }),
        ])
    }

    func testP18_thePropertiesChangedAreNamed() {
        let f = Fixture()
        f.policy.setPosture(.laptop, hingeAngle: 90)
        let changes = f.policy.takeChanges()
        XCTAssertEqual(changes.manager.names, ["Posture", "HingeAngle"])
        f.policy.setPosture(.laptop, hingeAngle: 91)
        XCTAssertEqual(f.policy.takeChanges().manager.names, ["HingeAngle"])
        f.policy.setPosture(.laptop, hingeAngle: .nan)
        XCTAssertEqual(f.policy.hingeAngle, -1, "an angle that is no number is unknown")
    }

    func testP18_postureNamesParse() throws {
        XCTAssertEqual(try Posture.set(parsing: "stand;tent; tablet ;unknown;"), Posture.rotatingByDefault)
        XCTAssertEqual(try Posture.set(parsing: ""), [])
        XCTAssertThrowsError(try Posture.set(parsing: "laptop;folded")) { error in
            XCTAssertEqual((error as? OrientationParseError)?.message,
                           "'folded' is not a posture; accepted: laptop, stand, tent, tablet, unknown")
        }
    }
}

/// P19 (Docs/sensors.md, "Posture"): while rotation is locked, a turn of the device is offered, not made.
final class P19_SuggestionTests: XCTestCase {
    let locked: (Fixture) -> Void = { f in
        f.claim()
        f.device(.portrait)
        f.policy.setRotationLocked(true)
    }

    func testP19_aTurnWhileLockedIsSuggested() {
        run("P19", [
            Scenario(name: "locked, the device turns: suggested, not rotated", setup: locked,
                     action: { f in f.device(.landscapeLeft) }, orientation: P, events: [], check: { f in
                         XCTAssertEqual(f.policy.suggestedOrientation, LR)
                         XCTAssertEqual(f.policy.deviceOrientation, .portrait, "locked: DeviceOrientation keeps its value (P11)")
                     }),
            Scenario(name: "the device comes back: withdrawn", setup: { f in
                self.locked(f)
                f.device(.landscapeLeft)
            }, action: { f in f.device(.portrait) }, events: [], check: { f in XCTAssertEqual(f.policy.suggestedOrientation, .unknown) }),
            Scenario(name: "face up keeps the suggestion", setup: { f in
                self.locked(f)
                f.device(.landscapeLeft)
            }, action: { f in f.device(.faceUp) }, check: { f in XCTAssertEqual(f.policy.suggestedOrientation, LR) }),
            Scenario(name: "another edge replaces it", setup: { f in
                self.locked(f)
                f.device(.landscapeLeft)
            }, action: { f in f.device(.landscapeRight) }, check: { f in XCTAssertEqual(f.policy.suggestedOrientation, LL) }),
            Scenario(name: "never upside down on a phone", setup: locked,
                     action: { f in f.device(.portraitUpsideDown) }, check: { f in XCTAssertEqual(f.policy.suggestedOrientation, .unknown) }),
            Scenario(name: "upside down on a tablet", configuration: tablet, setup: locked,
                     action: { f in f.device(.portraitUpsideDown) }, check: { f in XCTAssertEqual(f.policy.suggestedOrientation, PUD) }),
            Scenario(name: "never outside the mask in force", configuration: PolicyConfiguration(applicationMask: OrientationMask(rawValue: mPortrait)),
                     setup: locked, action: { f in f.device(.landscapeLeft) },
                     check: { f in XCTAssertEqual(f.policy.suggestedOrientation, .unknown) }),
            Scenario(name: "never in a posture outside Rotate", setup: { f in
                self.locked(f)
                f.policy.setPosture(.laptop)
            }, action: { f in f.device(.landscapeLeft) }, check: { f in XCTAssertEqual(f.policy.suggestedOrientation, .unknown) }),
            Scenario(name: "never while the application holds its orientation (P17)", setup: { f in
                self.locked(f)
                let c = try f.vc()
                try f.policy.setPrefersOrientationLocked(c, true, caller: A)
                try f.window(root: c)
            }, action: { f in f.device(.landscapeLeft) }, check: { f in XCTAssertEqual(f.policy.suggestedOrientation, .unknown) }),
            Scenario(name: "never when SuggestionSeconds is 0", configuration: { var c = PolicyConfiguration(); c.suggestsRotation = false; return c }(),
                     setup: locked, action: { f in f.device(.landscapeLeft) },
                     check: { f in XCTAssertEqual(f.policy.suggestedOrientation, .unknown) }),
            Scenario(name: "never unlocked: the device turns the screen itself", setup: { f in
                f.claim()
                f.device(.portrait)
            }, action: { f in f.device(.landscapeLeft) }, orientation: LR, events: [dev(.landscapeLeft)] + rotation(P, LR),
                     check: { f in XCTAssertEqual(f.policy.suggestedOrientation, .unknown) }),
        ])
    }

    func testP19_theSuggestionIsAnnouncedOnceAndEnds() throws {
        let f = Fixture()
        locked(f)
        f.settle()
        _ = f.drain()
        f.device(.landscapeLeft)
        var changes = f.policy.takeChanges()
        XCTAssertEqual(suggestions(changes.events), [LR])
        XCTAssertEqual(changes.manager.names, ["SuggestedOrientation"])
        f.device(.landscapeLeft)
        XCTAssertTrue(f.policy.takeChanges().isEmpty, "the same edge again: nothing new")

        f.policy.suggestionExpired()
        changes = f.policy.takeChanges()
        XCTAssertEqual(changes.manager.names, ["SuggestedOrientation"])
        XCTAssertEqual(f.policy.suggestedOrientation, .unknown, "SuggestionSeconds passed")

        f.device(.portrait)
        f.device(.landscapeLeft)
        XCTAssertEqual(suggestions(f.policy.takeChanges().events), [LR], "a new turn suggests again")
        f.policy.setRotationLocked(false)
        XCTAssertEqual(f.policy.suggestedOrientation, .unknown, "unlocking withdraws it")
        f.settle()
        XCTAssertEqual(f.policy.interfaceOrientation, LR, "and the device turns the screen (P11)")
    }

    func testP19_acceptingRotatesAndKeepsTheLock() {
        run("P19", [
            Scenario(name: "accept: rotates to the suggestion, the lock stays on", setup: { f in
                self.locked(f)
                f.device(.landscapeLeft)
            }, action: { f in try f.policy.acceptSuggestion() }, orientation: LR, events: rotation(P, LR), check: { f in
                XCTAssertTrue(f.policy.rotationLocked)
                XCTAssertEqual(f.policy.suggestedOrientation, .unknown)
                f.device(.portrait)
                f.settle()
                XCTAssertEqual(f.policy.interfaceOrientation, LR, "held there: the lock is on")
                XCTAssertEqual(f.policy.suggestedOrientation, P, "and portrait is now the turn to offer")
            }),
            Scenario(name: "no suggestion: NoSuggestion", setup: locked,
                     action: { f in try f.policy.acceptSuggestion() }, error: .noSuggestion),
            Scenario(name: "unlocked: NoSuggestion", setup: { f in f.claim() },
                     action: { f in try f.policy.acceptSuggestion() }, error: .noSuggestion),
            Scenario(name: "the mask in force changes so the suggestion can no longer be had: withdrawn", setup: { f in
                self.locked(f)
                f.device(.landscapeLeft)
            }, action: { f in try f.policy.setApplicationMask(mPortrait) }, orientation: P,
                     check: { f in XCTAssertEqual(f.policy.suggestedOrientation, .unknown) }),
            Scenario(name: "the hierarchy rotates to the suggestion: withdrawn", setup: { f in
                self.locked(f)
                f.device(.landscapeLeft)
            }, action: { f in try f.policy.setApplicationMask(mLandscapeRight) }, orientation: LR,
                     check: { f in XCTAssertEqual(f.policy.suggestedOrientation, .unknown) }),
            Scenario(name: "entering laptop withdraws it", setup: { f in
                self.locked(f)
                f.device(.landscapeLeft)
            }, action: { f in f.policy.setPosture(.laptop) }, orientation: P,
                     check: { f in XCTAssertEqual(f.policy.suggestedOrientation, .unknown) }),
        ])
    }
}
