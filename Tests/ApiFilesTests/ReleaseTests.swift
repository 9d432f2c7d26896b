// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import OrientationAPI
import TestSupport

/// `--version` of both tools names the release the Debian package is built as.
final class ReleaseTests: XCTestCase {
    func testBothToolsPrintTheReleaseThePackageNames() throws {
        let changelog = try XCTUnwrap(readPackageFile("debian/changelog"))
        let packaged = try XCTUnwrap(changelog.firstMatch(of: /^orientationd \(([^)]+)\)/)?.output.1)
        XCTAssertEqual(String(packaged), Release.version, "debian/changelog and Release.version name different releases")
        for program in ["orientationd", "orientationctl"] {
            let result = runTool([programsDirectory() + "/" + program, "--version"])
            XCTAssertEqual(result.status, 0, "\(program) --version: \(result.stderr)")
            XCTAssertEqual(result.stdout, "\(program) \(packaged)\n")
        }
    }
}
