// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import Sensors

/// Near above the level; once near, far only below 90 % of it.
final class ProximityThresholdTests: XCTestCase {
    func testNearAboveTheLevelAndFarOnlyBelowTheMargin() {
        var t = ProximityThreshold(nearLevel: 100)
        XCTAssertFalse(t.classify(100), "at the level is not above it")
        XCTAssertTrue(t.classify(101))
        XCTAssertTrue(t.classify(95), "between 90 % and the level a near reading stays near")
        XCTAssertTrue(t.classify(90), "90 % is not below the margin")
        XCTAssertFalse(t.classify(89))
        XCTAssertFalse(t.classify(95), "from far, 95 is not above the level")
        XCTAssertTrue(t.classify(150))
    }

    func testResetDecidesFromFar() {
        var t = ProximityThreshold(nearLevel: 10)
        XCTAssertTrue(t.classify(20))
        t.reset()
        XCTAssertFalse(t.near)
        XCTAssertFalse(t.classify(9.5))
    }
}
