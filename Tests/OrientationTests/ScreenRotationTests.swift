// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
import XCTest

/// The rotations `orientationctl follow` hands to compositors: the picture turns against the device,
/// clockwise for landscape-right (the device's right edge up), as GNOME and KDE turn for `right-up`.
final class ScreenRotationTests: XCTestCase {
    func testEachInterfaceOrientationHasOneRotationInEveryVocabulary() {
        let expected: [(InterfaceOrientation, UInt32, String, UInt32, String)] = [
            (.portrait, 0, "normal", 0, "normal"),
            (.landscapeRight, 90, "90", 1, "right"),
            (.portraitUpsideDown, 180, "180", 2, "inverted"),
            (.landscapeLeft, 270, "270", 3, "left"),
        ]
        for (orientation, degrees, transform, number, xrandr) in expected {
            XCTAssertEqual(orientation.screenDegrees, degrees, orientation.name)
            XCTAssertEqual(orientation.wlrootsTransform, transform, orientation.name)
            XCTAssertEqual(orientation.wlOutputTransform, number, orientation.name)
            XCTAssertEqual(orientation.xrandrRotation, xrandr, orientation.name)
        }
        XCTAssertEqual(Set(expected.map(\.1)).count, 4, "four distinct rotations")
    }

    func testUnknownHasNoRotation() {
        XCTAssertNil(InterfaceOrientation.unknown.screenDegrees)
        XCTAssertNil(InterfaceOrientation.unknown.wlrootsTransform)
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
