// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// `orientationctl app` and `relay-focus` against a real daemon on a private bus.
final class AppCommandTests: EndToEndTestCase {
    private var fixture: DaemonFixture!

    override func setUpWithError() throws {
        try super.setUpWithError()
        fixture = try DaemonFixture(in: world)
    }

    override func tearDown() {
        XCTAssertEqual(fixture?.stop(), 0)
        fixture = nil
    }

    private func manager(_ property: String) throws -> Value? {
        try fixture.connection.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath,
                                            interface: StandardInterface.properties, method: "Get",
                                            values: [.string(Orientation1.managerInterface), .string(property)]).first?.variantValue
    }

    func testSetListShowAndResetAnOverride() throws {
        var result = fixture.ctl("app", "set", "org.example.Video", "landscape")
        XCTAssertEqual(result.status, 0, result.stderr)
        result = fixture.ctl("app", "list")
        XCTAssertEqual(result.stdout, "org.example.Video: landscape-right, landscape-left\nin front: no application reported\n")
        result = fixture.ctl("app", "show", "org.example.Video")
        XCTAssertEqual(result.stdout, "org.example.Video: landscape-right, landscape-left (override)\n")
        result = fixture.ctl("--json", "app", "show", "org.example.Video")
        XCTAssertEqual(result.stdout, #"{"Application": "org.example.Video", "Mask": ["landscape-right", "landscape-left"], "#
                       + #""MaskValue": 24, "Source": "override"}"# + "\n")
        result = fixture.ctl("--json", "app", "list")
        XCTAssertTrue(result.stdout.hasPrefix(#"{"ApplicationOrientations": {"org.example.Video": ["landscape-right", "landscape-left"]}"#),
                      result.stdout)
        result = fixture.ctl("get", "ApplicationOrientations")
        XCTAssertEqual(result.stdout, "org.example.Video=landscape-right,landscape-left\n")

        result = fixture.ctl("app", "reset", "org.example.Video")
        XCTAssertEqual(result.status, 0, result.stderr)
        result = fixture.ctl("app", "show", "org.example.Video")
        XCTAssertTrue(result.stdout.hasPrefix("org.example.Video: declares nothing; the application mask applies (no "
                                              + "org.example.Video.desktop in "), result.stdout)
        XCTAssertEqual(fixture.ctl("app", "reset", "org.example.Video").status, 0, "resetting twice is no error")
    }

    func testBadInputIsExplained() throws {
        var result = fixture.ctl("app", "set", "../etc/passwd", "portrait")
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("is not an application id"), result.stderr)
        result = fixture.ctl("app", "set", "org.example.Video", "sideways")
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("'sideways'"), result.stderr)
        result = fixture.ctl("app", "frob")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("set, reset, list or show"), result.stderr)
        result = fixture.ctl("app", "show")
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(try manager("ApplicationOrientations"), .dict(keySignature: "s", valueSignature: "u", []))
    }

    /// KWin's script reaches only the session bus: the relay passes its reports on to the daemon's bus,
    /// with an id that is not a desktop-file id sent as none and its pid kept.
    func testTheRelayPassesFocusFromTheSessionBusToTheDaemon() throws {
        let session = try PrivateBus()
        defer { session.stop() }
        let relay = try ChildProcess([orientationctl, "--address", fixture.bus.address, "relay-focus"],
                                     output: .files(stdout: fixture.directory + "/relay.out", stderr: fixture.directory + "/relay.err"),
                                     environment: ["DBUS_SESSION_BUS_ADDRESS": session.address])
        defer { relay.signal(SIGTERM); _ = relay.waitForExit(timeout: 5) }
        func report(_ app: String, _ pid: String) -> ToolResult {
            runTool(["gdbus", "call", "--address", session.address, "--dest", "org.orientationd.FocusRelay",
                     "--object-path", "/org/orientationd/FocusRelay", "--method", "org.orientationd.FocusRelay1.SetFocusedApplication",
                     app, pid])
        }
        XCTAssertTrue(waitUntil(5) { report("org.example.Video", "4321").status == 0 }, relay.stderr)
        XCTAssertTrue(relay.stderr.contains("relay-focus: serving org.orientationd.FocusRelay on the session bus; focus reports "
                                            + "go to orientationd on \(fixture.bus.address)"), "it says it started: \(relay.stderr)")
        XCTAssertTrue(waitUntil(3) { (try? self.manager("FocusedApplication")) == .string("org.example.Video") })
        XCTAssertEqual(try manager("FocusedProcess"), .uint32(4321))
        XCTAssertEqual(report("window:3", "99").status, 0)
        XCTAssertTrue(waitUntil(3) { (try? self.manager("FocusedProcess")) == .uint32(99) })
        XCTAssertEqual(try manager("FocusedApplication"), .string(""))

        // A restarted daemon learns the focus again from the relay.
        try fixture.restartDaemon()
        XCTAssertTrue(waitUntil(5) { (try? self.manager("FocusedProcess")) == .uint32(99) }, relay.stderr)

        // A second relay leaves the first in place.
        let second = runTool(["env", "DBUS_SESSION_BUS_ADDRESS=\(session.address)", orientationctl, "--address", fixture.bus.address,
                              "relay-focus"])
        XCTAssertTrue(second.stderr.contains("another relay runs"), second.stderr)
        XCTAssertTrue(relay.isRunning)
    }

    /// What desktop files accept is accepted (`landscape;portrait;`), and an id no application can
    /// have is refused naming the one it should be.
    func testAppIDsAndMasksAsDesktopFilesWriteThem() throws {
        var result = fixture.ctl("app", "set", "org.gnome.Maps.desktop", "portrait")
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("'org.gnome.Maps.desktop' is a desktop file's name; the application id is "
                                             + "'org.gnome.Maps'"), result.stderr)
        XCTAssertTrue(result.stderr.contains("Try 'orientationctl app --help'."), result.stderr)
        for verb in [["show"], ["reset"]] {
            XCTAssertEqual(fixture.ctl(["app"] + verb + ["org.gnome.Maps.desktop"]).status, 2, "\(verb)")
        }
        result = fixture.ctl("app", "set", "org.gnome.Maps", "landscape;portrait;")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(fixture.ctl("get", "ApplicationOrientations").stdout, "org.gnome.Maps=portrait,landscape-right,landscape-left\n")
        XCTAssertEqual(try manager("ApplicationOrientations"),
                       .dict(keySignature: "s", valueSignature: "u", [(.string("org.gnome.Maps"), .uint32(26))]))
    }

    /// A mask of 0 is refused saying what was likely meant, by the tool and by the daemon.
    func testAMaskOfZeroSaysWhatToDoInstead() throws {
        var result = fixture.ctl("app", "set", "org.example.Video", "0")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("a mask of 0 supports no orientation; 'orientationctl app reset org.example.Video' "
                                             + "forgets its orientations"), result.stderr)
        result = fixture.ctl("app-mask", "none")
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("'orientationctl app-mask reset' puts the config's mask back"), result.stderr)
        // The daemon's own errors say it too, for clients that send 0.
        for (method, signature, arguments, hint) in [
            ("SetApplicationMask", "u", ["0"], "ResetApplicationMask puts the config's mask back"),
            ("SetApplicationOrientations", "su", ["org.example.Video", "0"], "ResetApplicationOrientations forgets org.example.Video's"),
        ] {
            let call = runTool(["busctl", "--address=\(fixture.bus.address)", "call", Orientation1.busName, Orientation1.managerPath,
                                Orientation1.managerInterface, method, signature] + arguments)
            XCTAssertNotEqual(call.status, 0)
            XCTAssertTrue(call.stderr.contains("0 supports no orientation") && call.stderr.contains(hint), "\(method): \(call.stderr)")
        }
        XCTAssertEqual(fixture.ctl("get", "ApplicationMask").stdout, "portrait, landscape-right, landscape-left\n")
    }

    /// `app show` tells why an application declares nothing: no desktop file, a file without the key,
    /// or a value that is not valid, with the reason. The reason is the daemon's, from the directories
    /// it reads, which the tool's environment does not name.
    func testShowSaysWhyAnApplicationDeclaresNothing() throws {
        let data = makeTempDirectory("orientationctl-apps")
        mkdir(data + "/applications", 0o755)
        writeText(data + "/applications/org.example.NoKey.desktop", "[Desktop Entry]\nName=No key\n")
        writeText(data + "/applications/org.example.Bad.desktop",
                  "[Desktop Entry]\nName=Bad\nX-Orientationd-SupportedOrientations=sideways;\n")
        writeText(data + "/applications/org.example.Good.desktop",
                  "[Desktop Entry]\nName=Good\nX-Orientationd-SupportedOrientations=landscape;\n")
        writeText(data + "/applications/org.example.Lomiri.desktop",
                  "[Desktop Entry]\nName=Lomiri\nX-Orientationd-SupportedOrientations=sideways;\nX-Ubuntu-Supported-Orientations=landscape\n")
        let other = try World()
        defer { _ = other.tearDown() }
        let configured = try DaemonFixture(in: other, config: "[Applications]\nDataDirs=\(data)\n")
        defer { _ = configured.stop() }
        func show(_ id: String) -> String {
            runTool(["env", "XDG_DATA_DIRS=/nonexistent", orientationctl, "--address", configured.bus.address, "app", "show", id]).stdout
        }
        func explain(_ id: String) throws -> String {
            try XCTUnwrap(configured.connection.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath,
                                                             interface: Orientation1.managerInterface,
                                                             method: "ExplainApplicationDeclaration", values: [.string(id)]).first?.stringValue)
        }
        XCTAssertEqual(show("org.example.Good"), "org.example.Good: landscape-right, landscape-left (desktop-file)\n")
        XCTAssertEqual(try explain("org.example.Good"), "\(data)/applications/org.example.Good.desktop declares "
                       + "landscape-right|landscape-left (24) in X-Orientationd-SupportedOrientations")
        let lomiri = try explain("org.example.Lomiri")
        XCTAssertTrue(lomiri.contains("declares landscape-left (16) in X-Ubuntu-Supported-Orientations, after "
                                      + "X-Orientationd-SupportedOrientations=sideways;"), lomiri)
        XCTAssertEqual(show("org.example.None"), "org.example.None: declares nothing; the application mask applies (no "
                       + "org.example.None.desktop in \(data)/applications)\n")
        XCTAssertEqual(show("org.example.NoKey"), "org.example.NoKey: declares nothing; the application mask applies "
                       + "(\(data)/applications/org.example.NoKey.desktop has neither X-Orientationd-SupportedOrientations nor "
                       + "X-Ubuntu-Supported-Orientations)\n")
        let bad = show("org.example.Bad")
        XCTAssertTrue(bad.hasPrefix("org.example.Bad: declares nothing; the application mask applies (\(data)/applications/"
                                    + "org.example.Bad.desktop: X-Orientationd-SupportedOrientations=sideways;: 'sideways'"), bad)
        XCTAssertTrue(bad.contains("names joined by ',', '|' or ';'"), bad)
        XCTAssertEqual(fixture.ctl("app", "show", "../x").status, 2, "a bad id is refused before the daemon is asked")
    }

    /// `focus APP_ID` reports the application in front and holds the report until interrupted; then
    /// the focus clears.
    func testFocusHoldsTheReportUntilInterrupted() throws {
        XCTAssertEqual(fixture.ctl("app", "set", "org.example.Video", "landscape-left").status, 0)
        let focus = try fixture.background("focus", ["focus", "org.example.Video", "--pid", "4321"])
        defer { focus.signal(SIGKILL); _ = focus.waitForExit(timeout: 5) }
        XCTAssertTrue(waitUntil(5) { (try? self.manager("FocusedApplication")) == .string("org.example.Video") }, focus.stderr)
        XCTAssertEqual(try manager("FocusedProcess"), .uint32(4321))
        XCTAssertEqual(try manager("FocusedApplicationSource"), .string("override"))
        XCTAssertTrue(waitUntil(3) { focus.stderr.contains("focus: org.example.Video in front (process 4321) for orientationd") },
                      focus.stderr)
        usleep(300_000)
        XCTAssertTrue(focus.isRunning, "the report is held: \(focus.stderr)")
        XCTAssertEqual(try manager("FocusedApplication"), .string("org.example.Video"))

        focus.signal(SIGINT)
        XCTAssertEqual(focus.waitForExit(timeout: 5), 0, focus.stderr)
        XCTAssertTrue(waitUntil(3) { (try? self.manager("FocusedApplication")) == .string("") }, "the focus cleared")

        let bad = fixture.ctl("focus", "org.example.Video.desktop")
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("the application id is 'org.example.Video'"), bad.stderr)
        XCTAssertEqual(fixture.ctl("focus").status, 2)
    }

    /// `focus` reads the user's own desktop file and sends it with the report, and says whether the
    /// window fills the screen.
    func testFocusSendsTheUsersOwnDesktopFile() throws {
        let home = fixture.directory + "/home"
        for directory in [home, home + "/.local", home + "/.local/share", home + "/.local/share/applications"] { mkdir(directory, 0o755) }
        writeText(home + "/.local/share/applications/org.example.Mine.desktop",
                  "[Desktop Entry]\nType=Application\nName=Mine\nExec=true\nX-Orientationd-SupportedOrientations=landscape-left;\n")
        let focus = try Background(["/usr/bin/env", "HOME=\(home)", "XDG_DATA_HOME=", orientationctl, "--address", fixture.bus.address,
                                    "focus", "org.example.Mine", "--windowed"], in: fixture.directory, name: "focus-mine")
        defer { focus.signal(SIGKILL); _ = focus.waitForExit(timeout: 5) }
        XCTAssertTrue(waitUntil(5) { (try? self.manager("FocusedApplicationSource")) == .string("user-desktop-file") }, focus.stderr)
        XCTAssertEqual(try manager("FocusedApplicationMask"), .uint32(16))
        let app = fixture.ctl("app", "show", "org.example.Mine")
        XCTAssertFalse(app.stdout.contains("user-desktop-file"), "the daemon keeps no user's file: \(app.stdout)")
    }

    func testFocusAndReportFocusExplainBadArguments() throws {
        let both = fixture.ctl("focus", "org.example.Video", "--fullscreen", "--windowed")
        XCTAssertEqual(both.status, 2, both.stderr)
        XCTAssertTrue(both.stderr.contains("--fullscreen and --windowed exclude each other"), both.stderr)
        let extra = fixture.ctl("report-focus", "sway")
        XCTAssertEqual(extra.status, 2, extra.stderr)
        XCTAssertTrue(extra.stderr.contains("report-focus: unknown argument 'sway'"), extra.stderr)
        let missing = fixture.ctl("report-focus", "--helper", fixture.directory + "/no-such-helper")
        XCTAssertEqual(missing.status, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("cannot run \(fixture.directory)/no-such-helper"), missing.stderr)
    }
}
