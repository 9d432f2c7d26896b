// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// `ReportFocus` (Docs/applications.md, "Screen size: phones and tablets"): the window's state and the
/// user's own desktop file sent with the focus; a focus cleared is a focus change.
class ReportFocusTestCase: DaemonTestCase {
    var idiomLines: String { "" }
    override var configText: String? {
        "[Application]\n\(idiomLines)[Applications]\nDataDirs=\(scratch!)/share\n"
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        mkdir(scratch + "/share", 0o755)
        mkdir(scratch + "/share/applications", 0o755)
        writeText(scratch + "/share/applications/org.example.Video.desktop",
                  "[Desktop Entry]\nType=Application\nName=Video\nExec=true\nX-Orientationd-SupportedOrientations=landscape;\n")
    }

    func report(_ app: String, _ pid: UInt32 = 4242, fullscreen: Bool? = nil, userFile: [String: String] = [:],
                from client: TestClient) throws {
        var details: [(Value, Value)] = []
        if let fullscreen { details.append((.string("fullscreen"), .variant(.bool(fullscreen)))) }
        if !userFile.isEmpty {
            details.append((.string("user-desktop-file"), .variant(.dict(keySignature: "s", valueSignature: "s",
                userFile.sorted { $0.key < $1.key }.map { (.string($0.key), .string($0.value)) }))))
        }
        try reportRaw(app, pid, details, from: client)
    }

    func reportRaw(_ app: String, _ pid: UInt32, _ details: [(Value, Value)], from client: TestClient) throws {
        try call(client, Orientation1.managerPath, Orientation1.managerInterface, "ReportFocus",
                 [.string(app), .uint32(pid), .dict(keySignature: "s", valueSignature: "v", details)])
    }

    func s(_ property: String) throws -> String { try get(property).stringValue ?? "" }

    /// A shell's reporter that claims the device, held upright.
    func uprightShell() throws -> TestClient {
        let shell = try newClient()
        try claim(shell)
        try setDevice(1)
        return shell
    }
}

final class ReportFocusTests: ReportFocusTestCase {
    override class var inProcess: Bool { true }

    func testOnAPhoneAWindowedAppsDeclarationBinds() throws {
        let shell = try uprightShell()
        try report("org.example.Video", fullscreen: false, from: shell)
        XCTAssertEqual(try s("FocusedApplicationSource"), "desktop-file")
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
    }

    func testTheUsersOwnDesktopFileCountsForItsReportOnly() throws {
        let shell = try uprightShell()
        try report("org.example.Mine", userFile: ["X-Orientationd-SupportedOrientations": "landscape-left;"], from: shell)
        XCTAssertEqual(try s("FocusedApplicationSource"), "user-desktop-file")
        XCTAssertEqual(try u("FocusedApplicationMask"), 16)
        XCTAssertEqual(try u("InterfaceOrientation"), 4)
        // Lomiri's key too, and the user's file before the system's.
        try report("org.example.Video", userFile: ["X-Ubuntu-Supported-Orientations": "portrait"], from: shell)
        XCTAssertEqual(try u("FocusedApplicationMask"), 2)
        XCTAssertEqual(try s("FocusedApplicationSource"), "user-desktop-file")
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        // Nothing is kept: the same app reported without the file, as another user's session would.
        XCTAssertEqual(try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "ApplicationDeclaration",
                                [.string("org.example.Mine")]), [.uint32(0), .string("none")])
        shell.close()
        let other = try newClient()
        try claim(other)
        try report("org.example.Mine", from: other)
        XCTAssertEqual(try s("FocusedApplicationSource"), "none")
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        // A bad value is no declaration: the system's file decides.
        try report("org.example.Video", userFile: ["X-Orientationd-SupportedOrientations": "sideways;"], from: other)
        XCTAssertEqual(try s("FocusedApplicationSource"), "desktop-file")
    }

    func testBadDetailsAreNamedErrorsThatChangeNothing() throws {
        let shell = try newClient()
        try report("org.example.Video", fullscreen: true, from: shell)
        let before = try getAll()
        let cases: [([(Value, Value)], String, String)] = [
            ([(.string("fulscreen"), .variant(.bool(true)))], "org.example.Video", "unknown detail 'fulscreen'"),
            ([(.string("fullscreen"), .variant(.uint32(1)))], "org.example.Video", "'fullscreen' is a boolean"),
            ([(.string("user-desktop-file"), .variant(.string("landscape")))], "org.example.Video", "a dictionary (a{ss})"),
            ([(.string("user-desktop-file"), .variant(.dict(keySignature: "s", valueSignature: "s",
                                                              [(.string("Exec"), .string("rm -rf"))])))],
             "org.example.Video", "'Exec' is not an orientation key"),
            ([(.string("user-desktop-file"), .variant(.dict(keySignature: "s", valueSignature: "s",
                                                              [(.string("X-Orientationd-SupportedOrientations"), .string("portrait"))])))],
             "", "needs the application"),
            ([(.string("user-desktop-file"), .variant(.dict(keySignature: "s", valueSignature: "s",
                [(.string("X-Orientationd-SupportedOrientations"), .string(String(repeating: "portrait;", count: 200)))])))],
             "org.example.Video", "at most 1024"),
            ([], "../etc/passwd", "is not an application id"),
        ]
        for (details, app, expected) in cases {
            let message = assertError(std("InvalidArgs")) { try self.reportRaw(app, 7, details, from: shell) }
            XCTAssertTrue(message.contains(expected), "\(expected): \(message)")
        }
        XCTAssertEqual(try getAll(), before)
    }

    func testAFocusThatClearsFollowsTheDeviceAgain() throws {
        try setDevice(1)
        let watcher = try newClient()
        try claim(watcher)
        // The reporter reports no application.
        let shell = try newClient()
        try report("org.example.Video", from: shell)
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
        try report("", 0, from: shell)
        XCTAssertEqual(try u("InterfaceOrientation"), 1, "no application in front: the upright device decides")
        // The reporter leaves the bus.
        try report("org.example.Video", from: shell)
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
        shell.close()
        XCTAssertTrue(waitUntil(3) { (try? self.u("InterfaceOrientation")) == 1 },
                      "the reporter gone, the screen follows the upright device again")
        XCTAssertEqual(try s("FocusedApplication"), "")
    }
}

/// On a tablet a declaration binds only while its window fills the screen; the override always binds.
final class TabletReportFocusTests: ReportFocusTestCase {
    override class var inProcess: Bool { true }
    override var idiomLines: String { "Idiom=tablet\n" }

    func testAWindowedAppsDeclarationDoesNotBindAndAFullscreenOnesDoes() throws {
        let shell = try uprightShell()
        let recorder = try newRecorder()
        try report("org.example.Video", fullscreen: false, from: shell)
        XCTAssertEqual(try s("FocusedApplicationSource"), "not-fullscreen")
        XCTAssertEqual(try u("FocusedApplicationMask"), 0)
        XCTAssertEqual(try u("InterfaceOrientation"), 1, "windowed: the device decides")
        try report("org.example.Video", fullscreen: true, from: shell)
        XCTAssertEqual(try s("FocusedApplicationSource"), "desktop-file")
        XCTAssertEqual(try u("InterfaceOrientation"), 3, "fullscreen: its declaration binds")
        try report("org.example.Video", fullscreen: false, from: shell)
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        XCTAssertEqual(recorder.count("WillChange"), 2, "\(recorder.events)")
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "SetApplicationOrientations",
                 [.string("org.example.Video"), .uint32(16)])
        XCTAssertEqual(try s("FocusedApplicationSource"), "override")
        XCTAssertEqual(try u("InterfaceOrientation"), 4, "the user's override binds windowed too")
    }
}

/// `[Applications] Declarations` overrides the idiom's default.
final class IgnoredDeclarationsTests: ReportFocusTestCase {
    override class var inProcess: Bool { true }
    override var configText: String? {
        "[Applications]\nDataDirs=\(scratch!)/share\nDeclarations=ignore\n"
    }

    func testIgnoredDeclarationsLetTheDeviceDecide() throws {
        let shell = try uprightShell()
        try report("org.example.Video", fullscreen: true, from: shell)
        XCTAssertEqual(try s("FocusedApplicationSource"), "ignored")
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
    }
}

/// A bad value in a user's file is logged once, naming its source.
final class UserDesktopFileLogTests: ReportFocusTestCase {
    func testABadUserValueIsLoggedOnceNamingItsSource() throws {
        let shell = try newClient()
        for _ in 0..<3 {
            try report("org.example.Mine", userFile: ["X-Orientationd-SupportedOrientations": "sideways;"], from: shell)
            try report("", 0, from: shell)
        }
        let log = daemon?.log ?? ""
        XCTAssertEqual(log.components(separatedBy: "user-desktop-file: org.example.Mine.desktop").count - 1, 1, log)
        XCTAssertTrue(log.contains("sideways"), log)
    }
}
