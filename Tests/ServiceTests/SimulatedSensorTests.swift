// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// The simulated sensor: injected and replayed samples go through the classifier (sensors.md).
final class SimulatedSensorTests: DaemonTestCase {
    private let g = 9.81

    private func inject(_ x: Double, _ y: Double, _ z: Double) throws {
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "InjectAcceleration", [.double(x), .double(y), .double(z)])
    }

    func testInjectedSamplesRotateOnceTheyHaveSettled() throws {
        let app = try newClient()
        try claim(app)
        let recorder = try newRecorder()
        try inject(-g, 0, 0)  // right edge up: device landscape-left
        XCTAssertEqual(try get("DeviceOrientation"), .uint32(0), "one sample has not settled yet")
        // No further sample: the settle deadline alone reports it.
        XCTAssertTrue(recorder.wait(timeout: 2) { $0.member == "DidChange" }, "\(recorder.events)")
        XCTAssertEqual(try get("DeviceOrientation"), .uint32(3))
        XCTAssertEqual(try get("InterfaceOrientation"), .uint32(3))
    }

    /// P16: no timer runs while nobody claims, not even a settle timer for an injected sample; the
    /// pose it proposes settles when a claim starts, and is reported then.
    func testASampleInjectedWhileNobodyClaimsArmsNoTimerAndCountsWhenAClaimStarts() throws {
        try inject(-g, 0, 0)
        // The settle time is 100 ms: a timer armed by the sample would wake the daemon in this second.
        usleep(30_000)
        let before = contextSwitches(of: daemon!.pid)
        usleep(700_000)
        XCTAssertEqual(contextSwitches(of: daemon!.pid), before, "the daemon woke up while nobody claimed; log:\n\(daemon!.log)")
        XCTAssertEqual(try u("DeviceOrientation"), 0)
        let app = try newClient()
        try claim(app)
        XCTAssertEqual(try u("DeviceOrientation"), 3, "the held sample's pose, as soon as the claim starts")
    }

    func testAbsurdSamplesAreAcceptedAndDropped() throws {
        let app = try newClient()
        try claim(app)
        try inject(0, -50 * g, 0)
        usleep(300_000)
        XCTAssertEqual(try get("DeviceOrientation"), .uint32(0))
    }

    /// Restarts the daemon playing `trace` (CSV text); returns a recorder started right after.
    private func restartReplaying(_ trace: String) throws -> SignalRecorder {
        stopDaemon()
        let path = scratch + "/trace.csv"
        writeText(path, trace)
        try startDaemon(extra: ["--replay", path])
        return try newRecorder()
    }

    func testReplayPlaysOnlyWhileClaimed() throws {
        let recorder = try restartReplaying("# portrait, then right edge up\n0,0,-9.81,0\n50,0,-9.81,0\n100,0,-9.81,0\n150,0,-9.81,0\n"
            + "400,-9.81,0,0\n450,-9.81,0,0\n500,-9.81,0,0\n550,-9.81,0,0\n600,-9.81,0,0\n")
        usleep(900_000)
        XCTAssertEqual(recorder.count("DeviceOrientationDidChange"), 0, "nothing plays while nobody claims")
        let app = try newClient()
        try claim(app)
        XCTAssertTrue(recorder.wait(timeout: 3) { $0.member == "DidChange" }, "\(recorder.events)")
        let devices = recorder.managerEvents.filter { $0.member == "DeviceOrientationDidChange" }.map(\.uints)
        XCTAssertEqual(devices, [[1], [3]], "portrait settles first, then landscape-left")
        XCTAssertEqual(try get("InterfaceOrientation"), .uint32(3))
    }

    func testReplayTimesPast32BitsOfMillisecondsWaitInsteadOfCrashing() throws {
        // Portrait now; landscape in about 158 years, and later still.
        let recorder = try restartReplaying("0,0,-9.81,0\n50,0,-9.81,0\n100,0,-9.81,0\n150,0,-9.81,0\n"
            + "5000000000000,-9.81,0,0\n1e300,-9.81,0,0\n")
        let app = try newClient()
        try claim(app)
        XCTAssertTrue(recorder.wait(timeout: 3) { $0.member == "DeviceOrientationDidChange" }, "\(recorder.events)")
        usleep(300_000)
        XCTAssertTrue(daemon?.isRunning ?? false, "the daemon died: \(daemon?.log ?? "")")
        XCTAssertEqual(try get("DeviceOrientation"), .uint32(1), "the far sample is still waiting")
    }

    func testReplayOfABadTraceStopsTheDaemonWithTheLine() throws {
        stopDaemon()
        let trace = scratch + "/bad.csv"
        writeText(trace, "0,0,-9.81,0\n50,zero,-9.81,0\n")
        let process = try world.startDaemon(["--replay", trace], name: "bad", sensor: nil, stateDirectory: stateDir,
                                            waitFor: nil, checked: false)
        XCTAssertTrue(waitUntil(5) { !process.isRunning })
        XCTAssertEqual(process.stop(), 2)
        XCTAssertTrue(process.log.contains("line 2"), process.log)
    }

    /// A file named on the command line that is no regular file, or is endless, stops the daemon at once
    /// with a message: a FIFO is not waited on, `/dev/zero` is not read into memory.
    func testReplayAndConfigFilesThatAreNotRegularFilesOrTooLargeStopTheDaemonAtOnce() throws {
        stopDaemon()
        let fifo = scratch + "/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let huge = scratch + "/huge.conf"
        XCTAssertEqual(runTool(["truncate", "-s", "2M", huge]).status, 0)
        let cases: [(arguments: [String], expected: String)] = [
            (["--replay", fifo], "not a regular file (a FIFO)"),
            (["--replay", "/dev/zero"], "not a regular file (a character device)"),
            (["--config", fifo], "not a regular file (a FIFO)"),
            (["--config", "/dev/zero"], "not a regular file (a character device)"),
            (["--config", huge], "larger than 1024 KiB"),
        ]
        for (n, c) in cases.enumerated() {
            let process = try world.startDaemon(c.arguments, name: "refused\(n)", sensor: nil, stateDirectory: stateDir,
                                                waitFor: nil, checked: false)
            XCTAssertTrue(waitUntil(3) { !process.isRunning }, "\(c.arguments) hangs: \(process.log)")
            XCTAssertEqual(process.stop(), 2, "\(c.arguments): \(process.log)")
            XCTAssertTrue(process.log.contains(c.expected), "\(c.arguments): \(process.log)")
        }
    }
}
