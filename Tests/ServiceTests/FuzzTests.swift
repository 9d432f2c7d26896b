// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// Docs/security.md, the fuzz run: random method calls and property sets from several clients, some leaving
/// mid-way. The daemon must answer each with a reply or a D-Bus error, stay alive, keep every window's
/// effective mask non-empty, and leave nothing behind a client that left.
// 20,000 steps take about 5 s; the full 100,000 are the adversarial benchmark's (Benchmarks/adversarial).
final class FuzzTests: DaemonTestCase {
    func testRandomCallsFromClientsThatComeAndGo() throws {
        let walk = try FuzzWalk(address: bus.address, seed: 20261129)
        try walk.run(steps: 20_000) { step in
            XCTAssertTrue(daemon?.isRunning ?? false, "the daemon died by step \(step)")
            for problem in brokenInvariants(on: probeConnection, address: bus.address) { XCTFail("step \(step): \(problem)") }
        }
        for problem in walk.problems { XCTFail(problem) }
        XCTAssertGreaterThan(walk.answered, 2_000, "the walk must also succeed often, or it tests only refusals")
        XCTAssertGreaterThan(walk.departures, 20, "clients must leave mid-way")
        walk.closeAll()
        XCTAssertTrue(waitUntil { !tree().contains("/window/") && !tree().contains("/controller/") },
                      "objects left behind clients that left:\n\(tree())")
        XCTAssertEqual(try o("KeyWindow"), "/")
        XCTAssertEqual(try u("DeviceOrientation"), 0, "every claim ended with its client")
        XCTAssertNotEqual(try u("InterfaceOrientation"), 0)
    }
}
