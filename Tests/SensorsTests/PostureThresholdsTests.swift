// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import Orientation
@testable import Sensors

/// P18's hinge thresholds (Docs/sensors.md, "Posture", source 1): laptop below 190°, stand or tent from 200°, back to
/// laptop below 180°; tablet from 350°, back below 330°; tent by the display or the keyboard.
final class PostureThresholdsTests: XCTestCase {
    let t = PostureThresholds()

    /// The postures a fold through `angles` gives, each from the one before.
    func fold(_ angles: [Double], keyboard: Double? = nil, upsideDown: Bool = false) -> [Posture] {
        var previous = Posture.unknown
        return angles.map { angle in
            previous = t.posture(hinge: angle, keyboard: keyboard, displayUpsideDown: upsideDown, previous: previous)
            return previous
        }
    }

    func testAFoldFromLaptopToTabletAndBackCrossesEachThresholdPastItsHysteresis() {
        XCTAssertEqual(fold([110, 189, 195, 200, 300, 345, 350, 340, 331, 329, 250, 185, 179, 0]),
                       [.laptop, .laptop, .laptop, .stand, .stand, .stand, .tablet, .tablet, .tablet, .stand, .stand, .stand,
                        .laptop, .laptop])
    }

    func testTentByTheDisplayOrTheKeyboard() {
        XCTAssertEqual(fold([100, 280], upsideDown: true), [.laptop, .tent])
        XCTAssertEqual(fold([100, 280], keyboard: 60), [.laptop, .tent])
        XCTAssertEqual(fold([100, 280], keyboard: 10), [.laptop, .stand])
    }

    func testTheFirstReadingHasNoHysteresis() {
        XCTAssertEqual(fold([189]), [.laptop])
        XCTAssertEqual(fold([190]), [.stand])
        XCTAssertEqual(fold([340]), [.tablet])
    }

    func testThresholdsThatOverlapAreRefused() {
        var bad = PostureThresholds()
        bad.laptopAngle = 330
        XCTAssertEqual(bad.inconsistency, "LaptopAngle + 2 × Hysteresis must be below TabletAngle")
        XCTAssertNil(t.inconsistency)
    }

    /// Source 2: the hinge angle from the display's and the base's readings, which agree with the lid closed.
    func testTheHingeAngleFromTwoAccelerometers() throws {
        func angle(display: Double, base: Double = -90) -> Double? {
            // Each half's reading turned `degrees` about the hinge (the x axis), from +y.
            func reading(_ degrees: Double) -> (x: Double, y: Double, z: Double) {
                (0, 9.81 * cos(degrees * .pi / 180), 9.81 * sin(degrees * .pi / 180))
            }
            return HingeFromAccelerometers.angle(display: reading(display), base: reading(base))
        }
        XCTAssertEqual(try XCTUnwrap(angle(display: -90)), 0, accuracy: 1e-9, "closed: both read the same")
        XCTAssertEqual(try XCTUnwrap(angle(display: 180)), 90, accuracy: 1e-9, "the display upright over the base on a desk")
        XCTAssertEqual(try XCTUnwrap(angle(display: 160)), 110, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(angle(display: 90)), 180, accuracy: 1e-9, "flat open")
        XCTAssertEqual(try XCTUnwrap(angle(display: -85)), 355, accuracy: 1e-9, "folded back")
        XCTAssertEqual(try XCTUnwrap(angle(display: 0, base: 175)), 175, accuracy: 1e-9, "whatever the base's pose")
        // The hinge within 25° of vertical: no angle.
        XCTAssertNil(HingeFromAccelerometers.angle(display: (-9.81, 0, 0), base: (-9.81, 0, 0)))
        XCTAssertNil(HingeFromAccelerometers.angle(display: (9.81 * cos(0.35), -9.81 * sin(0.35), 0), base: (0, 0, -9.81)))
        XCTAssertNotNil(HingeFromAccelerometers.angle(display: (9.81 * cos(0.5), -9.81 * sin(0.5), 0), base: (0, 0, -9.81)))
        XCTAssertNil(HingeFromAccelerometers.angle(display: (0, 0, 0), base: (0, 0, -9.81)), "no length")
    }
}
