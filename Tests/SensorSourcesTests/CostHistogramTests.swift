// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
@testable import SensorSources

/// The sample feed's cost figures: exact below a millisecond, within 1% above, in constant memory.
final class CostHistogramTests: XCTestCase {
    func testQuantilesAreExactBelowAMillisecond() {
        var h = CostHistogram()
        XCTAssertNil(h.quantile(0.5))
        for us in 1...100 { h.record(microseconds: us) }
        XCTAssertEqual(h.count, 100)
        XCTAssertEqual(h.quantile(0.5), 51)
        XCTAssertEqual(h.quantile(0.95), 96)
        XCTAssertEqual(h.quantile(1), 100)
    }

    func testLongDurationsAreWithinOnePercent() {
        var h = CostHistogram()
        for us in [5_000, 123_456, 9_999_999, 2_000_000_000] { h.record(microseconds: us) }
        XCTAssertEqual(h.quantile(0) ?? 0, 5_000, accuracy: 50)
        XCTAssertEqual(h.quantile(0.25) ?? 0, 123_456, accuracy: 1_235)
        XCTAssertEqual(h.quantile(0.5) ?? 0, 9_999_999, accuracy: 100_000)
        XCTAssertGreaterThan(h.quantile(1) ?? 0, 9.9e8, "beyond the last bucket, still counted at the top")
    }

    func testMemoryStaysTheSameHoweverManySamples() {
        var h = CostHistogram()
        h.record(microseconds: 3)
        let size = h.storageCount
        for i in 0..<2_000_000 { h.record(microseconds: i % 5_000) }
        XCTAssertEqual(h.storageCount, size, "a sample costs no memory of its own")
        XCTAssertEqual(h.count, 2_000_001)
        XCTAssertLessThan(size, 3_000, "a few kilobytes, not a growing array")
    }
}
