// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// Docs/security.md: 1,000 connect / register / disconnect cycles leave no object, claim or byte behind.
final class ConnectCycleTests: DaemonTestCase {
    /// The daemon's resident memory, or only its anonymous part (the heap, where a leak grows, without
    /// the program's pages that the cycles touch for the first time).
    private func residentKB(_ field: String = "VmRSS") -> Int {
        guard let pid = daemon?.pid else { return 0 }
        let line = readText("/proc/\(pid)/status").split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    private func cycle() throws {
        let c = try Connection(bus: .address(bus.address))
        try claim(c)
        let window = try registerWindow(c)
        let nav = try createController(c, "navigation")
        let top = try createController(c, mask: 24)
        try ctl(c, nav, "PushViewController", [.objectPath(top)])
        try setRoot(c, window, nav)
        c.close()
    }

    func testThousandCyclesLeaveNothingBehind() throws {
        for _ in 0..<100 { try cycle() }  // warm up allocator pools and caches
        XCTAssertTrue(waitUntil { !tree().contains("/window/") })
        let before = residentKB("RssAnon")
        for _ in 0..<1_000 { try cycle() }
        XCTAssertTrue(waitUntil { !tree().contains("/window/") && !tree().contains("/controller/") },
                      "objects left behind:\n\(tree())")
        XCTAssertEqual(try o("KeyWindow"), "/")
        XCTAssertEqual(try u("DeviceOrientation"), 0, "every claim ended")
        XCTAssertTrue(daemon?.isRunning ?? false)
        let growth = residentKB("RssAnon") - before
        // A leak of even 300 bytes a cycle would show as 300 KB here.
        XCTAssertLessThan(growth, 256, "anonymous resident memory grew by \(growth) KB over 1,000 cycles")
    }

    /// A client with thousands of objects leaving gives their memory back, not only their objects.
    /// Anonymous memory is what the objects took: the program's own pages, which an idle daemon hands
    /// back and the calls read again, are the file's, not theirs.
    func testALargeDepartureGivesItsMemoryBack() throws {
        try cycle()
        XCTAssertTrue(waitUntil { !tree().contains("/window/") })
        let before = residentKB("RssAnon")
        let c = try Connection(bus: .address(bus.address))
        for _ in 0..<4_000 { _ = try call(c, Orientation1.managerPath, Orientation1.managerInterface, "CreateController", [.string("view")]) }
        let full = residentKB("RssAnon")
        c.close()
        XCTAssertTrue(waitUntil { !tree().contains("/controller/") })
        // The pages go back once the bus has taken the signals that announced the departure.
        var after = residentKB("RssAnon")
        waitUntil(3) { after = self.residentKB("RssAnon"); return after - before < (full - before) / 3 }
        print("4,000 controllers: anonymous resident \(before) kB before, \(full) kB with them, \(after) kB once their client left")
        XCTAssertLessThan(after - before, (full - before) / 3, "most of the memory stayed taken after the objects went")
    }
}
