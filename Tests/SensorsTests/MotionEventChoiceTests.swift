// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
@testable import Sensors

/// Which event attributes are a motion detector, named as drivers name them.
final class MotionEventChoiceTests: XCTestCase {
    func testTheBestKindIsChosenWithEveryAttributeOfIt() {
        // mma8452: a magnitude (motion) event for all axes at once, and free fall.
        XCTAssertEqual(MotionEventChoice.enableAttributes(in: ["in_accel_x&y&z_mag_falling_en", "in_accel_x&y&z_mag_falling_value",
                                                               "in_accel_x&y&z_mag_rising_en", "in_accel_x&y&z_mag_rising_value"]),
                       ["in_accel_x&y&z_mag_rising_en"])
        // An activity detector beats a threshold; per-axis attributes are all enabled.
        XCTAssertEqual(MotionEventChoice.enableAttributes(in: ["in_accel_x_thresh_rising_en", "in_accel_mag_adaptive_rising_en"]),
                       ["in_accel_mag_adaptive_rising_en"])
        XCTAssertEqual(MotionEventChoice.enableAttributes(in: ["in_accel_z_thresh_rising_en", "in_accel_x_thresh_rising_en",
                                                               "in_accel_y_thresh_rising_en", "in_accel_x_thresh_rising_value"]),
                       ["in_accel_x_thresh_rising_en", "in_accel_y_thresh_rising_en", "in_accel_z_thresh_rising_en"])
        // bmc150 / kxcjk-1013: a slope ("any motion") threshold in either direction.
        XCTAssertEqual(MotionEventChoice.enableAttributes(in: ["in_accel_thresh_either_en", "in_accel_thresh_either_period"]),
                       ["in_accel_thresh_either_en"])
    }

    func testFallingEventsOtherChannelsAndValuesAreNoMotionEvent() {
        XCTAssertEqual(MotionEventChoice.enableAttributes(in: []), [])
        XCTAssertEqual(MotionEventChoice.enableAttributes(in: ["in_accel_x&y&z_mag_falling_en", "in_accel_mag_adaptive_falling_en"]), [])
        XCTAssertEqual(MotionEventChoice.enableAttributes(in: ["in_anglvel_x_thresh_rising_en", "in_steps_change_en",
                                                               "in_accel_x_thresh_rising_value", "in_activity_still_thresh_rising_en"]), [])
    }
}
