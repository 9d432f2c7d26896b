// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// applications.md on the bus: the focused application's declaration (P6a) from an override, the
/// config's `[Applications]` or its desktop file; per-application overrides; every bad input refused.
final class ApplicationTests: DaemonTestCase {
    override class var inProcess: Bool { true }
    override var configText: String? {
        "[Applications]\nDataDirs=\(scratch!)/share\norg.example.Maps=portrait\n"
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        mkdir(scratch + "/share", 0o755)
        mkdir(scratch + "/share/applications", 0o755)
        writeDesktopFile("org.example.Video", "X-Orientationd-SupportedOrientations=landscape;\n")
        writeDesktopFile("org.example.Notes", "")
        writeDesktopFile("org.example.Lomiri", "X-Ubuntu-Supported-Orientations=invertedLandscape\n")
    }

    func writeDesktopFile(_ id: String, _ keys: String) {
        writeText(scratch + "/share/applications/\(id).desktop", "[Desktop Entry]\nType=Application\nName=\(id)\nExec=true\n" + keys)
    }

    func focus(_ app: String, _ pid: UInt32 = 4242, from client: TestClient? = nil) throws {
        try call(client, Orientation1.managerPath, Orientation1.managerInterface, "SetFocusedApplication", [.string(app), .uint32(pid)])
    }

    func declaration(_ app: String) throws -> [Value] {
        try probe.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: Orientation1.managerInterface,
                               method: "ApplicationDeclaration", values: [.string(app)], timeoutMs: 5000)
    }

    func s(_ property: String) throws -> String { try get(property).stringValue ?? "" }

    func testALandscapeOnlyAppTurnsTheUprightDeviceAndAnAppWithoutADeclarationFollowsItAgain() throws {
        let shell = try newClient()
        try claim(shell)
        try setDevice(1)
        let recorder = try newRecorder()
        try focus("org.example.Video", from: shell)
        XCTAssertEqual(try s("FocusedApplication"), "org.example.Video")
        XCTAssertEqual(try u("FocusedApplicationMask"), 24)
        XCTAssertEqual(try s("FocusedApplicationSource"), "desktop-file")
        XCTAssertEqual(try u("FocusedProcess"), 4242)
        XCTAssertEqual(try u("InterfaceOrientation"), 3, "landscape-right, P9's first landscape")
        XCTAssertEqual(try u("DeviceOrientation"), 1)
        XCTAssertTrue(recorder.wait { $0.changed["FocusedApplicationSource"] == .string("desktop-file") }, "\(recorder.events)")

        try focus("org.example.Notes", 4343, from: shell)
        XCTAssertEqual(try s("FocusedApplicationSource"), "none")
        XCTAssertEqual(try u("FocusedApplicationMask"), 0)
        XCTAssertEqual(try u("InterfaceOrientation"), 1, "the device is upright again on screen")
        XCTAssertEqual(recorder.count("WillChange"), 2, "one rotation per focus change: \(recorder.events)")

        try focus("org.example.Maps", from: shell)
        XCTAssertEqual(try s("FocusedApplicationSource"), "config")
        try focus("org.example.Lomiri", from: shell)
        XCTAssertEqual(try u("FocusedApplicationMask"), 8, "Lomiri's invertedLandscape is landscape-right")
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
        try focus("", 0, from: shell)
        XCTAssertEqual(try s("FocusedApplication"), "")
    }

    func testAnOverrideDecidesAtOnceAndIsListedAndResetIsQuiet() throws {
        try setDevice(1)
        let shell = try newClient()
        try focus("org.example.Notes", from: shell)
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "SetApplicationOrientations",
                 [.string("org.example.Notes"), .uint32(16)])
        XCTAssertEqual(try u("InterfaceOrientation"), 4, "the app in front turns to its only orientation")
        XCTAssertEqual(try s("FocusedApplicationSource"), "override")
        XCTAssertEqual(try get("ApplicationOrientations"),
                       .dict(keySignature: "s", valueSignature: "u", [(.string("org.example.Notes"), .uint32(16))]))
        XCTAssertEqual(try declaration("org.example.Notes"), [.uint32(16), .string("override")])
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "ResetApplicationOrientations", [.string("org.example.Notes")])
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "ResetApplicationOrientations", [.string("org.example.Notes")])
        XCTAssertEqual(try s("FocusedApplicationSource"), "none")
        XCTAssertEqual(try declaration("org.example.Video"), [.uint32(24), .string("desktop-file")])
        XCTAssertEqual(try declaration("org.example.Maps"), [.uint32(2), .string("config")])
        XCTAssertEqual(try declaration("org.example.Unknown"), [.uint32(0), .string("none")])
    }

    func testADesktopFileEditedIsReadAgainAtTheNextFocus() throws {
        let shell = try newClient()
        try focus("org.example.Notes", from: shell)
        XCTAssertEqual(try s("FocusedApplicationSource"), "none")
        writeDesktopFile("org.example.Notes", "X-Orientationd-SupportedOrientations=portrait;landscape-left;\n")
        var times = [timespec(tv_sec: time(nil) + 5, tv_nsec: 0), timespec(tv_sec: time(nil) + 5, tv_nsec: 0)]
        utimensat(AT_FDCWD, scratch + "/share/applications/org.example.Notes.desktop", &times, 0)
        try focus("org.example.Video", from: shell)
        try focus("org.example.Notes", from: shell)
        XCTAssertEqual(try u("FocusedApplicationMask"), 18)
    }

    func testBadIdsAndMasksAreNamedErrorsThatChangeNothing() throws {
        let shell = try newClient()
        try focus("org.example.Video", from: shell)
        let before = try getAll()
        for bad in ["../../etc/passwd", "a/b", ".hidden", "-x", "a..b", "white space", String(repeating: "a", count: 256),
                    "window:3"] {
            let message = assertError(std("InvalidArgs")) { try self.focus(bad, from: shell) }
            XCTAssertTrue(message.contains("is not an application id"), message)
            _ = assertError(std("InvalidArgs")) {
                try self.call(nil, Orientation1.managerPath, Orientation1.managerInterface, "SetApplicationOrientations",
                              [.string(bad), .uint32(2)])
            }
            _ = assertError(std("InvalidArgs")) {
                try self.call(nil, Orientation1.managerPath, Orientation1.managerInterface, "ResetApplicationOrientations", [.string(bad)])
            }
            _ = assertError(std("InvalidArgs")) { _ = try self.declaration(bad) }
        }
        for mask: UInt32 in [0, 1, 32, 0xFFFF_FFFF] {
            let message = assertError(std("InvalidArgs")) {
                try self.call(nil, Orientation1.managerPath, Orientation1.managerInterface, "SetApplicationOrientations",
                              [.string("org.example.Video"), .uint32(mask)])
            }
            XCTAssertTrue(message.contains("org.example.Video"), message)
        }
        XCTAssertEqual(try getAll().sorted { $0.key < $1.key }.map(\.key), before.sorted { $0.key < $1.key }.map(\.key))
        for (name, value) in before { XCTAssertEqual(try get(name), value, name) }
    }

    func testTheFirstReporterKeepsTheRoleUntilItLeaves() throws {
        let shell = try newClient()
        try focus("org.example.Video", from: shell)
        // Another connection of the same (privileged) user holds configure-application, so it may take over.
        let other = try newClient()
        try focus("org.example.Notes", from: other)
        XCTAssertEqual(try s("FocusedApplication"), "org.example.Notes")
        other.close()
        XCTAssertTrue(waitUntil(3) { (try? self.s("FocusedApplication")) == "" }, "the focus is cleared when its authority leaves")
        XCTAssertEqual(try s("FocusedApplicationSource"), "none")
    }
}

/// Overrides are durable: acknowledged once on the disk, and in force again after a restart.
final class ApplicationOverrideStateTests: DaemonTestCase {
    func testAnOverrideSurvivesARestartAndAResetToo() throws {
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "SetApplicationOrientations",
                 [.string("org.example.Video"), .uint32(8)])
        XCTAssertTrue(readText(stateDir + "/state").contains("org.example.Video=8"), "written before the reply:\n"
                      + readText(stateDir + "/state"))
        stopDaemon()
        try startDaemon()
        XCTAssertEqual(try get("ApplicationOrientations"),
                       .dict(keySignature: "s", valueSignature: "u", [(.string("org.example.Video"), .uint32(8))]))
        let shell = try newClient()
        try setDevice(1)
        try call(shell, Orientation1.managerPath, Orientation1.managerInterface, "SetFocusedApplication",
                 [.string("org.example.Video"), .uint32(77)])
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
        XCTAssertEqual(try get("FocusedApplicationSource"), .string("override"))
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "ResetApplicationOrientations", [.string("org.example.Video")])
        XCTAssertFalse(readText(stateDir + "/state").contains("org.example.Video"))
        stopDaemon()
        try startDaemon()
        XCTAssertEqual(try get("ApplicationOrientations"), .dict(keySignature: "s", valueSignature: "u", []))
    }

    func testAStateFileWithABadOverrideKeepsTheRest() throws {
        stopDaemon()
        writeText(stateDir + "/state", "[State]\nRotationLocked=true\nInterfaceOrientation=1\n\n[ApplicationOrientations]\n"
                  + "org.example.Good=2\norg.example.Zero=0\norg.example.Word=portrait\n")
        try startDaemon()
        XCTAssertEqual(try get("ApplicationOrientations"),
                       .dict(keySignature: "s", valueSignature: "u", [(.string("org.example.Good"), .uint32(2))]))
        XCTAssertEqual(try b("RotationLocked"), true)
        XCTAssertTrue(daemon?.log.contains("org.example.Zero") ?? false, daemon?.log ?? "")
    }
}
