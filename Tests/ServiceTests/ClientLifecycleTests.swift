// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// Two clients: ownership, and what happens when one leaves the bus (P6, P9, P16).
final class ClientLifecycleTests: DaemonTestCase {
    override class var inProcess: Bool { true }
    func testAClientLeavingRemovesItsObjectsMovesTheKeyWindowAndReDecides() throws {
        let alice = try newClient()
        let bob = try newClient()
        // Alice: a landscape-only screen, key (registered first).
        let aliceWindow = try registerWindow(alice)
        let player = try createController(alice, mask: 24)
        try setRoot(alice, aliceWindow, player)
        try claim(alice)
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
        // Bob: a portrait-only screen, not key.
        let bobWindow = try registerWindow(bob)
        let form = try createController(bob, mask: 2)
        try setRoot(bob, bobWindow, form)
        XCTAssertEqual(try o("KeyWindow"), aliceWindow)
        XCTAssertEqual(try b("IsKey", bobWindow), false)
        XCTAssertEqual(try u("InterfaceOrientation"), 3, "the key window decides")

        // Bob cannot touch Alice's objects.
        assertError(std("AccessDenied")) { try self.set("SupportedMask", .uint32(26), player, on: bob) }
        assertError(std("AccessDenied")) { try self.setRoot(bob, aliceWindow, form) }

        try setDevice(1)
        XCTAssertEqual(try u("DeviceOrientation"), 1)
        let recorder = try newRecorder()
        let listed = tree()
        XCTAssertTrue(listed.contains(aliceWindow) && listed.contains(player), listed)

        alice.close()
        XCTAssertTrue(recorder.wait { $0.member == "DidChange" }, "Bob's portrait-only window must rotate the screen: \(recorder.events)")
        let after = tree()
        XCTAssertFalse(after.contains(aliceWindow), after)
        XCTAssertFalse(after.contains(player), after)
        XCTAssertTrue(after.contains(bobWindow) && after.contains(form), after)
        XCTAssertEqual(try o("KeyWindow"), bobWindow, "the remaining window becomes key (P6)")
        XCTAssertEqual(try b("IsKey", bobWindow), true)
        XCTAssertEqual(try u("SupportedMask"), 2)
        XCTAssertEqual(try u("InterfaceOrientation"), 1, "P9: the new key window's mask applies")
        XCTAssertEqual(try u("DeviceOrientation"), 0, "Alice's claim ended with her (P16)")
        XCTAssertEqual(recorder.managerEvents.filter { $0.member == "WillChange" }.map(\.uints), [[3, 1]])
        // Bob's objects are still his.
        try set("SupportedMask", .uint32(26), form, on: bob)
    }

    func testKeyWindowGoesBackToTheMostRecentlyKeyWindow() throws {
        let app = try newClient()
        let first = try registerWindow(app)
        let second = try registerWindow(app)
        let third = try registerWindow(app)
        XCTAssertEqual(try o("KeyWindow"), first, "a new window becomes key only when there is none")
        try call(app, second, Orientation1.windowInterface, "MakeKeyAndVisible")
        try call(app, third, Orientation1.windowInterface, "MakeKeyAndVisible")
        XCTAssertEqual(try o("KeyWindow"), third)
        try call(app, third, Orientation1.windowInterface, "Close")
        XCTAssertEqual(try o("KeyWindow"), second, "the most recently key window")
        XCTAssertFalse(tree().contains(third))
        try call(app, second, Orientation1.windowInterface, "Close")
        XCTAssertEqual(try o("KeyWindow"), first)
        try call(app, first, Orientation1.windowInterface, "Close")
        XCTAssertEqual(try o("KeyWindow"), "/")
    }

    func testClosingAWindowKeepsItsControllersDetached() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        let root = try createController(app, mask: 2)
        try setRoot(app, window, root)
        try call(app, window, Orientation1.windowInterface, "Close")
        XCTAssertTrue(tree().contains(root))
        let other = try registerWindow(app)
        try setRoot(app, other, root)
        XCTAssertEqual(try o("RootController", other), root, "a detached controller can be placed again")
    }
}

/// P15: the lock and the application mask survive restarts with the same state directory.
final class RestartTests: DaemonTestCase {
    /// Losing the bus is a failure, so `Restart=on-failure` brings the daemon back.
    func testLosingTheBusExitsWithAFailureStatus() throws {
        let process = try XCTUnwrap(daemon)
        daemon = nil
        bus.stop()
        XCTAssertTrue(waitUntil(5) { !process.isRunning }, "still running without a bus")
        XCTAssertEqual(process.exitStatus.map(ChildProcess.code), 1, process.log)
        XCTAssertTrue(process.log.contains("disconnected from the bus"), process.log)
    }

    func testLockAndApplicationMaskSurviveSIGTERMAndSIGKILL() throws {
        try set("RotationLocked", .bool(true))
        try set("ApplicationMask", .uint32(24))
        XCTAssertEqual(try u("InterfaceOrientation"), 3)

        XCTAssertEqual(stopDaemon(SIGTERM), 0)
        try startDaemon()
        XCTAssertEqual(try b("RotationLocked"), true)
        XCTAssertEqual(try u("ApplicationMask"), 24)
        XCTAssertEqual(try u("InterfaceOrientation"), 3)

        try set("RotationLocked", .bool(false))
        try set("ApplicationMask", .uint32(18))  // portrait and landscape-left
        XCTAssertEqual(try u("InterfaceOrientation"), 1, "landscape-right no longer allowed: portrait first (P9)")
        try set("ApplicationMask", .uint32(16))
        XCTAssertEqual(try u("InterfaceOrientation"), 4)
        // The reply does not wait for the disk; a SIGKILL after the write has landed loses nothing.
        XCTAssertTrue(waitUntil { readText(stateDir + "/state").contains("ApplicationMaskSetOverBus=16") },
                      "the state was not written: \(readText(stateDir + "/state"))")
        stopDaemon(SIGKILL)
        try startDaemon()
        XCTAssertEqual(try b("RotationLocked"), false)
        XCTAssertEqual(try u("ApplicationMask"), 16)
        XCTAssertEqual(try u("InterfaceOrientation"), 4)
    }

    func testSavedApplicationMaskOverridesTheConfigFile() throws {
        try set("ApplicationMask", .uint32(8))
        XCTAssertEqual(stopDaemon(SIGTERM), 0)
        try startDaemon(config: "[Application]\nSupportedOrientations=portrait\n")
        XCTAssertEqual(try u("ApplicationMask"), 8)
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
    }

    /// The state file holds the config's mask only when a client set it: an administrator who edits
    /// the config after the first start sees the edit take effect.
    func testAConfigEditAfterTheStateFileExistsTakesEffect() throws {
        stopDaemon()
        try startDaemon(config: "[Application]\nSupportedOrientations=portrait\n")
        try set("RotationLocked", .bool(true))  // any change writes the state file
        XCTAssertEqual(stopDaemon(SIGTERM), 0)
        XCTAssertTrue(readText(stateDir + "/state").contains("RotationLocked=true"), readText(stateDir + "/state"))
        try startDaemon(config: "[Application]\nSupportedOrientations=landscape\n")
        XCTAssertEqual(try u("ApplicationMask"), 24, "the edited config wins: no mask was set over the bus")
        XCTAssertEqual(try b("RotationLocked"), true, "the rest of the state is kept")
    }

    func testResetApplicationMaskPutsTheConfigsBackAndForgetsTheSavedOne() throws {
        stopDaemon()
        let config = "[Application]\nSupportedOrientations=portrait\n"
        try startDaemon(config: config)
        try set("ApplicationMask", .uint32(24))
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
        // The reply does not wait for the disk: the SIGKILL comes once the write has landed.
        XCTAssertTrue(waitUntil { readText(self.stateDir + "/state").contains("ApplicationMaskSetOverBus=24") },
                      readText(stateDir + "/state"))
        XCTAssertEqual(stopDaemon(SIGKILL), -9)
        try startDaemon(config: config)
        XCTAssertEqual(try u("ApplicationMask"), 24, "set over the bus: it outlives the restart")
        let recorder = try newRecorder()
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "ResetApplicationMask")
        XCTAssertEqual(try u("ApplicationMask"), 2)
        XCTAssertEqual(try u("InterfaceOrientation"), 1, "landscape is no longer allowed (P9)")
        XCTAssertTrue(recorder.wait { $0.changed["ApplicationMask"] == .uint32(2) }, "\(recorder.events)")
        XCTAssertTrue(waitUntil { !readText(self.stateDir + "/state").contains("ApplicationMask") }, readText(stateDir + "/state"))
        XCTAssertEqual(stopDaemon(SIGKILL), -9)
        try startDaemon(config: "[Application]\nSupportedOrientations=landscape-left\n")
        XCTAssertEqual(try u("ApplicationMask"), 16, "nothing saved overrides a later config")
    }

    /// A state file of an earlier version wrote the config's mask after every change; it cannot
    /// tell an administrator's choice from a client's, so it does not override the config.
    func testAnEarlierStateFilesApplicationMaskDoesNotOverrideTheConfig() throws {
        stopDaemon()
        writeText(stateDir + "/state", "[State]\nRotationLocked=false\nApplicationMask=2\nInterfaceOrientation=1\n")
        try startDaemon(config: "[Application]\nSupportedOrientations=landscape\n")
        XCTAssertEqual(try u("ApplicationMask"), 24)
    }
}

/// Bad config values and flags: exit status 2 with a message naming the group and key, or the flag.
final class ConfigErrorTests: EndToEndTestCase {
    private func run(_ args: [String], config: String? = nil) -> ToolResult {
        let dir = makeTempDirectory()
        defer { _ = runTool(["rm", "-rf", dir]) }
        var argv = [programsDirectory() + "/orientationd", "--address", "unix:path=\(dir)/no-bus", "--sensor", "simulated",
                    "--state-dir", dir + "/state"] + args
        if let config {
            writeText(dir + "/c.conf", config)
            argv += ["--config", dir + "/c.conf"]
        }
        return runTool(argv)
    }

    func testBadValuesExitWithStatus2NamingGroupAndKey() {
        for (config, group, key) in [("[Rotation]\nDuration=9\n", "[Rotation]", "Duration"),
                                     ("[Application]\nSupportedOrientations=sideways\n", "[Application]", "SupportedOrientations"),
                                     ("[Application]\nIdiom=watch\n", "[Application]", "Idiom"),
                                     ("[Limits]\nWindows=0\n", "[Limits]", "Windows"),
                                     ("[Limits]\nTotalControllers=2000000\n", "[Limits]", "TotalControllers"),
                                     ("[Limits]\nWindowsPerUser=many\n", "[Limits]", "WindowsPerUser"),
                                     ("[Limits]\nQueuedBytes=100\n", "[Limits]", "QueuedBytes"),
                                     ("[Limits]\nTotalQueuedBytes=2147483648\n", "[Limits]", "TotalQueuedBytes"),
                                     ("[Screen]\nPortraitSize=big\n", "[Screen]", "PortraitSize"),
                                     ("[Sensor]\nStillPollHz=0\n", "[Sensor]", "StillPollHz"),
                                     ("[Sensor]\nStillAfterMs=-1\n", "[Sensor]", "StillAfterMs"),
                                     ("[Sensor]\nStillTolerance=9\n", "[Sensor]", "StillTolerance"),
                                     ("[Sensor]\nMotionEvents=yes\n", "[Sensor]", "MotionEvents"),
                                     ("[Sensor]\nMotionStillAfterMs=-5\n", "[Sensor]", "MotionStillAfterMs"),
                                     ("[Classifier]\nRestMs=0\n", "[Classifier]", "RestMs"),
                                     ("[Classifier]\nRestTolerance=3\n", "[Classifier]", "RestTolerance")] {
            let r = run([], config: config)
            XCTAssertEqual(r.status, 2, "\(config): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(group) && r.stderr.contains(key), "\(config): \(r.stderr)")
        }
    }

    func testBadFlagsExitWithStatus2NamingTheFlag() {
        var r = run(["--frobnicate"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("--frobnicate"), r.stderr)
        r = run(["--sensor", "gyroscope"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("--sensor") && r.stderr.contains("gyroscope"), r.stderr)
        r = run(["--state-dir"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("--state-dir"), r.stderr)
    }

    func testAFlagGivenAValueExitsWithStatus2() {
        var r = run(["--sensor=gyroscope"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("--sensor") && r.stderr.contains("gyroscope"), r.stderr)
        r = run(["--verbose=yes"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("--verbose takes no value"), r.stderr)
    }

    /// `--flag=value` reads as `--flag value`: this daemon serves the given bus with the simulated sensor.
    func testOptionValuesMayFollowAnEqualsSign() throws {
        let daemon = try world.start([programsDirectory() + "/orientationd", "--address=\(world.bus.address)", "--sensor=simulated",
                                      "--state-dir=\(world.stateDirectory())"], name: "daemon", waitFor: Orientation1.busName)
        world.check(daemon, as: "orientationd")
        XCTAssertEqual(try get("HasAccelerometer").boolValue, true, "the simulated sensor is always there")
    }

    func testMissingConfigFileIsAnError() {
        let r = run(["--config", "/nonexistent/orientationd.conf"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("/nonexistent/orientationd.conf"), r.stderr)
    }
}
