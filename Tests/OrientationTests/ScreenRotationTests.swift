// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
import XCTest

/// The rotations `orientationctl follow` hands to compositors: the picture turns against the device,
/// clockwise for landscape-right (the device's right edge up), as GNOME and KDE turn for `right-up`.
final class ScreenRotationTests: XCTestCase {
    func testEachInterfaceOrientationHasOneRotationInEveryVocabulary() {
        // Sway counts clockwise, wl_output.transform (and wlr-randr, which prints it) the other way:
        // the same picture is sway's 90 and the protocol's 270 (PhoshTests reads it back from phoc).
        let expected: [(InterfaceOrientation, UInt32, String, UInt32, String, String)] = [
            (.portrait, 0, "normal", 0, "normal", "normal"),
            (.landscapeRight, 90, "90", 3, "270", "right"),
            (.portraitUpsideDown, 180, "180", 2, "180", "inverted"),
            (.landscapeLeft, 270, "270", 1, "90", "left"),
        ]
        for (orientation, degrees, sway, number, wlrRandr, xrandr) in expected {
            XCTAssertEqual(orientation.screenDegrees, degrees, orientation.name)
            XCTAssertEqual(orientation.swayTransform, sway, orientation.name)
            XCTAssertEqual(orientation.wlOutputTransform, number, orientation.name)
            XCTAssertEqual(orientation.wlrRandrTransform, wlrRandr, orientation.name)
            XCTAssertEqual(orientation.xrandrRotation, xrandr, orientation.name)
        }
        XCTAssertEqual(Set(expected.map(\.1)).count, 4, "four distinct rotations")
    }

    func testUnknownHasNoRotation() {
        XCTAssertNil(InterfaceOrientation.unknown.screenDegrees)
        XCTAssertNil(InterfaceOrientation.unknown.swayTransform)
        XCTAssertNil(InterfaceOrientation.unknown.wlrRandrTransform)
        XCTAssertNil(InterfaceOrientation.unknown.wlOutputTransform)
        XCTAssertNil(InterfaceOrientation.unknown.xrandrRotation)
    }

    func testOppositeOrientationsAreHalfATurnApart() {
        let pairs: [(InterfaceOrientation, InterfaceOrientation)] = [(.portrait, .portraitUpsideDown), (.landscapeRight, .landscapeLeft)]
        for (a, b) in pairs {
            XCTAssertEqual(((a.screenDegrees ?? 0) + 180) % 360, b.screenDegrees, "\(a.name) / \(b.name)")
        }
    }
}
