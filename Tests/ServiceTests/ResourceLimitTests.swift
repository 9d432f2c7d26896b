// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// dbus-api.md, `[Limits]` per uid and in all: any number of connections from one uid stays within
/// the per-uid limits, and all users together within the totals; each refusal is LimitsExceeded
/// naming the limit, and room comes back when a connection leaves.
final class PerUserLimitTests: DaemonTestCase {
    override var configText: String? {
        "[Limits]\nWindows=2\nControllers=3\nWindowsPerUser=5\nControllersPerUser=7\nTotalWindows=6\nTotalControllers=100\n"
    }

    func testManyConnectionsOfOneUserShareItsLimits() throws {
        let apps = try (0..<4).map { _ in try newClient() }
        for app in apps.prefix(2) { for _ in 0..<2 { _ = try registerWindow(app) } }
        _ = try registerWindow(apps[2])
        let before = tree()
        let message = assertError(std("LimitsExceeded")) { _ = try self.registerWindow(apps[3]) }
        XCTAssertTrue(message.contains("uid \(getuid()) already owns 5 windows across its connections"), message)
        XCTAssertTrue(message.contains("WindowsPerUser=5"), message)
        XCTAssertEqual(tree(), before, "a refused window leaves nothing")

        for app in apps.prefix(2) { for _ in 0..<3 { _ = try createController(app) } }
        _ = try createController(apps[2])
        let refused = assertError(std("LimitsExceeded")) { _ = try self.createController(apps[3]) }
        XCTAssertTrue(refused.contains("ControllersPerUser=7"), refused)

        // A connection that leaves gives its user's room back.
        apps[0].close()
        XCTAssertTrue(waitUntil { (try? self.registerWindow(apps[3])) != nil }, "room came back once a connection left")
        _ = try createController(apps[3])
    }

    /// Another uid is held to the total, not to the first user's count. Runs a short Python GIO client
    /// as `nobody`, since the tests themselves run as root.
    func testAnotherUserIsHeldOnlyByTheTotal() throws {
        if getuid() != 0 { throw unavailable("switching to another uid needs root (CI runs as root)") }
        let apps = try (0..<3).map { _ in try newClient() }
        for app in apps.prefix(2) { for _ in 0..<2 { _ = try registerWindow(app) } }
        _ = try registerWindow(apps[2])  // this uid: 5 of 5
        // This uid is at its 5; nobody's first window is the sixth in all, its second passes the total.
        let r = asNobody(windows: 2)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, "\(r.stdout) \(r.stderr)")
        XCTAssertTrue(lines.first?.hasPrefix(Orientation1.managerPath + "/window/") ?? false, r.stdout)
        XCTAssertTrue(lines.last?.contains("org.freedesktop.DBus.Error.LimitsExceeded") ?? false, r.stdout)
        XCTAssertTrue(lines.last?.contains("TotalWindows=6") ?? false, r.stdout)
    }

    /// Runs a client as uid 65534 that registers `windows` windows and prints each path or error.
    private func asNobody(windows: Int) -> ToolResult {
        // A copy any user can read, wherever the tree is checked out.
        let script = scratch + "/register-windows.py"
        writeText(script, fixtureText("ServiceTests/Fixtures/register-windows.py"))
        chmod(scratch, 0o755)
        chmod(script, 0o644)
        return runTool(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", script,
                        bus.address, String(windows)])
    }
}
