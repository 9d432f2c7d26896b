// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import OrientationAPI
import TestSupport

/// Once idle, after start and after the last claim ends, the daemon hands the pages of its program
/// back to the kernel as its loop goes to sleep (`ProgramPages`, Docs/performance.md, "Idle memory by
/// what a phone pays"), and with `--keep-pages` it does not. Seen from outside: what the kernel keeps
/// mapped of the program's code (/proc/PID/smaps). What that saves beside the peer is the memory
/// benchmark's to show.
final class IdlePagesTests: EndToEndTestCase {
    static let line = "go back to the kernel as the loop sleeps"

    func arms(_ log: String) -> Int { log.components(separatedBy: Self.line).count - 1 }

    /// KiB of the daemon's executable code mapped in its process (the Rss of its `r-xp` mappings).
    func residentCode(_ pid: pid_t) -> Int {
        guard let smaps = try? String(contentsOfFile: "/proc/\(pid)/smaps", encoding: .utf8) else { return -1 }
        var total = 0, inCode = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
                inCode = fields.count >= 6 && fields[1] == "r-xp" && fields[5].hasSuffix("/orientationd")
            } else if inCode, fields.first == "Rss:", fields.count >= 2, let kb = Int(fields[1]) {
                total += kb
            }
        }
        return total
    }

    /// MADV_PAGEOUT came with Linux 5.4; an older kernel refuses it.
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
        XCTAssertTrue(waitUntil(3) { self.arms(daemon.log) == 1 }, "once idle after start: \(daemon.log)")
        // Asleep: the advice was given on the way in, and little has touched the code since: the two pages
        // of the poll function that gave it, and what a late wake-up (a client leaving) read back, 64 KB
        // around each page it ran.
        XCTAssertTrue(waitUntil(3) { self.residentCode(daemon.pid) <= 128 }, "code mapped: \(residentCode(daemon.pid)) KiB")
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "BeginGeneratingDeviceOrientationNotifications")
        usleep(300_000)
        XCTAssertEqual(arms(daemon.log), 1, "not while claimed")
        XCTAssertGreaterThan(residentCode(daemon.pid), 128, "claimed, the code it runs is read back")
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "EndGeneratingDeviceOrientationNotifications")
        XCTAssertTrue(waitUntil(3) { self.arms(daemon.log) == 2 }, "once the claim ended: \(daemon.log)")
        XCTAssertTrue(daemon.log.contains("(page-outs so far: "), "the first was given: \(daemon.log)")
        XCTAssertTrue(waitUntil(3) { self.residentCode(daemon.pid) <= 128 }, "code mapped: \(residentCode(daemon.pid)) KiB")
        usleep(1_000_000)
        XCTAssertEqual(arms(daemon.log), 2, "and no more while idle: \(daemon.log)")
        XCTAssertLessThanOrEqual(residentCode(daemon.pid), 128, "nothing touched it while idle")
    }

    func testKeepPagesKeepsThem() throws {
        let daemon = try world.startDaemon(["--verbose", "--keep-pages"])
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "BeginGeneratingDeviceOrientationNotifications")
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "EndGeneratingDeviceOrientationNotifications")
        usleep(1_000_000)
        XCTAssertEqual(arms(daemon.log), 0, daemon.log)
        XCTAssertGreaterThan(residentCode(daemon.pid), 256, "what starting and the claim ran stays mapped")
        XCTAssertTrue(daemon.log.contains("serving"), daemon.log)
    }
}
