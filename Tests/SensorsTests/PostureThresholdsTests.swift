import XCTest
import Orientation
@testable import Sensors

/// P18's hinge thresholds (posture.md, source 1): laptop below 190°, stand or tent from 200°, back to
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
}
