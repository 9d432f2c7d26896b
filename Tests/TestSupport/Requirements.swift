// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
@preconcurrency import Glibc

/// The error a test throws when something it needs (a tool, root, a namespace) is missing:
/// a skip on a developer's machine, but a failure under CI (the `CI` environment variable
/// set, as `.ci/run` does), where everything is installed and the run is root, so a green
/// run never hides a test that did not run.
public func unavailable(_ reason: String, file: StaticString = #filePath, line: UInt = #line) -> XCTSkip {
    if getenv("CI") != nil { XCTFail("needed under CI: \(reason)", file: file, line: line) }
    return XCTSkip(reason)
}
