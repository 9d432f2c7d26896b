// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// orientationctl lets polkit ask for a password, as hostnamectl does: its privileged calls carry
/// ALLOW_INTERACTIVE_AUTHORIZATION unless `--no-ask-password` (before or after the command) is given.
/// Against a polkit that grants a check only when it may ask (Fixtures/asking_polkitd.py, on the
/// stock python-dbusmock polkitd template), an ordinary user locks and unlocks; with
/// `--no-ask-password` the refusal says how to be asked.
final class PasswordPromptTests: EndToEndTestCase {
    private var fixture: DaemonFixture!
    private var polkit: ChildProcess?

    override func setUpWithError() throws {
        guard TestAccounts.available, toolExists("setpriv") else { throw unavailable("running as another user needs root and setpriv") }
        guard pythonImports(["dbusmock.templates.polkitd"]).status == 0 else {
            throw DBusError.failed("python3-dbusmock is not installed (apt: python3-dbusmock)")
        }
        try super.setUpWithError()
        fixture = try DaemonFixture(in: world)
        let socket = fixture.bus.address.components(separatedBy: "unix:path=").last?.components(separatedBy: ",").first ?? ""
        chmod(dirname(socket), 0o755)
        chmod(socket, 0o777)
        polkit = try fixture.world.start(["/usr/bin/python3", "-m", "dbusmock", "--system", "--template",
                                          packageRoot + "/Tests/CLITests/Fixtures/asking_polkitd.py"], name: "polkit",
                                         environment: ["PYTHONDONTWRITEBYTECODE": "1", "DBUS_SYSTEM_BUS_ADDRESS": fixture.bus.address],
                                         waitFor: "org.freedesktop.PolicyKit1", timeout: 10)
    }

    override func tearDown() {
        _ = polkit?.stop()
        _ = fixture?.stop()
        fixture = nil
    }

    private func asUser(_ arguments: String...) throws -> ToolResult {
        let user = try TestAccounts.user()
        return runTool(["setpriv", "--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", orientationctl,
                        "--address", fixture.bus.address] + arguments)
    }

    private func askedFlags() throws -> [UInt32] {
        let reply = try fixture.connection.callBlocking(destination: "org.freedesktop.PolicyKit1", path: "/org/freedesktop/PolicyKit1/Authority",
                                                        interface: "org.freedesktop.DBus.Mock", method: "AskedFlags", timeoutMs: 5000)
        return (reply.first?.arrayValues ?? []).compactMap(\.uint32Value)
    }

    func testAnOrdinaryUserLocksThroughThePasswordPrompt() throws {
        let locked = try asUser("lock")
        XCTAssertEqual(locked.status, 0, locked.stderr)
        XCTAssertEqual(fixture.ctl("get", "RotationLocked").stdout, "yes\n")
        XCTAssertEqual(try askedFlags().first, 1, "the check allowed user interaction")

        let unlocked = try asUser("unlock")
        XCTAssertEqual(unlocked.status, 0, unlocked.stderr)
        XCTAssertEqual(fixture.ctl("get", "RotationLocked").stdout, "no\n")

        // Forcing and overriding go the same way.
        let forced = try asUser("set-device", "landscape-left")
        XCTAssertEqual(forced.status, 0, forced.stderr)
        let overridden = try asUser("app", "set", "org.example.Maps", "portrait")
        XCTAssertEqual(overridden.status, 0, overridden.stderr)
        XCTAssertEqual(fixture.ctl("get", "ApplicationOrientations").stdout, "org.example.Maps=portrait\n")
        XCTAssertEqual(try askedFlags(), [1, 1, 1, 1], "every check allowed user interaction")
    }

    func testNoAskPasswordIsRefusedSayingHowToBeAsked() throws {
        for arguments in [["--no-ask-password", "lock"], ["lock", "--no-ask-password"]] {
            let result = runTool(["setpriv", "--reuid=\(try TestAccounts.user().uid)", "--regid=\(try TestAccounts.user().gid)",
                                  "--clear-groups", orientationctl, "--address", fixture.bus.address] + arguments)
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("polkit requires authentication"), result.stderr)
            XCTAssertTrue(result.stderr.contains("without --no-ask-password, orientationctl lets polkit ask for a password"),
                          result.stderr)
            XCTAssertTrue(result.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), result.stderr)
        }
        XCTAssertEqual(try askedFlags(), [0, 0], "neither check allowed user interaction")
        XCTAssertEqual(fixture.ctl("get", "RotationLocked").stdout, "no\n", "the refusals changed nothing")
    }

    /// Reading needs no privilege, so it never asks: no check reaches polkit.
    func testReadingAsksNothing() throws {
        let status = try asUser("status")
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertEqual(try askedFlags(), [])
    }

    /// On a terminal (`script` gives one), orientationctl starts pkttyagent for the prompt, pointed at
    /// the bus polkit is on; without one it starts none.
    func testOnATerminalThePasswordAgentIsStarted() throws {
        guard toolExists("script"), access("/usr/bin/pkttyagent", X_OK) == 0 else {
            throw unavailable("needs script (util-linux) and pkttyagent (polkitd)")
        }
        let user = try TestAccounts.user()
        let onTerminal = runTool(["setpriv", "--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", "script", "-qec",
                                  "\(orientationctl) --address \(fixture.bus.address) lock", "/dev/null"])
        XCTAssertEqual(onTerminal.status, 0, onTerminal.stdout + onTerminal.stderr)
        XCTAssertEqual(fixture.ctl("get", "RotationLocked").stdout, "yes\n")
        XCTAssertEqual(try agents(), ["unix-process"], "pkttyagent registered for orientationctl's process")

        XCTAssertEqual(try asUser("unlock").status, 0)
        XCTAssertEqual(try agents(), ["unix-process"], "no terminal, no agent")
        XCTAssertEqual(try askedFlags(), [1, 1])
    }

    private func agents() throws -> [String] {
        let reply = try fixture.connection.callBlocking(destination: "org.freedesktop.PolicyKit1", path: "/org/freedesktop/PolicyKit1/Authority",
                                                        interface: "org.freedesktop.DBus.Mock", method: "Agents", timeoutMs: 5000)
        return (reply.first?.arrayValues ?? []).compactMap(\.stringValue)
    }
}
