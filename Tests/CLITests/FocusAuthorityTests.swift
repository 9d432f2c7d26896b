// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// The focus authority (P6f) on the bus: `SetFocusedProcess`, `FocusedProcess`, and the
/// take-key-window rule, with `orientationctl window` processes as applications, so each
/// window belongs to a process of its own as the bus reports it.
final class FocusAuthorityTests: EndToEndTestCase {
    private var fixture: DaemonFixture!
    private var apps: [Background] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        fixture = try DaemonFixture(in: world)
    }

    override func tearDown() {
        for app in apps { app.kill9() }
        apps = []
        _ = fixture?.stop()
        fixture = nil
    }

    /// An application: a window with `delegateMask`, kept until the test ends. Returns it and its window's path.
    private func app(_ name: String, delegateMask: String, as user: [String] = []) throws -> (Background, String) {
        let app = try Background(user + [orientationctl, "--address", fixture.bus.address, "window", "--delegate-mask", delegateMask],
                                 in: fixture.directory, name: name)
        apps.append(app)
        XCTAssertTrue(waitUntil(5) { !app.isRunning || app.stdout.contains("controller ") }, app.stderr)
        let line = app.stdout.split(separator: "\n").first { $0.hasPrefix("window ") }
        return (app, line.map { String($0.dropFirst("window ".count)) } ?? "")
    }

    private func manager(_ property: String, on connection: Connection? = nil) throws -> Value? {
        try (connection ?? fixture.connection).callBlocking(
            destination: Orientation1.busName, path: Orientation1.managerPath, interface: StandardInterface.properties,
            method: "Get", values: [.string(Orientation1.managerInterface), .string(property)], timeoutMs: 5000).first?.variantValue
    }

    private func focus(_ pid: pid_t, by connection: Connection? = nil) throws {
        _ = try (connection ?? fixture.connection).callBlocking(
            destination: Orientation1.busName, path: Orientation1.managerPath, interface: Orientation1.managerInterface,
            method: "SetFocusedProcess", values: [.uint32(UInt32(pid))], timeoutMs: 5000)
    }

    func testFocusMovesTheKeyWindowAndIsAnnounced() throws {
        let monitor = try fixture.background("monitor", ["--json", "monitor"])
        apps.append(monitor)
        let (landscape, landscapeWindow) = try app("landscape", delegateMask: "landscape")
        let (portrait, portraitWindow) = try app("portrait", delegateMask: "portrait")
        XCTAssertEqual(try manager("FocusedProcess")?.uint32Value, 0, "no authority yet")

        try focus(landscape.pid)
        XCTAssertEqual(try manager("FocusedProcess")?.uint32Value, UInt32(landscape.pid))
        XCTAssertEqual(try manager("KeyWindow")?.objectPathValue, landscapeWindow)
        XCTAssertEqual(try manager("InterfaceOrientation")?.uint32Value, 3, "the landscape-only window rules")
        XCTAssertTrue(waitUntil(3) { monitor.stdout.contains("\"FocusedProcess\": \(landscape.pid)") }, monitor.stdout)

        try focus(portrait.pid)
        XCTAssertEqual(try manager("KeyWindow")?.objectPathValue, portraitWindow)
        XCTAssertEqual(try manager("InterfaceOrientation")?.uint32Value, 1)

        // A process that has no window: no key window, the application mask.
        try focus(getpid())
        XCTAssertEqual(try manager("KeyWindow")?.objectPathValue, "/")
        XCTAssertEqual(try manager("SupportedMask")?.uint32Value, try manager("ApplicationMask")?.uint32Value)
    }

    func testABackgroundChoiceIsRememberedAndAppliedOnFocus() throws {
        let (first, firstWindow) = try app("first", delegateMask: "portrait")
        try focus(first.pid)
        // `window` calls MakeKeyAndVisible: with first focused, that is only remembered.
        let (second, secondWindow) = try app("second", delegateMask: "landscape-left")
        XCTAssertTrue(second.isRunning, "MakeKeyAndVisible from the background succeeds: \(second.stderr)")
        XCTAssertEqual(try manager("KeyWindow")?.objectPathValue, firstWindow)
        XCTAssertEqual(try manager("InterfaceOrientation")?.uint32Value, 1)
        try focus(second.pid)
        XCTAssertEqual(try manager("KeyWindow")?.objectPathValue, secondWindow)
        XCTAssertEqual(try manager("InterfaceOrientation")?.uint32Value, 4)
    }

    func testTheAuthorityLeavingClearsTheFocus() throws {
        let (app, window) = try app("app", delegateMask: "landscape")
        let authority = try Connection(bus: .address(fixture.bus.address))
        try focus(app.pid, by: authority)
        XCTAssertEqual(try manager("FocusedProcess")?.uint32Value, UInt32(app.pid))
        authority.close()
        XCTAssertTrue(waitUntil(3) { (try? self.manager("FocusedProcess"))??.uint32Value == 0 }, "the focus was not cleared")
        XCTAssertEqual(try manager("KeyWindow")?.objectPathValue, window, "the key window stays")
    }

    func testSetFocusedProcessIsPrivileged() throws {
        guard getuid() == 0 else { throw unavailable("needs root to switch to uid 65534") }
        let (app, _) = try app("app", delegateMask: "landscape")
        reachableByEveryone()
        let result = runTool(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "dbus-send",
                              "--bus=\(fixture.bus.address)", "--print-reply", "--dest=\(Orientation1.busName)",
                              Orientation1.managerPath, "\(Orientation1.managerInterface).SetFocusedProcess", "uint32:\(app.pid)"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), result.stderr)
        XCTAssertTrue(result.stderr.contains("report-focus"), result.stderr)
        XCTAssertEqual(try manager("FocusedProcess")?.uint32Value, 0)
    }

    /// Without an authority an unprivileged application cannot take the key window from another
    /// client's: refused, it changes nothing, the rotation lock included.
    func testTakingTheKeyWindowWithoutAnAuthorityNeedsThePrivilege() throws {
        guard getuid() == 0 else { throw unavailable("needs root to switch to uid 65534") }
        let (_, window) = try app("first", delegateMask: "portrait")
        XCTAssertEqual(fixture.ctl("lock").status, 0)
        let before = try fixture.ctl("--json", "status").stdout
        reachableByEveryone()
        let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        let taker = try Background(nobody + [orientationctl, "--address", fixture.bus.address, "window", "--delegate-mask", "landscape"],
                                   in: fixture.directory, name: "taker")
        apps.append(taker)
        XCTAssertEqual(taker.waitForExit(timeout: 5), 1, taker.stderr)
        XCTAssertTrue(taker.stderr.contains("org.orientationd.Orientation1.take-key-window"), taker.stderr)
        XCTAssertTrue(taker.stderr.contains("AccessDenied"), taker.stderr)
        XCTAssertTrue(waitUntil(3) { (try? self.manager("KeyWindow"))??.objectPathValue == window })
        XCTAssertEqual(try fixture.ctl("--json", "status").stdout, before, "the refusal changed nothing")
        XCTAssertEqual(fixture.ctl("unlock").status, 0)
        // Root holds the privilege without polkit: the same application may take it.
        let (_, rootWindow) = try app("root", delegateMask: "landscape")
        XCTAssertEqual(try manager("KeyWindow")?.objectPathValue, rootWindow)
    }

    /// Lets uid 65534 reach the private bus' socket.
    private func reachableByEveryone() {
        let socket = fixture.bus.address.components(separatedBy: "unix:path=").last?.components(separatedBy: ",").first ?? ""
        chmod(dirname(socket), 0o755)
        chmod(socket, 0o777)
    }
}
