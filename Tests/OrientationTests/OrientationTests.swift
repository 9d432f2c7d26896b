// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
import XCTest

final class DeviceOrientationTests: XCTestCase {
    func testRawValuesAreUIKits() {
        let expected: [(DeviceOrientation, UInt32, String)] = [
            (.unknown, 0, "unknown"), (.portrait, 1, "portrait"), (.portraitUpsideDown, 2, "portrait-upside-down"),
            (.landscapeLeft, 3, "landscape-left"), (.landscapeRight, 4, "landscape-right"),
            (.faceUp, 5, "face-up"), (.faceDown, 6, "face-down"),
        ]
        XCTAssertEqual(DeviceOrientation.allCases.count, expected.count)
        for (orientation, raw, name) in expected {
            XCTAssertEqual(orientation.rawValue, raw, name)
            XCTAssertEqual(orientation.name, name)
            XCTAssertEqual(DeviceOrientation(rawValue: raw), orientation)
        }
        XCTAssertNil(DeviceOrientation(rawValue: 7))
    }

    func testDeviceToInterfaceMappingIsByValue() {
        // UIKit crosses the landscape names but keeps the values: device landscape-left (3) is interface landscape-right (3).
        XCTAssertEqual(DeviceOrientation.portrait.interfaceOrientation, .portrait)
        XCTAssertEqual(DeviceOrientation.portraitUpsideDown.interfaceOrientation, .portraitUpsideDown)
        XCTAssertEqual(DeviceOrientation.landscapeLeft.interfaceOrientation, .landscapeRight)
        XCTAssertEqual(DeviceOrientation.landscapeRight.interfaceOrientation, .landscapeLeft)
        for raw: UInt32 in 1...4 {
            XCTAssertEqual(DeviceOrientation(rawValue: raw)?.interfaceOrientation?.rawValue, raw)
        }
        for d: DeviceOrientation in [.unknown, .faceUp, .faceDown] {
            XCTAssertNil(d.interfaceOrientation, d.name)
        }
    }

    func testParsingNamesAndNumbers() throws {
        for d in DeviceOrientation.allCases {
            XCTAssertEqual(try DeviceOrientation(parsing: d.name), d)
            XCTAssertEqual(try DeviceOrientation(parsing: "\(d.rawValue)"), d)
            XCTAssertEqual(try DeviceOrientation(parsing: d.name.uppercased()), d)
        }
    }

    func testParsingErrorsSayWhatIsAccepted() {
        for bad in ["7", "sideways", "", "-1"] {
            XCTAssertThrowsError(try DeviceOrientation(parsing: bad), bad) { error in
                let message = (error as? OrientationParseError)?.message ?? ""
                XCTAssertTrue(message.contains("'\(bad)'"), message)
                XCTAssertTrue(message.contains("accepted"), message)
                XCTAssertTrue(message.contains("face-down (6)"), message)
            }
        }
    }
}

final class InterfaceOrientationTests: XCTestCase {
    func testRawValuesNamesAndMasks() {
        let expected: [(InterfaceOrientation, UInt32, String, UInt32)] = [
            (.unknown, 0, "unknown", 0), (.portrait, 1, "portrait", 2),
            (.portraitUpsideDown, 2, "portrait-upside-down", 4),
            (.landscapeRight, 3, "landscape-right", 8), (.landscapeLeft, 4, "landscape-left", 16),
        ]
        XCTAssertEqual(InterfaceOrientation.allCases.count, expected.count)
        for (orientation, raw, name, mask) in expected {
            XCTAssertEqual(orientation.rawValue, raw, name)
            XCTAssertEqual(orientation.name, name)
            XCTAssertEqual(orientation.mask.rawValue, mask, name)
            XCTAssertEqual(orientation.isLandscape, raw >= 3, name)
        }
        XCTAssertNil(InterfaceOrientation(rawValue: 5))
    }

    func testFallbackOrder() {
        XCTAssertEqual(InterfaceOrientation.fallbackOrder, [.portrait, .landscapeRight, .landscapeLeft, .portraitUpsideDown])
        XCTAssertEqual(OrientationMask.all.firstInFallbackOrder, .portrait)
        XCTAssertEqual(OrientationMask.landscape.firstInFallbackOrder, .landscapeRight)
        XCTAssertEqual(OrientationMask([.landscapeLeft, .portraitUpsideDown]).firstInFallbackOrder, .landscapeLeft)
        XCTAssertEqual(OrientationMask.portraitUpsideDown.firstInFallbackOrder, .portraitUpsideDown)
        XCTAssertNil(OrientationMask().firstInFallbackOrder)
    }

    func testParsing() throws {
        for o in InterfaceOrientation.allCases {
            XCTAssertEqual(try InterfaceOrientation(parsing: o.name), o)
            XCTAssertEqual(try InterfaceOrientation(parsing: "\(o.rawValue)"), o)
        }
        XCTAssertThrowsError(try InterfaceOrientation(parsing: "face-up")) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("'face-up'") && message.contains("accepted"), message)
        }
        XCTAssertThrowsError(try InterfaceOrientation(parsing: "5"))
    }
}

final class OrientationMaskTests: XCTestCase {
    func testConstants() {
        XCTAssertEqual(OrientationMask.portrait.rawValue, 2)
        XCTAssertEqual(OrientationMask.portraitUpsideDown.rawValue, 4)
        XCTAssertEqual(OrientationMask.landscapeRight.rawValue, 8)
        XCTAssertEqual(OrientationMask.landscapeLeft.rawValue, 16)
        XCTAssertEqual(OrientationMask.landscape.rawValue, 24)
        XCTAssertEqual(OrientationMask.all.rawValue, 30)
        XCTAssertEqual(OrientationMask.allButUpsideDown.rawValue, 26)
        XCTAssertEqual(Idiom.phone.defaultMask.rawValue, 26)
        XCTAssertEqual(Idiom.tablet.defaultMask.rawValue, 30)
    }

    func testValidity() {
        for raw: UInt32 in 0...64 {
            let expected = raw != 0 && raw & ~30 == 0
            XCTAssertEqual(OrientationMask(rawValue: raw).isValid, expected, "\(raw)")
        }
        XCTAssertFalse(OrientationMask(rawValue: UInt32.max).isValid)
    }

    func testContainsAndNames() {
        let mask = OrientationMask(rawValue: 18)
        XCTAssertTrue(mask.contains(.portrait))
        XCTAssertTrue(mask.contains(.landscapeLeft))
        XCTAssertFalse(mask.contains(.landscapeRight))
        XCTAssertFalse(OrientationMask.all.contains(.unknown))
        XCTAssertEqual(mask.orientations, [.portrait, .landscapeLeft])
        XCTAssertEqual(mask.names, ["portrait", "landscape-left"])
        XCTAssertEqual(mask.description, "portrait|landscape-left (18)")
        XCTAssertEqual(OrientationMask(rawValue: 0).description, "0")
        XCTAssertEqual(OrientationMask(rawValue: 32).description, "32")
    }

    func testParsingAcceptedForms() throws {
        let cases: [(String, UInt32)] = [
            ("landscape", 24), ("all", 30), ("all-but-upside-down", 26),
            ("portrait|landscape-left", 18), ("portrait,landscape-left", 18), ("26", 26),
            ("portrait", 2), ("portrait-upside-down", 4), ("landscape-right", 8), ("landscape-left", 16),
            ("2", 2), ("30", 30), (" 24 ", 24), ("Portrait | Landscape-Left", 18),
            ("landscape,portrait", 26), ("landscape|landscape-left", 24), ("all,portrait", 30),
        ]
        for (text, raw) in cases {
            XCTAssertEqual(try OrientationMask(parsing: text).rawValue, raw, "'\(text)'")
        }
    }

    func testParsingRejectsBadInputWithAnExplanation() {
        let cases: [(text: String, mentions: String)] = [
            ("0", "0 is not a valid orientation mask"),
            ("32", "32 is not a valid orientation mask"),
            ("1", "1 is not a valid orientation mask"),
            ("31", "31 is not a valid orientation mask"),
            ("sideways", "'sideways'"),
            ("portrait|sideways", "'sideways'"),
            ("unknown", "'unknown'"),
            ("", "names no orientation"),
            ("  ", "names no orientation"),
            (",|", "names no orientation"),
        ]
        for (text, mention) in cases {
            XCTAssertThrowsError(try OrientationMask(parsing: text), "'\(text)'") { error in
                guard let error = error as? OrientationParseError else { return XCTFail("wrong error type for '\(text)'") }
                XCTAssertTrue(error.message.contains(mention), "'\(text)': \(error.message)")
                // What is accepted: the numeric rule and every name.
                for accepted in ["accepted", "subset of 30", "portrait", "landscape-right", "landscape-left",
                                 "portrait-upside-down", "all-but-upside-down"] {
                    XCTAssertTrue(error.message.contains(accepted), "'\(text)' lacks \(accepted): \(error.message)")
                }
                XCTAssertEqual(error.description, error.message)
            }
        }
    }

    func testParsingRoundTripsEveryValidMask() throws {
        for raw: UInt32 in 1...30 where OrientationMask(rawValue: raw).isValid {
            let mask = OrientationMask(rawValue: raw)
            XCTAssertEqual(try OrientationMask(parsing: mask.names.joined(separator: "|")), mask)
            XCTAssertEqual(try OrientationMask(parsing: mask.names.joined(separator: ",")), mask)
            XCTAssertEqual(try OrientationMask(parsing: "\(raw)"), mask)
        }
    }
}

final class IdiomTests: XCTestCase {
    func testParsing() throws {
        XCTAssertEqual(try Idiom(parsing: "phone"), .phone)
        XCTAssertEqual(try Idiom(parsing: "Tablet"), .tablet)
        XCTAssertThrowsError(try Idiom(parsing: "watch")) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("'watch'") && message.contains("phone, tablet"), message)
        }
    }
}
