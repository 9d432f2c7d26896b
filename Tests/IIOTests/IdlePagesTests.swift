// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import OrientationAPI
import TestSupport

/// Once idle, after start and after the last claim ends, the daemon hands the pages of its program
/// back to the kernel (`ProgramPages`, Docs/performance.md, "Idle memory by what a phone pays"), and
/// with `--keep-pages` it does not. What that saves is the memory benchmark's to show.
final class IdlePagesTests: EndToEndTestCase {
    static let line = "of the program paged out"

    func pageOuts(_ log: String) -> Int { log.components(separatedBy: Self.line).count - 1 }

    /// MADV_PAGEOUT came with Linux 5.4; an older kernel refuses it, and nothing is logged.
    func requirePageOut() throws {
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let parts = release.split(separator: ".").prefix(2).compactMap { Int($0.prefix { $0.isNumber }) }
        if parts.count == 2, (parts[0], parts[1]) < (5, 4) { throw XCTSkip("Linux \(release) has no MADV_PAGEOUT") }
    }

    func testThePagesGoBackAfterStartAndAfterEachClaim() throws {
        try requirePageOut()
        let daemon = try world.startDaemon(["--verbose"])
        XCTAssertTrue(waitUntil(3) { self.pageOuts(daemon.log) == 1 }, "once idle after start: \(daemon.log)")
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "BeginGeneratingDeviceOrientationNotifications")
        usleep(300_000)
        XCTAssertEqual(pageOuts(daemon.log), 1, "not while claimed")
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "EndGeneratingDeviceOrientationNotifications")
        XCTAssertTrue(waitUntil(3) { self.pageOuts(daemon.log) == 2 }, "once the claim ended: \(daemon.log)")
        usleep(1_000_000)
        XCTAssertEqual(pageOuts(daemon.log), 2, "and no more while idle: \(daemon.log)")
    }

    func testKeepPagesKeepsThem() throws {
        let daemon = try world.startDaemon(["--verbose", "--keep-pages"])
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "BeginGeneratingDeviceOrientationNotifications")
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "EndGeneratingDeviceOrientationNotifications")
        usleep(500_000)
        XCTAssertEqual(pageOuts(daemon.log), 0, daemon.log)
        XCTAssertTrue(daemon.log.contains("serving"), daemon.log)
    }
}
