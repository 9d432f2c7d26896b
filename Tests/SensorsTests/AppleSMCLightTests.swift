// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import Sensors

/// `(a,b)` from applesmc's `light`: the brighter of the two, as a percentage of 255.
final class AppleSMCLightTests: XCTestCase {
    func testTheBrighterOfTheTwoAsAPercentageOf255() {
        XCTAssertEqual(AppleSMCLight.level("(10,20)\n"), 20.0 / 255 * 100)
        XCTAssertEqual(AppleSMCLight.level("(255,0)"), 100)
        XCTAssertEqual(AppleSMCLight.level("( 0 , 0 )"), 0)
    }

    func testAnythingElseIsNoLevel() {
        for text in ["", "12", "(1)", "(1,2,3)", "(a,b)", "1,2", "(1,2"] {
            XCTAssertNil(AppleSMCLight.level(text), text)
        }
    }
}
