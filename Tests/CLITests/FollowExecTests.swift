// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import TestSupport

/// `orientationctl follow exec`: a command per new interface orientation, with the orientation in
/// its environment; failures are reported and never end following; the daemon may come and go.
final class FollowExecTests: EndToEndTestCase {
    private var fixture: DaemonFixture!
    private var followers: [Background] = []
    private var record: String { fixture.directory + "/shown" }
    /// Appends what the command sees to `record`.
    private var recorder: [String] {
        ["--", "/bin/sh", "-c", "echo \"$ORIENTATION $ORIENTATION_DEGREES $ORIENTATION_TRANSFORM $ORIENTATION_WL_TRANSFORM $ORIENTATION_XRANDR\" >> \(record)"]
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        fixture = try DaemonFixture(in: world)
        XCTAssertEqual(fixture.ctl("app-mask", "all").status, 0)
        XCTAssertEqual(fixture.ctl("set-device", "portrait").status, 0)
    }

    override func tearDown() {
        for follower in followers { follower.kill9() }
        followers = []
        _ = fixture?.stop()
        fixture = nil
    }

    private func follow(_ command: [String], waitFor message: String = "following orientationd") throws -> Background {
        let follower = try fixture.background("follow-\(followers.count)", ["follow", "exec"] + command)
        followers.append(follower)
        XCTAssertTrue(waitUntil(5) { !follower.isRunning || follower.stderr.contains(message) }, follower.stderr)
        XCTAssertTrue(follower.isRunning, follower.stderr)
        return follower
    }

    private var shown: [String] { readText(record).split(separator: "\n").map(String.init) }

    /// Waits until the command has recorded `lines`.
    private func expectShown(_ lines: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(waitUntil(5) { self.shown == lines }, "shown: \(shown), expected \(lines)\n"
                      + followers.map(\.stderr).joined(separator: "\n"), file: file, line: line)
    }

    func testTheCommandRunsForEachChangeWithTheOrientationInItsEnvironment() throws {
        let follower = try follow(recorder)
        expectShown(["portrait 0 normal 0 normal"])
        var expected = ["portrait 0 normal 0 normal"]
        for (device, line) in [("landscape-left", "landscape-right 90 270 3 right"),
                               ("portrait-upside-down", "portrait-upside-down 180 180 2 inverted"),
                               ("landscape-right", "landscape-left 270 90 1 left"), ("portrait", "portrait 0 normal 0 normal")] {
            XCTAssertEqual(fixture.ctl("set-device", device).status, 0)
            expected.append(line)
            expectShown(expected)
        }
        // The interface staying where it is runs nothing.
        XCTAssertEqual(fixture.ctl("set-device", "face-up").status, 0)
        usleep(300_000)
        XCTAssertEqual(shown, expected)
        follower.signal(SIGTERM)
        XCTAssertEqual(follower.waitForExit(), 0, follower.stderr)
    }

    func testAFailingCommandIsReportedAndFollowingGoesOn() throws {
        let follower = try follow(["--", "/bin/sh", "-c", "echo $ORIENTATION >> \(record); exit 3"])
        expectShown(["portrait"])
        XCTAssertTrue(waitUntil(5) { follower.stderr.contains("sh exited with status 3 while showing portrait") }, follower.stderr)
        XCTAssertEqual(fixture.ctl("set-device", "landscape-left").status, 0)
        expectShown(["portrait", "landscape-right"])
        XCTAssertTrue(follower.isRunning, follower.stderr)
    }

    func testACommandThatCannotStartIsReportedAndFollowingGoesOn() throws {
        let follower = try follow(["--", "/nonexistent/rotate-screen"])
        XCTAssertTrue(waitUntil(5) { follower.stderr.contains("cannot run /nonexistent/rotate-screen for portrait") },
                      follower.stderr)
        XCTAssertEqual(fixture.ctl("set-device", "landscape-left").status, 0)
        XCTAssertTrue(waitUntil(5) { follower.stderr.contains("cannot run /nonexistent/rotate-screen for landscape-right") },
                      follower.stderr)
        XCTAssertTrue(follower.isRunning)
    }

    func testFollowSurvivesTheDaemonRestarting() throws {
        let follower = try follow(recorder)
        expectShown(["portrait 0 normal 0 normal"])
        try fixture.restartDaemon()
        XCTAssertTrue(waitUntil(5) { follower.stderr.contains("orientationd is back") }, follower.stderr)
        // The orientation it left (saved by the daemon) is not shown twice.
        usleep(200_000)
        XCTAssertEqual(shown, ["portrait 0 normal 0 normal"])
        XCTAssertEqual(fixture.ctl("app-mask", "all").status, 0)
        XCTAssertEqual(fixture.ctl("set-device", "landscape-right").status, 0)
        expectShown(["portrait 0 normal 0 normal", "landscape-left 270 90 1 left"])
    }

    func testFollowWaitsForADaemonThatIsNotRunningYet() throws {
        fixture.stopDaemon()
        let follower = try follow(recorder, waitFor: "orientationd is not running on this bus; waiting for it to start")
        usleep(200_000)
        XCTAssertEqual(shown, [])
        try fixture.startDaemonAgain()
        expectShown(["portrait 0 normal 0 normal"])
        XCTAssertTrue(follower.isRunning)
    }

    func testFollowHoldsAClaim() throws {
        XCTAssertEqual(fixture.ctl("get", "DeviceOrientation").stdout, "unknown\n", "nobody claims yet")
        let follower = try follow(recorder)
        XCTAssertTrue(waitUntil(5) { self.fixture.ctl("get", "DeviceOrientation").stdout == "portrait\n" })
        follower.signal(SIGINT)
        XCTAssertEqual(follower.waitForExit(), 0, follower.stderr)
        XCTAssertTrue(waitUntil(5) { self.fixture.ctl("get", "DeviceOrientation").stdout == "unknown\n" }, "the claim ended with it")
    }

    func testBadCommandLinesExitTwo() {
        let cases: [([String], String)] = [
            (["follow"], "follow needs 'sway' or 'exec -- COMMAND'"),
            (["follow", "weston"], "unknown target 'weston'"),
            (["follow", "exec"], "follow exec needs a command"),
            (["follow", "exec", "--"], "follow exec needs a command"),
            (["follow", "exec", "--now", "true"], "put '--' before the command"),
            (["follow", "sway", "--output"], "--output needs an output name"),
            (["follow", "sway", "--rotate"], "unknown argument '--rotate'"),
        ]
        for (arguments, message) in cases {
            let result = fixture.ctl(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }
}
