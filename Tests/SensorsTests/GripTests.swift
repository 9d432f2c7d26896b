// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import Orientation
@testable import Sensors

/// The grips (Docs/sensors.md, "The classifier"): traces in which one rule is the only reason nothing turns. Each trace is
/// classified twice, with the defaults and with that rule alone made inert: the second turns.
final class GripTests: XCTestCase {
    /// `degrees` in the screen's plane and `tilt` from upright, as samples every `step` ms.
    func pose(_ degrees: Double, tilt: Double, from start: Double, ms: Double, step: Double = 50) -> [Sample] {
        let v = upright(degrees, tilt: tilt)
        return hold(v.0, v.1, v.2, from: start, ms: ms, step: step)
    }

    func without(_ change: (inout ClassifierSettings) -> Void) -> ClassifierSettings {
        var settings = ClassifierSettings()
        change(&settings)
        return settings
    }

    /// Lying on the back, the phone held above the face (the screen facing down at 60°), then turned
    /// sideways in the hand, or the arm lowered to the side: the phone's landscape reading is not
    /// the user's.
    func testOverheadHoldsTheEdge() {
        var samples = pose(0, tilt: 0, from: 0, ms: 500)
        // Lowered over the face, 5° every sample.
        for (i, tilt) in stride(from: -5.0, through: -60, by: -5).enumerated() {
            samples += pose(0, tilt: tilt, from: 500 + Double(i) * 50, ms: 50)
        }
        samples += pose(0, tilt: -60, from: 1100, ms: 500)
        samples += pose(90, tilt: -60, from: 1600, ms: 2000)
        XCTAssertEqual(classify(samples), [.portrait], "overhead: no edge change")
        XCTAssertEqual(classify(samples, settings: without { $0.overheadTilt = -89; $0.overheadEndTilt = -89 }),
                       [.portrait, .landscapeRight], "the overhead rule is the only reason")
        // Sat up again (the tilt above −15°): the edge counts again.
        samples += pose(90, tilt: -10, from: 3600, ms: 500)
        XCTAssertEqual(classify(samples), [.portrait, .landscapeRight])
    }

    /// A reader may stop sampling only when the classifier is settled: not while a grip holds an
    /// edge back (overhead, turned sideways), nor while a candidate settles.
    func testSettledOnlyWhenNothingIsHeldBackOrSettling() {
        var classifier = Classifier(settings: ClassifierSettings())
        for s in pose(0, tilt: 0, from: 0, ms: 500) { _ = classifier.add(s) }
        XCTAssertTrue(classifier.isSettled, "portrait, reported")
        _ = classifier.add(pose(90, tilt: 0, from: 500, ms: 50)[0])
        XCTAssertFalse(classifier.isSettled, "landscape proposed, settling")
        for s in pose(90, tilt: 0, from: 550, ms: 500) { _ = classifier.add(s) }
        XCTAssertEqual(classifier.reported, .landscapeRight)
        XCTAssertTrue(classifier.isSettled)
        var overhead = Classifier(settings: ClassifierSettings())
        var samples = pose(0, tilt: 0, from: 0, ms: 500)
        for (i, tilt) in stride(from: -5.0, through: -60, by: -5).enumerated() {
            samples += pose(0, tilt: tilt, from: 500 + Double(i) * 50, ms: 50)
        }
        samples += pose(90, tilt: -60, from: 1100, ms: 1000)
        for s in samples { _ = overhead.add(s) }
        XCTAssertEqual(overhead.reported, .portrait)
        XCTAssertFalse(overhead.isSettled, "overhead and turned: the grip holds landscape back")
    }

    /// Picked up from a table, where it lay for two seconds: on the way up the phone passes through
    /// a landscape reading for 300 ms before the hand holds it upright.
    func testFlatThenPickedUpDoesNotFlashLandscape() {
        var samples = pose(0, tilt: 90, from: 0, ms: 2000)
        samples += pose(90, tilt: 80, from: 2000, ms: 50)
        samples += pose(90, tilt: 45, from: 2050, ms: 300)
        samples += pose(0, tilt: 45, from: 2350, ms: 1000)
        XCTAssertEqual(classify(samples), [.faceUp, .portrait], "no landscape on the way up")
        XCTAssertEqual(classify(samples, settings: without { $0.flatLiftHoldMs = 0 }), [.faceUp, .landscapeRight, .portrait],
                       "the picked-up rule is the only reason")
        // Flat for less than FlatLiftAfterMs (set down and picked up at once): no hold.
        var brief = pose(0, tilt: 0, from: 0, ms: 500) + pose(0, tilt: 90, from: 500, ms: 400)
        brief += pose(90, tilt: 45, from: 900, ms: 600)
        XCTAssertEqual(classify(brief), [.portrait, .faceUp, .landscapeRight])
    }

    /// Walking with the phone in a swinging hand: the tilt rises 25° at once and the phone reads
    /// landscape for 250 ms before it swings back.
    func testASwingDropsTheCandidate() {
        var samples = pose(0, tilt: 0, from: 0, ms: 1000)
        samples += pose(90, tilt: 25, from: 1000, ms: 250)
        samples += pose(0, tilt: 0, from: 1250, ms: 1000)
        XCTAssertEqual(classify(samples), [.portrait], "a swing: no edge change")
        XCTAssertEqual(classify(samples, settings: without { $0.swingHoldMs = 0 }), [.portrait, .landscapeRight, .portrait],
                       "the swing rule is the only reason")
        // A turn by hand keeps the tilt: it turns.
        let turn = pose(0, tilt: 10, from: 0, ms: 1000) + pose(90, tilt: 10, from: 1000, ms: 500)
        XCTAssertEqual(classify(turn), [.portrait, .landscapeRight])
    }

    /// A sideways jolt (a bump on a train table) read at 100 Hz: 80 ms of a pose past landscape's
    /// boundary with the magnitude at 1.25 g, inside the gates. The settle time holds it, and the
    /// early report at rest does not count such samples.
    func testAJoltInsideTheGatesDoesNotTurn() {
        var samples = pose(0, tilt: 0, from: 0, ms: 500, step: 10)
        samples += hold(1.1 * g, -0.6 * g, 0, from: 500, ms: 80, step: 10)
        samples += pose(0, tilt: 0, from: 580, ms: 500, step: 10)
        XCTAssertEqual(classify(samples), [.portrait], "a jolt shorter than the settle time")
        XCTAssertEqual(classify(samples, settings: without { $0.restMagnitudeTolerance = 1 }), [.portrait, .landscapeRight, .portrait],
                       "the rest rule's magnitude check is the only reason")
        // Set down in landscape (the magnitude back at 1 g): the rest report still comes early.
        let reports = classifyTimed(pose(0, tilt: 0, from: 0, ms: 500, step: 10) + pose(90, tilt: 0, from: 500, ms: 200, step: 10))
        XCTAssertEqual(reports.map(\.1), [.portrait, .landscapeRight])
        XCTAssertLessThan(reports[1].0 - 500, ClassifierSettings().settleMs, "at rest: before the settle time")
    }

    /// Turned by hand from portrait to upside down (a tablet turned over, a convertible folded into a
    /// tent) in 1.2 s: the device reads landscape for half a second on the way, and is turning all
    /// along. No landscape; upside down once the hand stops.
    func testATurnThroughAnEdgeIsNotATurnToIt() {
        var samples = pose(0, tilt: 20, from: 0, ms: 1000, step: 20)
        for i in 1...60 {   // 1.2 s at 50 Hz, the angle along a smooth (cosine) path
            let u = Double(i) / 60
            samples += pose(180 * (1 - cos(.pi * u)) / 2, tilt: 20, from: 1000 + 20 * Double(i - 1), ms: 20, step: 20)
        }
        samples += pose(180, tilt: 20, from: 2200, ms: 1000, step: 20)
        XCTAssertEqual(classify(samples), [.portrait, .portraitUpsideDown], "no landscape on the way")
        XCTAssertEqual(classify(samples, settings: without { $0.turnRate = 100_000 }), [.portrait, .landscapeRight, .portraitUpsideDown],
                       "the turn rule is the only reason")
        // A pose that jumps and stays (a step) turns only for half a turn window: the rest report
        // comes then, still before the settle time.
        let reports = classifyTimed(pose(0, tilt: 0, from: 0, ms: 500, step: 20) + pose(90, tilt: 0, from: 500, ms: 300, step: 20))
        XCTAssertEqual(reports.map(\.t), [20, 560], "the step reported at rest, 60 ms after it")
        // Polled slowly while still (2 Hz), then a step: the samples 500 ms apart cannot tell a turn
        // from a step and say nothing, so the reading that confirms the first one 20 ms later reports it.
        let polledReports = classifyTimed(pose(0, tilt: 0, from: 0, ms: 1500, step: 500) + pose(90, tilt: 0, from: 1500, ms: 40, step: 20))
        XCTAssertEqual(polledReports.map(\.o), [.portrait, .landscapeRight])
        XCTAssertEqual(polledReports.last?.t, 1520, "reported at the confirming read")
        // The same slow polls with the device turning on (180°/s): the confirming read shows the
        // motion, and nothing settles until the turn ends.
        var turn = pose(0, tilt: 0, from: 0, ms: 1500, step: 500) + pose(70, tilt: 0, from: 1500, ms: 20)
        turn += pose(73.6, tilt: 0, from: 1520, ms: 20)
        for (i, t) in stride(from: 1570.0, through: 1570 + 50 * 5, by: 50).enumerated() {
            turn += pose(min(180, 82.6 + 9 * Double(i)), tilt: 0, from: t, ms: 50)
        }
        XCTAssertEqual(classify(turn), [.portrait], "no landscape while the polls show the turn going on")
        // Samples that stop mid-turn (a sensor that reports only on change): the device is taken as
        // still a turn window after the last one, and what it showed settles then.
        var stopped = Classifier()
        for s in pose(0, tilt: 0, from: 0, ms: 500, step: 20) { _ = stopped.add(s) }
        for (i, degrees) in stride(from: 10.0, through: 80, by: 10).enumerated() {
            _ = stopped.add(pose(degrees, tilt: 0, from: 500 + 20 * Double(i), ms: 20)[0])
        }
        XCTAssertEqual(stopped.deadline, 640 + ClassifierSettings().turnWindowMs)
        XCTAssertNil(stopped.advance(to: 700))
        XCTAssertEqual(stopped.advance(to: 740), .landscapeRight)
    }

    func testEveryGripHasItsKeyInTheClassifierGroup() {
        let keys = ClassifierSettings.keys.map(\.key)
        for key in ["OverheadTilt", "OverheadEndTilt", "FlatLiftAfterMs", "FlatLiftHoldMs", "SwingDegrees", "SwingWindowMs",
                    "SwingHoldMs", "RestMagnitudeTolerance"] {
            XCTAssertTrue(keys.contains(key), key)
        }
        var settings = ClassifierSettings()
        settings.overheadEndTilt = -50
        XCTAssertEqual(settings.inconsistency, "OverheadEndTilt must not be below OverheadTilt")
    }
}
