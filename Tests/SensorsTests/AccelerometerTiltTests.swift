// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import Orientation
@testable import Sensors

/// The peer's five tilts from one sample, and a claim's first reading taken at once.
final class AccelerometerTiltTests: XCTestCase {
    func testTheScreenWithinTwentyDegreesOfUprightIsVertical() {
        XCTAssertEqual(AccelerometerTilt(x: 0, y: -9.81, z: 0), .vertical)
        XCTAssertEqual(AccelerometerTilt(x: 0, y: -9.81, z: 9.81 * tan(20 * .pi / 180)), .vertical, "20° exactly")
        XCTAssertEqual(AccelerometerTilt(x: -9.81, y: 0, z: -2), .vertical, "any edge up")
    }

    func testLeaningBackOrForwardIsTiltedUpOrDown() {
        XCTAssertEqual(AccelerometerTilt(x: 0, y: -9.81, z: 9.81 * tan(21 * .pi / 180)), .tiltedUp)
        XCTAssertEqual(AccelerometerTilt(x: -1000, y: 0, z: -1000), .tiltedDown, "45° forward, in any unit")
        XCTAssertEqual(AccelerometerTilt(x: 0, y: -9.81, z: 9.81 * tan(69 * .pi / 180)), .tiltedUp)
    }

    func testFromSeventyDegreesTheScreenLiesFaceUpOrDown() {
        XCTAssertEqual(AccelerometerTilt(x: 0, y: -1, z: 1 * tan(70 * .pi / 180)), .faceUp)
        XCTAssertEqual(AccelerometerTilt(x: 0, y: 0, z: 9.81), .faceUp)
        XCTAssertEqual(AccelerometerTilt(x: 0.5, y: 0, z: -9.81), .faceDown)
    }

    func testASampleOfNoLengthOrNotFiniteIsUndefined() {
        XCTAssertEqual(AccelerometerTilt(x: 0, y: 0, z: 0), .undefined)
        XCTAssertEqual(AccelerometerTilt(x: .nan, y: -9.81, z: 0), .undefined)
        XCTAssertEqual(AccelerometerTilt(x: 0, y: .infinity, z: 0), .undefined)
    }

    func testTheWordsAreThePeers() {
        XCTAssertEqual(AccelerometerTilt.allCases.map(\.rawValue),
                       ["undefined", "vertical", "tilted-up", "tilted-down", "face-up", "face-down"])
    }

    // MARK: A claim's first reading

    func testAnAdoptedSampleIsThePoseAtOnceWhateverItsMagnitude() {
        var classifier = Classifier()
        XCTAssertEqual(classifier.adopt(Sample(t: 0, x: -256, y: 0, z: 0)), .landscapeLeft, "26 g, taken as it is")
        XCTAssertEqual(classifier.reported, .landscapeLeft)
        XCTAssertNil(classifier.adopt(Sample(t: 10, x: -256, y: 0, z: 0)), "the same pose is not reported twice")
        // From there on a change settles as ever: the off-scale magnitude holds it off until gravity is learned.
        XCTAssertNil(classifier.add(Sample(t: 20, x: 0, y: -256, z: 0)))
    }

    func testAnAdoptedSampleOfNoLengthIsTakenAsAnyOther() {
        var classifier = Classifier()
        XCTAssertNil(classifier.adopt(Sample(t: 0, x: 0, y: 0, z: 0)))
        XCTAssertEqual(classifier.reported, .unknown)
    }
}
