// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Foundation
import XCTest
import TestSupport

/// `orientationctl status` says when nothing reports the application in front although the desktop in use
/// has a reporter that is off, and gives the command that turns it on; it says nothing when the reporter is on
/// or the desktop has none. GNOME's state is read with the real gsettings, from a key file of the test's own.
final class ReporterHintTests: EndToEndTestCase {
    var fixture: DaemonFixture!

    override func setUpWithError() throws {
        try super.setUpWithError()
        fixture = try DaemonFixture(in: world)
    }
    override func tearDownWithError() throws {
        _ = fixture?.stop()
        try super.tearDownWithError()
    }

    func status(_ environment: [String: String]) -> ToolResult {
        runTool(["env"] + environment.map { "\($0.key)=\($0.value)" }
                + [programsDirectory() + "/orientationctl", "--address", fixture.bus.address, "status"])
    }

    func testOnSwayWithoutReportFocusTheCommandIsGiven() {
        let result = status(["XDG_CURRENT_DESKTOP": "sway"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("\n\nNothing reports the application in front, so per-application orientations do nothing:\n"
            + "  sway's reporter, orientationctl report-focus, is not running."), result.stdout)
        XCTAssertTrue(result.stdout.contains("\n    orientationctl report-focus &\n"), result.stdout)
    }

    func testOnGnomeTheExtensionIsToBeEnabledUntilItIs() throws {
        guard toolExists("gsettings"), runTool(["gsettings", "list-keys", "org.gnome.shell"]).status == 0 else {
            throw unavailable("gsettings and GNOME Shell's schema (gnome-shell-common) are not installed")
        }
        let home = makeTempDirectory("orientationd-gsettings")
        defer { _ = runTool(["rm", "-rf", home]) }
        let environment = ["XDG_CURRENT_DESKTOP": "GNOME", "GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": home]
        let off = status(environment)
        XCTAssertTrue(off.stdout.contains("  GNOME Shell's extension is not enabled. Turn it on:\n    gnome-extensions enable orientationd-focus"),
                      off.stdout)
        let set = runTool(["env"] + environment.map { "\($0.key)=\($0.value)" }
                          + ["gsettings", "set", "org.gnome.shell", "enabled-extensions", "['orientationd-focus@orientationd.org']"])
        XCTAssertEqual(set.status, 0, set.stderr)
        let on = status(environment)
        XCTAssertFalse(on.stdout.contains("Nothing reports"), on.stdout)
        XCTAssertEqual(on.stdout.split(separator: "\n").count, 22, "the properties alone: \(on.stdout)")
    }

    func testADesktopWithoutAReporterOrAnApplicationReportedSaysNothing() {
        XCTAssertFalse(status(["XDG_CURRENT_DESKTOP": "XFCE"]).stdout.contains("Nothing reports"))
        XCTAssertFalse(status([:]).stdout.contains("Nothing reports"))
    }
}
