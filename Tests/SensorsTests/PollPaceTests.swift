// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import Sensors

/// The poll rate: fast while readings change, slow once they have held: 200 ms once the classifier
/// has settled on their pose, a second while it has not.
final class PollPaceTests: XCTestCase {
    func sample(_ t: Double, _ x: Double, _ y: Double, _ z: Double = 0) -> Sample { Sample(t: t, x: x, y: y, z: z) }

    func testReadingsThatHoldOnceSettledSlowThePollsDown() {
        var pace = PollPace(pollHz: 20, stillPollHz: 5)
        XCTAssertEqual(pace.interval(after: sample(0, 0, -9.81)), 50)
        XCTAssertEqual(pace.interval(after: sample(150, 0.2, -9.7)), 50, "noise within the tolerance, held 150 ms of 200")
        XCTAssertEqual(pace.interval(after: sample(200, -0.3, -9.9)), 200)
        XCTAssertEqual(pace.interval(after: sample(5000, 0, -9.81)), 200)
    }

    func testWhileThePoseIsNotSettledTheyMustHoldASecond() {
        var pace = PollPace(pollHz: 20, stillPollHz: 5)
        XCTAssertEqual(pace.interval(after: sample(0, 0, -9.81), settled: false), 50)
        XCTAssertEqual(pace.interval(after: sample(500, 0.2, -9.7), settled: false), 50, "a candidate waits: not yet a second")
        XCTAssertEqual(pace.interval(after: sample(1000, -0.3, -9.9), settled: false), 200)
        var long = PollPace(pollHz: 20, stillPollHz: 5, stillAfterMs: 3000)
        _ = long.interval(after: sample(0, 0, -9.81), settled: false)
        XCTAssertEqual(long.interval(after: sample(1000, 0, -9.81), settled: false), 50, "StillAfterMs longer than a second")
        XCTAssertEqual(long.interval(after: sample(3000, 0, -9.81), settled: false), 200)
    }

    func testAnyMovementBringsTheFastRateBackAtOnce() {
        var pace = PollPace(pollHz: 20, stillPollHz: 5)
        _ = pace.interval(after: sample(0, 0, -9.81))
        XCTAssertEqual(pace.interval(after: sample(2000, 0, -9.81)), 200)
        XCTAssertEqual(pace.interval(after: sample(2200, -2, -9.6)), 20, "a tilt of about 12 degrees, checked after the rest time")
        XCTAssertEqual(pace.interval(after: sample(2220, -2, -9.6)), 50, "still, but only just")
        XCTAssertEqual(pace.interval(after: sample(2270, -1, -9.7)), 50, "moving: the fast rate, no check")
        XCTAssertEqual(pace.interval(after: sample(3270, -1, -9.7)), 200)
    }

    func testTheCheckAfterStillnessFollowsTheRestTimeUpToTheMovingInterval() {
        var pace = PollPace(pollHz: 20, stillPollHz: 2, confirmMs: 80)
        _ = pace.interval(after: sample(0, 0, -9.81))
        XCTAssertEqual(pace.interval(after: sample(1000, 0, -9.81)), 500)
        XCTAssertEqual(pace.interval(after: sample(1500, 9.81, 0)), 50, "never slower than the moving rate")
        var quick = PollPace(pollHz: 20, stillPollHz: 2, confirmMs: 12.5)
        _ = quick.interval(after: sample(0, 0, -9.81))
        _ = quick.interval(after: sample(1000, 0, -9.81))
        XCTAssertEqual(quick.interval(after: sample(1500, 9.81, 0)), 13)
    }

    func testResetStartsFast() {
        var pace = PollPace(pollHz: 20, stillPollHz: 5)
        _ = pace.interval(after: sample(0, 0, -9.81))
        _ = pace.interval(after: sample(2000, 0, -9.81))
        pace.reset()
        XCTAssertEqual(pace.interval(after: sample(2050, 0, -9.81)), 50)
    }

    func testAStillRateAboveTheMovingRateIsTheMovingRate() {
        var pace = PollPace(pollHz: 10, stillPollHz: 50)
        _ = pace.interval(after: sample(0, 0, -9.81))
        XCTAssertEqual(pace.interval(after: sample(3000, 0, -9.81)), 100)
    }

    func testMovesCountReadingsThatStrayAndIsStillSaysWhenTheyHeld() {
        var pace = PollPace(pollHz: 20, stillPollHz: 2, stillAfterMs: 200)
        _ = pace.interval(after: sample(0, 0, -9.81))
        XCTAssertFalse(pace.isStill)
        _ = pace.interval(after: sample(150, 0.2, -9.81))
        XCTAssertFalse(pace.isStill, "held 150 ms of 200")
        _ = pace.interval(after: sample(200, 0.2, -9.81))
        XCTAssertTrue(pace.isStill)
        XCTAssertEqual(pace.moves, 0, "the first reading and those within the tolerance are no move")
        _ = pace.interval(after: sample(250, 9.81, 0))
        XCTAssertEqual(pace.moves, 1)
        XCTAssertFalse(pace.isStill)
        pace.stillAfterMs = 1000
        _ = pace.interval(after: sample(500, 9.81, 0))
        XCTAssertFalse(pace.isStill, "the time to stillness can change")
    }

    /// The reading that holds the one before and made the classifier report its pose ends the turn at
    /// once; one that only holds (a turn starting slowly, its pose not reported) must hold `StillAfterMs`.
    func testAReportedPoseAtRestEndsTheFastPollsAtOnce() {
        var pace = PollPace(pollHz: 20, stillPollHz: 1.43, stillAfterMs: 200)
        _ = pace.interval(after: sample(0, 0, -9.81))
        XCTAssertEqual(pace.interval(after: sample(50, -9.81, 0)), 50, "a step: moving")
        XCTAssertEqual(pace.interval(after: sample(70, -9.81, 0), settled: true, reported: true), 700, "reported at rest")
        XCTAssertTrue(pace.isStill)

        var slow = PollPace(pollHz: 20, stillPollHz: 1.43, stillAfterMs: 200)
        _ = slow.interval(after: sample(0, 0, -9.81))
        XCTAssertEqual(slow.interval(after: sample(50, -0.3, -9.8), settled: true), 50, "held 50 ms, nothing reported")
        XCTAssertEqual(slow.interval(after: sample(100, -1.5, -9.7), settled: true), 50, "it moves on")
        XCTAssertEqual(slow.interval(after: sample(150, -1.6, -9.7), settled: false, reported: true), 50,
                       "a report with a candidate left is not the end")
    }

    func testADecimalStillRateIsRoundedUpToTheMillisecond() {
        let peerLike = PollPace(pollHz: 20, stillPollHz: 1.43)
        XCTAssertEqual(peerLike.stillIntervalMs, 700, "1.43 Hz: iio-sensor-proxy's 700 ms, never more often than asked")
        XCTAssertEqual(PollPace(pollHz: 20, stillPollHz: 3).stillIntervalMs, 334)
        XCTAssertEqual(PollPace(pollHz: 20, stillPollHz: 1.6).stillIntervalMs, 625, "an exact interval stays as it is")
        XCTAssertEqual(peerLike.stillHzText, "1.43")
        XCTAssertEqual(PollPace(pollHz: 20, stillPollHz: 2).stillHzText, "2")
        XCTAssertEqual(PollPace(pollHz: 20, stillPollHz: 0.5).stillIntervalMs, 2000)
    }
}
