// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@testable import Policy
import XCTest

/// Window and controller numbers are never reused while the daemon runs, so they must never wrap.
final class IdentifierTests: XCTestCase {
    func testObjectNumbersGoPast32Bits() throws {
        let f = Fixture()
        f.policy.nextWindow = UInt64(UInt32.max)
        f.policy.nextController = UInt64(UInt32.max)
        let first = try f.window()
        let second = try f.window()
        XCTAssertEqual(second.rawValue, first.rawValue + 1)
        XCTAssertGreaterThan(second.rawValue, UInt64(UInt32.max))
        XCTAssertEqual(try f.vc().rawValue, UInt64(UInt32.max))
        XCTAssertEqual(try f.vc().rawValue, UInt64(UInt32.max) + 1)
    }
}
