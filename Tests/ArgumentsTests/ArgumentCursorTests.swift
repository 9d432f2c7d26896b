// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Arguments
import XCTest

/// Both tools read `--flag value` and `--flag=value` alike, and never split what is not a long option.
final class ArgumentCursorTests: XCTestCase {
    func testAValueFollowsItsFlagOrAnEqualsSign() {
        var cursor = ArgumentCursor(["--address", "unix:path=/x", "--config=/etc/a=b.conf", "--state-dir=", "status"])
        XCTAssertEqual(cursor.next(), "--address")
        XCTAssertEqual(cursor.value(), "unix:path=/x", "an '=' inside a separate value is the value's")
        XCTAssertEqual(cursor.next(), "--config")
        XCTAssertEqual(cursor.value(), "/etc/a=b.conf", "split at the first '=' only")
        XCTAssertEqual(cursor.next(), "--state-dir")
        XCTAssertEqual(cursor.value(), "", "an empty value is a value")
        XCTAssertEqual(cursor.next(), "status")
        XCTAssertNil(cursor.next())
    }

    func testAMissingValueIsNil() {
        var cursor = ArgumentCursor(["--sensor"])
        XCTAssertEqual(cursor.next(), "--sensor")
        XCTAssertNil(cursor.value())
    }

    func testAFlagGivenAValueIsReported() {
        var cursor = ArgumentCursor(["--json=yes", "--json"])
        XCTAssertEqual(cursor.next(), "--json")
        XCTAssertTrue(cursor.hasUnusedValue)
        XCTAssertEqual(cursor.next(), "--json")
        XCTAssertFalse(cursor.hasUnusedValue)
    }

    func testShortOptionsSeparatorsAndOperandsStayWhole() {
        var cursor = ArgumentCursor(["-h", "--", "-9.81", "a=b"])
        XCTAssertEqual(cursor.next(), "-h")
        XCTAssertEqual(cursor.next(), "--")
        XCTAssertEqual(cursor.peek, "-9.81")
        XCTAssertEqual(cursor.remaining, ["-9.81", "a=b"])
        XCTAssertEqual(cursor.next(), "-9.81")
        XCTAssertEqual(cursor.next(), "a=b")
        XCTAssertFalse(cursor.hasUnusedValue)
    }
}
