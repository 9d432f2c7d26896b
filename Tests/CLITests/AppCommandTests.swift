@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// `orientationctl app` and `relay-focus` against a real daemon on a private bus.
final class AppCommandTests: XCTestCase {
    private var fixture: DaemonFixture!

    override func setUpWithError() throws {
        fixture = try DaemonFixture()
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
        XCTAssertEqual(result.stdout, "org.example.Video: declares nothing; the application mask applies\n")
        XCTAssertEqual(fixture.ctl("app", "reset", "org.example.Video").status, 0, "resetting twice is no error")
    }

    func testBadInputIsExplained() throws {
        var result = fixture.ctl("app", "set", "../etc/passwd", "portrait")
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("is not an application id") && result.stderr.contains("InvalidArgs"), result.stderr)
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
}
