// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// End-to-end tests of orientationctl: the built binary against a built orientationd on a private bus.
final class CLITests: EndToEndTestCase {
    private var fixture: DaemonFixture!

    override func setUpWithError() throws {
        try super.setUpWithError()
        // A daemon that does not start is a failure of every test here, never a reason to skip them.
        fixture = try DaemonFixture(in: world)
        XCTAssertEqual(fixture.ctl("unlock").status, 0)
        XCTAssertEqual(fixture.ctl("app-mask", "all-but-upside-down").status, 0)
    }

    override func tearDown() {
        XCTAssertTrue(fixture?.daemon.isRunning ?? true, "orientationd died: \(fixture?.daemon.stderr ?? "")")
        XCTAssertEqual(fixture?.stop(), 0, "orientationd must exit 0 on SIGTERM")
        fixture = nil
    }

    // MARK: - Help and usage

    func testHelpListsEveryCommand() {
        for argv in [["--help"], ["help"], ["-h"]] {
            let result = runTool([orientationctl] + argv)
            XCTAssertEqual(result.status, 0, "\(argv)")
            for command in ["status", "get", "monitor", "lock", "unlock", "set-device", "inject", "app-mask",
                            "attempt", "window", "follow", "--system", "--session", "--address", "--json"] {
                XCTAssertTrue(result.stdout.contains(command), "\(argv) does not mention \(command)")
            }
        }
    }

    func testEveryCommandsHelpMentionsItsArguments() {
        let expected: [String: [String]] = [
            "status": ["Usage: orientationctl", "InterfaceOrientationValue", "WxH"],
            "get": ["PROPERTY", "InterfaceOrientation"],
            "monitor": ["SIGINT", "will-change", "did-change", "device", "suggested", "RotationSuggested"],
            "accept-suggestion": ["AcceptSuggestedOrientation", "NoSuggestion", "SuggestedOrientation", "lock stays on"],
            "lock": ["RotationLocked"],
            "unlock": ["RotationLocked"],
            "set-device": ["ORIENTATION", "landscape-left", "face-down"],
            "inject": ["X Y Z", "m/s²"],
            "app-mask": ["MASK", "all-but-upside-down", "landscape-right", "app-mask reset", "ResetApplicationMask"],
            "attempt": ["AttemptRotationToDeviceOrientation"],
            "window": ["--delegate-mask MASK", "--root KIND", "--mask MASK", "--preferred ORIENTATION", "--no-autorotate"],
            "follow": ["sway", "--output NAME", "--no-touch", "--focus", "exec -- COMMAND", "ORIENTATION_TRANSFORM",
                       "ORIENTATION_DEGREES", "ORIENTATION_XRANDR", "SetFocusedApplication", "app_id"],
            "app": ["set ID MASK", "reset ID", "list", "show ID", "SetApplicationOrientations", "ResetApplicationOrientations",
                    "ApplicationDeclaration", "desktop-file", "all-but-upside-down"],
            "relay-focus": ["org.orientationd.FocusRelay", "SetFocusedApplication", "callDBus"],
        ]
        for (command, words) in expected {
            for argv in [[command, "--help"], ["help", command]] {
                let result = runTool([orientationctl] + argv)
                XCTAssertEqual(result.status, 0, "\(argv): \(result.stderr)")
                XCTAssertTrue(result.stdout.hasPrefix("Usage: orientationctl"), "\(argv)")
                for word in words { XCTAssertTrue(result.stdout.contains(word), "\(argv) does not mention \(word)") }
            }
        }
    }

    func testBadUsageExitsTwo() {
        let cases: [([String], String)] = [
            (["frobnicate"], "unknown command 'frobnicate'"),
            ([], "no command"),
            (["--bogus", "status"], "unknown option '--bogus'"),
            (["--address"], "--address needs"),
            (["--system", "--session", "status"], "choose one"),
            (["status", "extra"], "status takes no arguments"),
            (["set-device"], "set-device takes ORIENTATION"),
            (["set-device", "sideways"], "'sideways' is not a device orientation; accepted: portrait (1), portrait-upside-down (2)"),
            (["set-device", "unknown"], "'unknown' is not a device orientation; accepted: portrait (1)"),
            (["inject", "1", "two", "3"], "'two' is not a number"),
            (["inject", "1", "2"], "inject takes X Y Z"),
            (["window", "--root", "split"], "accepted: view, navigation, tab"),
            (["window", "--preferred", "face-up"], "is not an interface orientation"),
            (["help", "nothing"], "unknown command 'nothing'"),
            (["--json=yes", "status"], "--json takes no value"),
            (["--address=", "status"], "--address needs"),
            (["window", "--root=split"], "accepted: view, navigation, tab"),
            (["window", "--no-autorotate=1"], "--no-autorotate takes no value"),
        ]
        for (argv, message) in cases {
            // No bus option (the system bus): usage errors must come before any connection.
            let result = runTool([orientationctl] + argv)
            XCTAssertEqual(result.status, 2, "\(argv): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(argv): stderr is \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("orientationctl: "), "\(argv)")
            XCTAssertEqual(result.stdout, "", "\(argv)")
        }
    }

    func testAppMaskRejectsUnknownNames() {
        let result = fixture.ctl("app-mask", "sideways")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("'sideways'"), result.stderr)
        XCTAssertTrue(result.stderr.contains("accepted:"), result.stderr)
        for name in ["portrait", "landscape-right", "landscape-left", "portrait-upside-down", "all-but-upside-down"] {
            XCTAssertTrue(result.stderr.contains(name), "message does not name \(name): \(result.stderr)")
        }
        XCTAssertEqual(fixture.ctl("get", "ApplicationMask").stdout, "portrait, landscape-right, landscape-left\n")
    }

    // MARK: - Errors from the daemon

    func testSetDeviceOutOfRangeShowsTheDaemonsError() {
        let result = fixture.ctl("set-device", "9")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), result.stderr)
        XCTAssertTrue(result.stderr.contains("9 is not a device orientation"), result.stderr)
    }

    func testNoDaemonOnTheBusIsAnError() throws {
        let other = try PrivateBus()
        defer { other.stop() }
        let result = runTool([orientationctl, "--address", other.address, "status"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("orientationd is not running"), result.stderr)
        XCTAssertTrue(result.stderr.contains("ServiceUnknown"), result.stderr)
    }

    // MARK: - Reading and changing state

    func testStatusPrintsNames() {
        let result = fixture.ctl("status")
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 22, result.stdout)
        func value(_ name: String) -> String? {
            lines.first { $0.hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
        XCTAssertEqual(value("ApplicationMask"), "portrait, landscape-right, landscape-left")
        XCTAssertEqual(value("SupportedMask"), "portrait, landscape-right, landscape-left")
        XCTAssertEqual(value("Idiom"), "phone")
        XCTAssertEqual(value("RotationLocked"), "no")
        XCTAssertEqual(value("HasAccelerometer"), "yes")
        XCTAssertEqual(value("KeyWindow"), "/")
        XCTAssertEqual(value("ScreenBounds"), "0x0")
        XCTAssertEqual(value("FocusedProcess"), "none")
        XCTAssertEqual(value("FocusedApplication"), "none")
        XCTAssertEqual(value("FocusedApplicationMask"), "none")
        XCTAssertEqual(value("FocusedApplicationSource"), "none")
        XCTAssertEqual(value("ApplicationOrientations"), "none")
        XCTAssertEqual(value("InterfaceLockedByApplication"), "no")
        XCTAssertEqual(value("Posture"), "unknown", "the simulated sensor has no posture source")
        XCTAssertEqual(value("HingeAngle"), "unknown")
        XCTAssertEqual(value("SuggestedOrientation"), "none")
        // Orientations with the edge that is up: `landscape-right (right edge up)`.
        XCTAssertTrue(["portrait (top edge up)", "landscape-right (right edge up)", "landscape-left (left edge up)"]
                        .contains(value("InterfaceOrientation") ?? ""), result.stdout)
        XCTAssertTrue(["unknown", "portrait (top edge up)", "landscape-left (right edge up)", "landscape-right (left edge up)"]
                        .contains(value("DeviceOrientation") ?? ""), result.stdout)
    }

    func testJSONStatusParsesWithTheRightValues() throws {
        let result = fixture.ctl("--json", "status")
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["ApplicationMask"] as? [String], ["portrait", "landscape-right", "landscape-left"])
        XCTAssertEqual(object["ApplicationMaskValue"] as? Int, 26)
        XCTAssertEqual(object["SupportedMaskValue"] as? Int, 26)
        XCTAssertEqual(object["Idiom"] as? String, "phone")
        XCTAssertEqual(object["RotationLocked"] as? Bool, false)
        XCTAssertEqual(object["HasAccelerometer"] as? Bool, true)
        XCTAssertEqual(object["KeyWindow"] as? String, "/")
        XCTAssertEqual(object["RotationDuration"] as? Double, 0)
        XCTAssertEqual(object["ScreenBounds"] as? String, "0x0")
        XCTAssertEqual(object["ScreenBoundsValue"] as? [Int], [0, 0])
        XCTAssertEqual(object["FocusedProcess"] as? Int, 0)
        let names = [1: "portrait", 2: "portrait-upside-down", 3: "landscape-right", 4: "landscape-left"]
        let interface = try XCTUnwrap(object["InterfaceOrientationValue"] as? Int)
        XCTAssertEqual(object["InterfaceOrientation"] as? String, names[interface])
        XCTAssertNotNil(object["DeviceOrientation"] as? String)
        XCTAssertNotNil(object["DeviceOrientationValue"] as? Int)
        // `get` agrees with `status`.
        XCTAssertEqual(fixture.ctl("get", "interfaceorientation").stdout, names[interface]! + "\n")
    }

    func testLockThenStatusShowsLocked() throws {
        XCTAssertEqual(fixture.ctl("lock").status, 0)
        XCTAssertNotNil(fixture.ctl("status").stdout.firstMatch(of: /(?m)^RotationLocked: +yes$/), fixture.ctl("status").stdout)
        XCTAssertEqual(fixture.ctl("get", "RotationLocked").stdout, "yes\n")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(fixture.ctl("--json", "get", "RotationLocked").stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["RotationLocked"] as? Bool, true)
        XCTAssertEqual(fixture.ctl("unlock").status, 0)
        XCTAssertEqual(fixture.ctl("get", "RotationLocked").stdout, "no\n")
    }

    func testAppMaskThenStatusShowsTheMask() throws {
        let result = fixture.ctl("app-mask", "landscape")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertNotNil(fixture.ctl("status").stdout.firstMatch(of: /(?m)^ApplicationMask: +landscape-right, landscape-left$/))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(fixture.ctl("--json", "status").stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["ApplicationMask"] as? [String], ["landscape-right", "landscape-left"])
        XCTAssertEqual(json["ApplicationMaskValue"] as? Int, 24)
        XCTAssertTrue((json["InterfaceOrientation"] as? String ?? "").hasPrefix("landscape"), "\(json)")
        XCTAssertEqual(fixture.ctl("app-mask", "portrait|portrait-upside-down").status, 0)
        XCTAssertEqual(fixture.ctl("get", "ApplicationMask").stdout, "portrait, portrait-upside-down\n")
        XCTAssertEqual(fixture.ctl("app-mask", "26").status, 0)
        XCTAssertEqual(fixture.ctl("get", "ApplicationMask").stdout, "portrait, landscape-right, landscape-left\n")
    }

    func testAppMaskResetGivesTheIdiomsDefaultBack() {
        XCTAssertEqual(fixture.ctl("app-mask", "landscape-left").status, 0)
        XCTAssertEqual(fixture.ctl("get", "InterfaceOrientation").stdout, "landscape-left\n")
        let result = fixture.ctl("app-mask", "reset")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(fixture.ctl("get", "ApplicationMask").stdout, "portrait, landscape-right, landscape-left\n",
                       "the phone's default, since the fixture has no config")
        XCTAssertEqual(fixture.ctl("get", "InterfaceOrientation").stdout, "landscape-left\n", "still allowed: no rotation (P9)")
    }

    func testInjectReachesTheSimulatedSensor() {
        let result = fixture.ctl("inject", "0", "-9.81", "0")
        XCTAssertEqual(result.status, 0, result.stderr)
        let nan = fixture.ctl("inject", "nan", "0", "0")
        XCTAssertEqual(nan.status, 1)
        XCTAssertTrue(nan.stderr.contains("InvalidArgs"), nan.stderr)
    }

    // MARK: - Long-running commands

    /// Brings the interface to portrait with the device in portrait; needs a claim (a monitor) running.
    private func startPortrait() {
        XCTAssertEqual(fixture.ctl("set-device", "portrait").status, 0)
        XCTAssertTrue(waitUntil(3) {
            _ = fixture.ctl("attempt")
            return fixture.ctl("get", "InterfaceOrientation").stdout == "portrait\n"
        })
    }

    private func startMonitor(_ name: String, json: Bool = false) throws -> Background {
        let monitor = try fixture.background(name, (json ? ["--json"] : []) + ["monitor"])
        XCTAssertTrue(waitUntil(5) { monitor.stderr.contains("monitoring") || !monitor.isRunning },
                      "monitor did not start: \(monitor.stderr)")
        XCTAssertTrue(monitor.isRunning, monitor.stderr)
        return monitor
    }

    func testMonitorPrintsDeviceAndRotationLines() throws {
        let monitor = try startMonitor("monitor")
        let jsonMonitor = try startMonitor("monitor-json", json: true)
        startPortrait()
        XCTAssertTrue(waitUntil(2) { jsonMonitor.stdout.contains("\"to\": \"portrait\"") || monitor.stdout.contains("device portrait") })
        let before = monitor.stdout.count, jsonBefore = jsonMonitor.stdout.count

        XCTAssertEqual(fixture.ctl("set-device", "landscape-left").status, 0)
        XCTAssertTrue(waitUntil(5) {
            monitor.stdout.contains("did-change portrait -> landscape-right")
                && jsonMonitor.stdout.dropFirst(jsonBefore).contains("did-change")
        }, "monitor printed: \(monitor.stdout)")
        let lines = monitor.stdout.dropFirst(before).split(separator: "\n").map(String.init)
        let stamp = try NSRegularExpression(pattern: "^[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3} ")
        for line in lines {
            XCTAssertNotNil(stamp.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)), "no timestamp: \(line)")
        }
        let events = lines.map { String($0.dropFirst(13)) }
        let device = try XCTUnwrap(events.firstIndex(of: "device landscape-left (right edge up)"), "\(lines)")
        let will = try XCTUnwrap(events.firstIndex(of: "will-change portrait -> landscape-right (right edge up)"), "\(lines)")
        let did = try XCTUnwrap(events.firstIndex(of: "did-change portrait -> landscape-right (right edge up)"), "\(lines)")
        XCTAssertTrue(device < will && will < did, "\(lines)")
        XCTAssertTrue(events.contains { $0.hasPrefix("changed InterfaceOrientation: landscape-right (right edge up)") }, "\(lines)")
        XCTAssertFalse(events.contains { $0.contains("DeviceOrientation") }, "one line per device change: \(lines)")

        let objects = try jsonMonitor.stdout.dropFirst(jsonBefore).split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        XCTAssertTrue(objects.contains { $0["event"] as? String == "device" && $0["orientation"] as? String == "landscape-left"
                && $0["orientationValue"] as? Int == 3 }, "\(objects)")
        XCTAssertTrue(objects.contains { $0["event"] as? String == "will-change" && $0["from"] as? String == "portrait"
                && $0["to"] as? String == "landscape-right" && $0["toValue"] as? Int == 3 }, "\(objects)")
        XCTAssertTrue(objects.allSatisfy { $0["time"] is String })

        monitor.signal(SIGINT)
        jsonMonitor.signal(SIGTERM)
        XCTAssertEqual(monitor.waitForExit(), 0, monitor.stderr)
        XCTAssertEqual(jsonMonitor.waitForExit(), 0, jsonMonitor.stderr)
        // The claims ended: no client generates notifications, so the device reads unknown.
        XCTAssertTrue(waitUntil(2) { fixture.ctl("get", "DeviceOrientation").stdout == "unknown\n" })
    }

    func testPortraitOnlyWindowHoldsPortraitUntilItLeaves() throws {
        let monitor = try startMonitor("monitor-window")
        defer {
            monitor.signal(SIGINT)
            XCTAssertEqual(monitor.waitForExit(), 0, monitor.stderr)
        }
        startPortrait()

        let window = try fixture.background("window", ["window", "--mask", "portrait"])
        XCTAssertTrue(waitUntil(5) { window.stdout.contains("controller ") || !window.isRunning },
                      "window printed: \(window.stdout) \(window.stderr)")
        let lines = window.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, "\(lines)")
        let windowPath = try XCTUnwrap(lines.first { $0.hasPrefix("window /org/orientationd/Orientation1/window/") }).dropFirst(7)
        XCTAssertTrue(lines.contains { $0.hasPrefix("controller /org/orientationd/Orientation1/controller/") }, "\(lines)")
        XCTAssertEqual(fixture.ctl("get", "KeyWindow").stdout, windowPath + "\n")
        XCTAssertEqual(fixture.ctl("get", "SupportedMask").stdout, "portrait\n")

        XCTAssertEqual(fixture.ctl("set-device", "landscape-left").status, 0)
        XCTAssertTrue(waitUntil(2) { fixture.ctl("get", "DeviceOrientation").stdout == "landscape-left\n" })
        XCTAssertEqual(fixture.ctl("attempt").status, 0)
        XCTAssertEqual(fixture.ctl("get", "InterfaceOrientation").stdout, "portrait\n")

        window.signal(SIGINT)
        XCTAssertEqual(window.waitForExit(), 0, window.stderr)
        XCTAssertTrue(waitUntil(3) { fixture.ctl("get", "KeyWindow").stdout == "/\n" })
        XCTAssertEqual(fixture.ctl("attempt").status, 0)
        XCTAssertTrue(waitUntil(2) { fixture.ctl("get", "InterfaceOrientation").stdout == "landscape-right\n" },
                      fixture.ctl("status").stdout)
    }

    func testWindowPrintsJSON() throws {
        let window = try fixture.background("window-json", ["--json", "window", "--root", "navigation",
                                                            "--preferred", "portrait", "--no-autorotate"])
        XCTAssertTrue(waitUntil(5) { window.stdout.contains("\n") || !window.isRunning }, window.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(window.stdout.utf8)) as? [String: String])
        XCTAssertTrue(object["window"]?.hasPrefix("/org/orientationd/Orientation1/window/") == true, "\(object)")
        XCTAssertTrue(object["controller"]?.hasPrefix("/org/orientationd/Orientation1/controller/") == true, "\(object)")
        window.signal(SIGTERM)
        XCTAssertEqual(window.waitForExit(), 0, window.stderr)
        XCTAssertTrue(waitUntil(3) { fixture.ctl("get", "KeyWindow").stdout == "/\n" })
    }

    /// `--flag=value` reads as `--flag value`, for the global options and a command's own.
    func testOptionValuesMayFollowAnEqualsSign() throws {
        let get = runTool([orientationctl, "--address=\(fixture.bus.address)", "get", "ApplicationMask"])
        XCTAssertEqual(get.status, 0, get.stderr)
        XCTAssertEqual(get.stdout, "portrait, landscape-right, landscape-left\n")
        let window = try fixture.background("window-equals", ["--json", "window", "--root=navigation", "--mask=portrait"])
        XCTAssertTrue(waitUntil(5) { window.stdout.contains("\n") || !window.isRunning }, window.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(window.stdout.utf8)) as? [String: String])
        let controller = try XCTUnwrap(object["controller"])
        let kind = runTool(["busctl", "--address=\(fixture.bus.address)", "get-property", Orientation1.busName, controller,
                            Orientation1.controllerInterface, "Kind"])
        XCTAssertEqual(kind.stdout, "s \"navigation\"\n", kind.stderr)
        XCTAssertEqual(fixture.ctl("get", "SupportedMask").stdout, "portrait\n", "the window is key and portrait only")
        window.signal(SIGTERM)
        XCTAssertEqual(window.waitForExit(), 0, window.stderr)
        XCTAssertTrue(waitUntil(3) { fixture.ctl("get", "KeyWindow").stdout == "/\n" })
    }

    /// Its own bus and daemon: the daemon leaves, the monitor says so and fails; the daemon exits 0 on SIGTERM.
    /// P19 from the command line: locked, a turn is offered on the monitor, `accept-suggestion` takes
    /// it and the lock stays on; with nothing offered it fails saying why.
    func testALockedTurnIsSuggestedOnTheMonitorAndAccepted() throws {
        let monitor = try startMonitor("monitor-suggestion")
        let jsonMonitor = try startMonitor("monitor-suggestion-json", json: true)
        startPortrait()
        XCTAssertEqual(fixture.ctl("lock").status, 0)
        XCTAssertEqual(fixture.ctl("set-device", "landscape-left").status, 0)
        XCTAssertTrue(waitUntil(5) {
            monitor.stdout.contains("suggested landscape-right (right edge up) while rotation is locked; "
                + "'orientationctl accept-suggestion' turns to it") && jsonMonitor.stdout.contains("\"event\": \"suggested\"")
        }, "monitor printed: \(monitor.stdout)")
        XCTAssertTrue(jsonMonitor.stdout.contains("\"orientation\": \"landscape-right\", \"orientationValue\": 3"), jsonMonitor.stdout)
        XCTAssertEqual(fixture.ctl("get", "SuggestedOrientation").stdout, "landscape-right\n")
        XCTAssertEqual(fixture.ctl("get", "InterfaceOrientation").stdout, "portrait\n")

        let accepted = fixture.ctl("accept-suggestion")
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
        XCTAssertEqual(accepted.stdout + accepted.stderr, "")
        XCTAssertTrue(waitUntil(5) { monitor.stdout.contains("did-change portrait -> landscape-right") }, monitor.stdout)
        XCTAssertEqual(fixture.ctl("get", "SuggestedOrientation").stdout, "none\n")
        XCTAssertEqual(fixture.ctl("get", "RotationLocked").stdout, "yes\n", "the lock stays on")

        let refused = fixture.ctl("accept-suggestion")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("NoSuggestion") && refused.stderr.contains("no rotation is suggested"), refused.stderr)
        monitor.signal(SIGINT)
        jsonMonitor.signal(SIGINT)
        XCTAssertEqual(monitor.waitForExit(), 0, monitor.stderr)
        XCTAssertEqual(jsonMonitor.waitForExit(), 0, jsonMonitor.stderr)
    }

    func testMonitorFailsWhenTheDaemonLeaves() throws {
        let otherWorld = try World()
        defer { _ = otherWorld.tearDown() }
        let other = try DaemonFixture(in: otherWorld)
        let monitor = try Background([orientationctl, "--address", other.bus.address, "monitor"],
                                     in: other.directory, name: "monitor")
        XCTAssertTrue(waitUntil(5) { monitor.stderr.contains("monitoring") || !monitor.isRunning }, monitor.stderr)
        other.daemon.signal(SIGTERM)
        XCTAssertEqual(other.daemon.waitForExit(), 0, other.daemon.stderr)
        XCTAssertEqual(monitor.waitForExit(), 1, monitor.stderr)
        XCTAssertTrue(monitor.stderr.contains("orientationd left the bus"), monitor.stderr)
        _ = other.stop()
    }
}
