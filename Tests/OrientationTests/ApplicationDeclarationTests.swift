// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import Orientation

/// Application ids and the orientations a desktop file declares (applications.md).
final class ApplicationDeclarationTests: XCTestCase {
    func testApplicationIDs() {
        for valid in ["org.gnome.Maps", "firefox", "com.example.App_2", "a", "org.gnome.Maps-Devel", String(repeating: "a", count: 255)] {
            XCTAssertEqual(ApplicationID(rawValue: valid)?.rawValue, valid, valid)
        }
        for invalid in ["", ".hidden", "-flag", "a..b", "../etc/passwd", "org/gnome", "app id", "é", "a\u{0}b",
                        "app.desktop\n", String(repeating: "a", count: 256)] {
            XCTAssertNil(ApplicationID(rawValue: invalid), invalid)
        }
        XCTAssertThrowsError(try ApplicationID(parsing: "../x")) { error in
            XCTAssertTrue("\(error)".contains("not an application id"), "\(error)")
        }
    }

    func testOrientationdsKeyTakesMaskNamesAsADesktopFileList() throws {
        XCTAssertEqual(try ApplicationDeclaration.mask(orientationd: "portrait;landscape;"), [.portrait, .landscape])
        XCTAssertEqual(try ApplicationDeclaration.mask(orientationd: "landscape-left"), .landscapeLeft)
        XCTAssertEqual(try ApplicationDeclaration.mask(orientationd: " all ; "), .all)
        for bad in ["", ";", "sideways;", "0", "32"] {
            XCTAssertThrowsError(try ApplicationDeclaration.mask(orientationd: bad), bad)
        }
    }

    /// Lomiri's values one by one, with Qt's meanings.
    func testLomirisValuesOneByOne() throws {
        XCTAssertEqual(try ApplicationDeclaration.mask(lomiri: "portrait"), .portrait)
        XCTAssertEqual(try ApplicationDeclaration.mask(lomiri: "invertedPortrait"), .portraitUpsideDown)
        XCTAssertEqual(try ApplicationDeclaration.mask(lomiri: "landscape"), .landscapeLeft,
                       "Qt's landscape: turned 90° clockwise, the left edge up, which shows landscape-left")
        XCTAssertEqual(try ApplicationDeclaration.mask(lomiri: "invertedLandscape"), .landscapeRight)
        XCTAssertEqual(try ApplicationDeclaration.mask(lomiri: "primary"), .portrait)
        XCTAssertEqual(try ApplicationDeclaration.mask(lomiri: "landscape,invertedLandscape"), .landscape)
        XCTAssertEqual(try ApplicationDeclaration.mask(lomiri: "portrait;landscape;"), [.portrait, .landscapeLeft])
        XCTAssertEqual(try ApplicationDeclaration.mask(lomiri: "INVERTEDPORTRAIT"), .portraitUpsideDown)
        for bad in ["", ",", "upside-down", "landscape-left"] {
            XCTAssertThrowsError(try ApplicationDeclaration.mask(lomiri: bad), bad)
        }
    }
}
