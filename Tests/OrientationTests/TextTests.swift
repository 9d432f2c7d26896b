// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
import XCTest

/// The byte searches that stand in for the string-processing runtime's (Sources/Orientation/Text.swift).
final class TextTests: XCTestCase {
    func testIncludes() {
        XCTAssertTrue("org.freedesktop.PolicyKit1.Error.NotAuthorized: refused".includes("NotAuthorized"))
        XCTAssertTrue("['a@b', 'c@d']".includes("'c@d'"))
        XCTAssertFalse("['a@b', 'c@dd']".includes("'c@d'"))
        XCTAssertTrue("abc".includes("abc"), "the whole text")
        XCTAssertTrue("abc".includes("c"), "at the end")
        XCTAssertFalse("ab".includes("abc"), "longer than the text")
        XCTAssertFalse("".includes("a"))
        XCTAssertTrue("abc".includes(""), "the empty string occurs everywhere")
        XCTAssertTrue("aaab".includes("aab"), "a false start before the match")
        XCTAssertTrue("écran tourné".includes("tourné"), "bytes beyond ASCII")
    }

    func testReplacingEvery() {
        XCTAssertEqual(#"a"b\c"#.replacingEvery("\\", with: "\\\\").replacingEvery("\"", with: "\\\""), #"a\"b\\c"#)
        XCTAssertEqual("aaaa".replacingEvery("aa", with: "b"), "bb", "left to right, without overlap")
        XCTAssertEqual("xax".replacingEvery("x", with: ""), "a")
        XCTAssertEqual("abc".replacingEvery("", with: "-"), "abc", "nothing replaces the empty string")
        XCTAssertEqual("abc".replacingEvery("abcd", with: "-"), "abc")
        XCTAssertEqual("".replacingEvery("a", with: "b"), "")
        XCTAssertEqual("key=1 key=2".replacingEvery("key", with: "clé"), "clé=1 clé=2")
    }
}
