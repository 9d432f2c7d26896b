// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// `orientationctl follow sway` against a real sway on the headless backend: the daemon decides,
/// follow turns sway's output, and with --focus the compositor's focus decides whose masks rule.
final class FollowSwayTests: EndToEndTestCase {
    /// As root (CI), a bus configured as the system bus is, with the shipped policy.
    override var systemPolicyFiles: [String]? { getuid() == 0 ? [packageRoot + "/dbus/org.orientationd.Orientation1.conf"] : nil }

    private var fixture: DaemonFixture!
    private var sway: HeadlessSway!
    private var followers: [Background] = []
    private var clients: [FocusClient] = []
    private var applications: String!

    override func setUpWithError() throws {
        if let reason = HeadlessSway.unavailability { throw unavailable("sway cannot run here: \(reason)") }
        // As root (CI), the daemon owns its name on a bus configured as the system bus is, and the
        // Wayland clients run as sway's unprivileged user: ordinary, unprivileged orientationd clients.
        let applications = makeTempDirectory("orientationd-applications")
        self.applications = applications
        mkdir(applications + "/applications", 0o755)
        for (id, keys) in [("org.orientationd.Test.Landscape", "X-Orientationd-SupportedOrientations=landscape;\n"),
                           ("org.orientationd.Test.Any", "")] {
            writeText(applications + "/applications/\(id).desktop", "[Desktop Entry]\nType=Application\nName=\(id)\nExec=true\n" + keys)
        }
        chmod(applications, 0o755)
        try super.setUpWithError()
        fixture = try DaemonFixture(in: world, config: "[Applications]\nDataDirs=\(applications)\n")
        sway = try HeadlessSway(scratch: fixture.directory)
    }

    override func tearDown() {
        for client in clients { client.process.kill9() }
        for follower in followers { follower.kill9() }
        sway?.stop()
        _ = fixture?.stop()
        clients = []
        followers = []
        sway = nil
        fixture = nil
    }

    // MARK: Helpers

    /// Starts `orientationctl follow sway ARGS` with sway's environment, and waits until it follows.
    private func follow(_ arguments: [String] = [], name: String = "follow") throws -> Background {
        let follower = try Background(["/usr/bin/env"] + sway.clientEnvironment
                                          + [orientationctl, "--address", fixture.bus.address, "follow", "sway"] + arguments,
                                      in: fixture.directory, name: name)
        followers.append(follower)
        XCTAssertTrue(waitUntil(10) { !follower.isRunning || follower.stderr.contains("following orientationd") },
                      "follow did not start: \(follower.stderr)")
        XCTAssertTrue(follower.isRunning, follower.stderr)
        return follower
    }

    private func setDevice(_ orientation: UInt32) throws {
        _ = try fixture.connection.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: Orientation1.managerInterface,
                                                method: "SetDeviceOrientation", values: [.uint32(orientation)], timeoutMs: 5000)
    }

    private func manager(_ property: String) -> Value? {
        try? fixture.connection.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: StandardInterface.properties, method: "Get",
                                             values: [.string(Orientation1.managerInterface), .string(property)], timeoutMs: 5000)
            .first?.variantValue
    }

    /// Waits until HEADLESS-1 shows `transform`; true when it does.
    @discardableResult
    private func expectTransform(_ transform: String, _ why: String, timeout: Double = 5,
                                 file: StaticString = #filePath, line: UInt = #line) -> Bool {
        var last: String?
        let reached = waitUntil(timeout) {
            last = self.sway.transform
            return last == transform
        }
        XCTAssertTrue(reached, "\(why): HEADLESS-1 shows \(last ?? "nothing"), not \(transform)\n"
                      + followers.map(\.stderr).joined(separator: "\n"), file: file, line: line)
        return reached
    }

    private func client(_ title: String, mask: UInt32, appID: String? = nil) throws -> FocusClient {
        let client = try sway.startClient(title: title, mask: mask, busAddress: fixture.bus.address, scratch: fixture.directory,
                                          appID: appID)
        clients.append(client)
        return client
    }

    // MARK: The output follows the daemon

    func testTheOutputTurnsWithTheInterfaceOrientation() throws {
        XCTAssertEqual(fixture.ctl("app-mask", "all").status, 0, "so that upside down turns the screen too")
        try setDevice(1)
        _ = try follow()
        expectTransform("normal", "at start, portrait")
        var latencies: [Double] = []
        for (device, transform) in [(3, "90"), (2, "180"), (4, "270"), (1, "normal")] as [(UInt32, String)] {
            let start = now()
            try setDevice(device)
            guard expectTransform(transform, "device \(device)") else { continue }
            latencies.append((now() - start) * 1000)
        }
        // Figures, not a verdict: the time includes the polling swaymsg processes of this test.
        print("follow sway: SetDeviceOrientation to the output's transform, as seen by polling swaymsg: "
              + latencies.map { String(format: "%.1f ms", $0) }.joined(separator: ", "))
        // Touchscreens and tablets follow the output (sway logs each command it handles with -V).
        XCTAssertTrue(sway.log.contains("Handling command 'input type:touch map_to_output \"HEADLESS-1\"'"), sway.log)
        XCTAssertTrue(sway.log.contains("Handling command 'input type:tablet_tool map_to_output \"HEADLESS-1\"'"), sway.log)
    }

    func testTheNamedOutputAndNoTouchMapping() throws {
        try setDevice(3)
        _ = try follow(["--output", "HEADLESS-1", "--no-touch"])
        expectTransform("90", "at start, landscape-right")
        XCTAssertFalse(sway.log.contains("map_to_output"), "--no-touch maps nothing:\n\(sway.log)")
    }

    func testANamedOutputThatIsNotConnectedTurnsNoOther() throws {
        let follower = try follow(["--output", "HDMI-A-9"])
        try setDevice(4)
        XCTAssertTrue(waitUntil(5) { self.sway.log.contains("Handling command 'output \"HDMI-A-9\" transform 270'") }, sway.log)
        XCTAssertTrue(follower.isRunning, follower.stderr)
        XCTAssertEqual(sway.transform, "normal", "another output is not HEADLESS-1")
    }

    func testFollowUsesNoCPUBetweenChanges() throws {
        let follower = try follow()
        try setDevice(3)
        expectTransform("90", "landscape-right")
        usleep(300_000)
        let before = contextSwitches(of: follower.pid)
        usleep(2_000_000)
        let after = contextSwitches(of: follower.pid)
        XCTAssertGreaterThan(before, 0, "follow's /proc entry was read")
        XCTAssertEqual(before, after, "follow woke up while nothing changed")
        let status = (try? String(contentsOfFile: "/proc/\(follower.pid)/status", encoding: .utf8)) ?? ""
        let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }.map(String.init) ?? "VmRSS: ?"
        print("follow sway, idle: \(rss.split(separator: " ", omittingEmptySubsequences: true).dropFirst().joined(separator: " ")) resident (debug build)")
    }

    // MARK: Surviving the daemon and the compositor

    func testFollowSurvivesTheDaemonRestarting() throws {
        let follower = try follow()
        try setDevice(3)
        expectTransform("90", "before the restart")
        try fixture.restartDaemon()
        XCTAssertTrue(waitUntil(10) { follower.stderr.contains("orientationd is back") }, follower.stderr)
        XCTAssertTrue(follower.stderr.contains("orientationd left the bus; waiting for it to come back"), follower.stderr)
        // The new daemon only knows the device once someone claims: follow claimed again.
        try setDevice(4)
        expectTransform("270", "after the restart")
        XCTAssertTrue(follower.isRunning, follower.stderr)
    }

    func testFollowWaitsForSwayToComeBack() throws {
        let follower = try follow()
        try setDevice(3)
        expectTransform("90", "before sway went away")
        sway.crash()
        XCTAssertTrue(waitUntil(5) { follower.stderr.contains("waiting up to 10 s for sway to come back") }, follower.stderr)
        try sway.start()
        XCTAssertTrue(waitUntil(10) { follower.stderr.contains("sway is back") }, follower.stderr)
        expectTransform("90", "the new sway shows the orientation again")
        try setDevice(4)
        expectTransform("270", "and follows it")
        XCTAssertTrue(follower.isRunning, follower.stderr)
    }

    /// sway 1.7 closes its socket on exit without a shutdown event: follow waits, then gives up.
    func testFollowExitsWhenSwayIsGoneForGood() throws {
        let follower = try follow()
        _ = sway.swaymsg(["exit"])
        XCTAssertEqual(follower.waitForExit(timeout: 20), 1, follower.stderr)
        XCTAssertTrue(follower.stderr.contains("sway is gone") || follower.stderr.contains("sway is shutting down"),
                      follower.stderr)
    }

    func testWithoutSwaysockFollowSaysWhy() {
        let result = runTool(["/usr/bin/env", "-u", "SWAYSOCK", orientationctl, "--address", fixture.bus.address, "follow", "sway"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("SWAYSOCK is not set"), result.stderr)
        let missing = runTool(["/usr/bin/env", "SWAYSOCK=\(fixture.directory)/no-such.sock", orientationctl,
                               "--address", fixture.bus.address, "follow", "sway"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("cannot connect to sway at \(fixture.directory)/no-such.sock"), missing.stderr)
    }

    // MARK: Focus decides

    /// The issue's desktop: a landscape-only application in front holds the output in landscape,
    /// a portrait-only one behind it cannot change that, and the focus moving to it does.
    func testTheFocusedApplicationsMaskHoldsTheOutput() throws {
        try setDevice(1)
        let landscape = try client("landscape-app", mask: 24)
        let portrait = try client("portrait-app", mask: 2)
        _ = try follow(["--focus"])
        XCTAssertEqual(sway.swaymsg(["[title=\"landscape-app\"]", "focus"]).status, 0)
        XCTAssertTrue(waitUntil(5) { self.manager("FocusedProcess")?.uint32Value == UInt32(landscape.pid) },
                      "FocusedProcess is \(String(describing: manager("FocusedProcess"))), not \(landscape.pid)")
        XCTAssertEqual(manager("KeyWindow")?.objectPathValue, landscape.windowPath)
        expectTransform("90", "the landscape-only application is in front")

        // The device turns upright: the application in front does not allow it.
        try setDevice(1)
        usleep(300_000)
        XCTAssertEqual(sway.transform, "90", "portrait is not in the focused application's mask")
        // The one behind asks for the screen: remembered, not taken.
        XCTAssertEqual(portrait.makeKeyAndVisible(), "ok")
        usleep(300_000)
        XCTAssertEqual(manager("KeyWindow")?.objectPathValue, landscape.windowPath)
        XCTAssertEqual(sway.transform, "90", "a background application cannot turn the screen")

        // The user focuses it: its mask rules now.
        XCTAssertEqual(sway.swaymsg(["[title=\"portrait-app\"]", "focus"]).status, 0)
        XCTAssertTrue(waitUntil(5) { self.manager("FocusedProcess")?.uint32Value == UInt32(portrait.pid) })
        XCTAssertEqual(manager("KeyWindow")?.objectPathValue, portrait.windowPath)
        expectTransform("normal", "the portrait-only application is in front")
        XCTAssertEqual(sway.focusedPid(), portrait.pid)
    }

    /// P6a: unmodified applications, which register nothing, decide by their desktop files' declarations.
    func testTheFocusedApplicationsDeclarationTurnsTheOutput() throws {
        try setDevice(1)
        let landscape = try client("declared-landscape", mask: 0, appID: "org.orientationd.Test.Landscape")
        let plain = try client("declares-nothing", mask: 0, appID: "org.orientationd.Test.Any")
        _ = try follow(["--focus"])
        expectTransform("normal", "the application without a declaration is in front, the device upright")
        XCTAssertEqual(sway.swaymsg(["[app_id=\"org.orientationd.Test.Landscape\"]", "focus"]).status, 0)
        XCTAssertTrue(waitUntil(5) { self.manager("FocusedApplication")?.stringValue == "org.orientationd.Test.Landscape" },
                      "FocusedApplication is \(String(describing: manager("FocusedApplication")))")
        XCTAssertEqual(manager("FocusedProcess")?.uint32Value, UInt32(landscape.pid))
        XCTAssertEqual(manager("FocusedApplicationSource")?.stringValue, "desktop-file")
        expectTransform("90", "the landscape-only application is in front with the device upright")
        XCTAssertEqual(manager("DeviceOrientation")?.uint32Value, 1)

        XCTAssertEqual(sway.swaymsg(["[app_id=\"org.orientationd.Test.Any\"]", "focus"]).status, 0)
        XCTAssertTrue(waitUntil(5) { self.manager("FocusedApplication")?.stringValue == "org.orientationd.Test.Any" })
        XCTAssertEqual(manager("FocusedProcess")?.uint32Value, UInt32(plain.pid))
        XCTAssertEqual(manager("FocusedApplicationSource")?.stringValue, "none")
        expectTransform("normal", "an application without a declaration follows the device again")
    }

    /// On a tablet a declaration binds only while the application's window is fullscreen.
    func testOnATabletTheDeclarationBindsOnlyFullscreen() throws {
        writeText(fixture.directory + "/orientationd.conf", "[Application]\nIdiom=tablet\n[Applications]\nDataDirs=\(applications!)\n")
        try fixture.restartDaemon()
        try setDevice(1)
        _ = try client("declared-landscape", mask: 0, appID: "org.orientationd.Test.Landscape")
        _ = try follow(["--focus"])
        XCTAssertTrue(waitUntil(5) { self.manager("FocusedApplicationSource")?.stringValue == "not-fullscreen" },
                      "FocusedApplicationSource is \(String(describing: manager("FocusedApplicationSource")))")
        expectTransform("normal", "tiled on a tablet, the landscape-only application does not decide")
        XCTAssertEqual(sway.swaymsg(["[app_id=\"org.orientationd.Test.Landscape\"]", "fullscreen", "enable"]).status, 0)
        XCTAssertTrue(waitUntil(5) { self.manager("FocusedApplicationSource")?.stringValue == "desktop-file" },
                      "FocusedApplicationSource is \(String(describing: manager("FocusedApplicationSource")))")
        expectTransform("90", "fullscreen, its declaration binds")
        XCTAssertEqual(sway.swaymsg(["[app_id=\"org.orientationd.Test.Landscape\"]", "fullscreen", "disable"]).status, 0)
        XCTAssertTrue(waitUntil(5) { self.manager("FocusedApplicationSource")?.stringValue == "not-fullscreen" })
        expectTransform("normal", "tiled again, the upright device decides")
    }

    // MARK: The Wayland focus reporter

    /// Starts what the package's XDG autostart entry starts, in sway's session, on the test's bus.
    private func reportFocus() throws -> Background {
        let command = try autostartCommand()
        let reporter = try Background(["/usr/bin/env"] + sway.clientEnvironment
                                          + [command[0], "--address", fixture.bus.address] + command.dropFirst(),
                                      in: fixture.directory, name: "report-focus")
        followers.append(reporter)
        return reporter
    }

    private func waitForFocus(_ app: String, source: String, _ why: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(waitUntil(5) {
            self.manager("FocusedApplication")?.stringValue == app && self.manager("FocusedApplicationSource")?.stringValue == source
        }, "\(why): FocusedApplication is \(String(describing: manager("FocusedApplication"))) from "
            + "\(String(describing: manager("FocusedApplicationSource"))), not \(app) from \(source)\n"
            + followers.map(\.stderr).joined(separator: "\n"), file: file, line: line)
    }

    /// report-focus reads sway's foreign-toplevel protocol: the application in front decides, the
    /// user's own desktop file counts, and the focus follows sway going away and coming back.
    func testTheWaylandReporterTurnsTheOutputForTheApplicationInFront() throws {
        let userApplications = sway.runtimeDirectory + "/.local/share/applications"
        for directory in [sway.runtimeDirectory + "/.local", sway.runtimeDirectory + "/.local/share", userApplications] {
            mkdir(directory, 0o755)
        }
        writeText(userApplications + "/org.orientationd.Test.Mine.desktop",
                  "[Desktop Entry]\nType=Application\nName=Mine\nExec=true\nX-Orientationd-SupportedOrientations=landscape-left;\n")
        try setDevice(1)
        _ = try follow()
        _ = try client("declared-landscape", mask: 0, appID: "org.orientationd.Test.Landscape")
        _ = try client("declares-nothing", mask: 0, appID: "org.orientationd.Test.Any")
        let reporter = try reportFocus()
        waitForFocus("org.orientationd.Test.Any", source: "none", "the last window mapped has the focus")
        XCTAssertEqual(manager("FocusedProcess")?.uint32Value, 0, "the protocol tells no process")
        expectTransform("normal", "an application without a declaration, the device upright")

        XCTAssertEqual(sway.swaymsg(["[app_id=\"org.orientationd.Test.Landscape\"]", "focus"]).status, 0)
        waitForFocus("org.orientationd.Test.Landscape", source: "desktop-file", "sway focused the landscape-only application")
        expectTransform("90", "the landscape-only application is in front with the device upright")
        XCTAssertEqual(sway.swaymsg(["[app_id=\"org.orientationd.Test.Any\"]", "focus"]).status, 0)
        waitForFocus("org.orientationd.Test.Any", source: "none", "sway focused the application without a declaration")
        expectTransform("normal", "it follows the device again")

        _ = try client("mine", mask: 0, appID: "org.orientationd.Test.Mine")
        waitForFocus("org.orientationd.Test.Mine", source: "user-desktop-file", "the user's own application")
        XCTAssertEqual(manager("FocusedApplicationMask")?.uint32Value, 16)
        expectTransform("270", "its declaration, from the user's own desktop file, turns the output")
        XCTAssertEqual(try fixture.connection.callBlocking(
            destination: Orientation1.busName, path: Orientation1.managerPath, interface: Orientation1.managerInterface,
            method: "ApplicationDeclaration", values: [.string("org.orientationd.Test.Mine")], timeoutMs: 5000),
                       [.uint32(0), .string("none")], "the daemon itself never read the user's file")

        // sway goes away: the focus clears; it comes back: the reporter reads it again.
        XCTAssertEqual(sway.swaymsg(["[app_id=\"org.orientationd.Test.Landscape\"]", "focus"]).status, 0)
        waitForFocus("org.orientationd.Test.Landscape", source: "desktop-file", "before sway went away")
        sway.crash()
        waitForFocus("", source: "none", "sway is gone: nothing is in front")
        XCTAssertTrue(waitUntil(5) { self.manager("InterfaceOrientation")?.uint32Value == 1 }, "the upright device decides again")
        XCTAssertTrue(waitUntil(5) { reporter.stderr.contains("the compositor went away") }, reporter.stderr)
        try sway.start()
        clients = []
        XCTAssertTrue(waitUntil(10) { reporter.stderr.contains("the compositor is back") }, reporter.stderr)
        _ = try client("declared-landscape-again", mask: 0, appID: "org.orientationd.Test.Landscape")
        waitForFocus("org.orientationd.Test.Landscape", source: "desktop-file", "after sway came back")
        expectTransform("90", "the new sway shows the application's orientation", timeout: 15)
        XCTAssertTrue(reporter.isRunning, reporter.stderr)
        // Headless sway reports its head disabled: the session agent leaves it to `follow sway`.
        XCTAssertTrue(reporter.stderr.contains("the panel HEADLESS-1 is disabled; the screen is not turned"), reporter.stderr)
        XCTAssertFalse(reporter.stderr.contains("turning HEADLESS-1"), reporter.stderr)
    }

    func testFocusOnNoApplicationLeavesTheApplicationMask() throws {
        _ = try client("landscape-app", mask: 24)
        _ = try follow(["--focus"])
        XCTAssertTrue(waitUntil(5) { self.manager("FocusedProcess")?.uint32Value != 0 })
        XCTAssertEqual(sway.swaymsg(["workspace", "2"]).status, 0)
        XCTAssertTrue(waitUntil(5) { self.manager("FocusedProcess")?.uint32Value == 0 }, "an empty workspace focuses no process")
        XCTAssertEqual(manager("KeyWindow")?.objectPathValue, "/")
    }

    func testFocusIsReportedAgainToARestartedDaemon() throws {
        let landscape = try client("landscape-app", mask: 24)
        let follower = try follow(["--focus"])
        XCTAssertTrue(waitUntil(5) { self.manager("FocusedProcess")?.uint32Value == UInt32(landscape.pid) })
        // The client goes with the old daemon's objects; a new one registers with the new daemon.
        try fixture.restartDaemon()
        XCTAssertTrue(waitUntil(10) { follower.stderr.contains("orientationd is back") }, follower.stderr)
        XCTAssertTrue(waitUntil(5) { self.manager("FocusedProcess")?.uint32Value == UInt32(landscape.pid) },
                      "the focus was not reported to the new daemon: \(follower.stderr)")
    }

    /// Without a focus authority, an unprivileged client cannot take the key window from another
    /// client's window, so it cannot turn the screen; a refused attempt changes nothing.
    func testAnUnprivilegedBackgroundClientCannotRotateTheScreen() throws {
        guard getuid() == 0 else { throw unavailable("needs root to run the clients as another, unprivileged user") }
        try setDevice(1)
        let landscape = try client("landscape-app", mask: 24)
        let portrait = try client("portrait-app", mask: 2)
        _ = try follow()
        XCTAssertEqual(manager("KeyWindow")?.objectPathValue, landscape.windowPath, "the first window became key")
        expectTransform("90", "the first window is landscape-only")
        _ = try fixture.connection.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: StandardInterface.properties, method: "Set",
                                                values: [.string(Orientation1.managerInterface), .string("RotationLocked"), .variant(.bool(true))],
                                                timeoutMs: 5000)
        let answer = portrait.makeKeyAndVisible()
        XCTAssertTrue(answer.hasPrefix("error org.freedesktop.DBus.Error.AccessDenied"), answer)
        XCTAssertTrue(answer.contains("take-key-window"), answer)
        usleep(300_000)
        XCTAssertEqual(manager("KeyWindow")?.objectPathValue, landscape.windowPath)
        XCTAssertEqual(manager("RotationLocked")?.boolValue, true)
        XCTAssertEqual(sway.transform, "90", "the refused attempt turned nothing")
    }
}
