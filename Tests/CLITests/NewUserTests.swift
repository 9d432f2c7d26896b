// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// What a new user tripped over: a command that did nothing without saying why, options that
/// worked in one place only, errors that pointed at the wrong help, a monitor silent until the first
/// change, and a benchmark line in the daemon's ordinary log.
final class NewUserTests: EndToEndTestCase {
    private var fixture: DaemonFixture!

    override func setUpWithError() throws {
        try super.setUpWithError()
        fixture = try DaemonFixture(in: world)
    }

    override func tearDown() {
        _ = fixture?.stop()
        fixture = nil
    }

    /// `set-device` with nobody claiming, under the lock, and outside the supported orientations
    /// exits 0 and says why the interface did not follow; when it follows, it says nothing.
    func testSetDeviceSaysWhyNothingTurned() throws {
        var result = fixture.ctl("set-device", "landscape-left")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("note: nobody claims the device orientation, so DeviceOrientation reads unknown "
                                             + "and the interface stays portrait"), result.stderr)

        let monitor = try fixture.background("monitor", ["monitor"])
        defer { monitor.signal(SIGTERM); _ = monitor.waitForExit(timeout: 5) }
        XCTAssertTrue(waitUntil(5) { monitor.stdout.contains("state ") }, monitor.stderr)
        result = fixture.ctl("set-device", "landscape-left")
        XCTAssertEqual(result.stderr, "", "the interface followed: nothing to say")
        XCTAssertEqual(fixture.ctl("get", "InterfaceOrientation").stdout, "landscape-right\n")

        XCTAssertEqual(fixture.ctl("lock").status, 0)
        result = fixture.ctl("set-device", "portrait")
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("note: rotation is locked, so DeviceOrientation holds at landscape-left"), result.stderr)
        XCTAssertEqual(fixture.ctl("unlock").status, 0)

        XCTAssertEqual(fixture.ctl("app-mask", "portrait").status, 0)
        result = fixture.ctl("set-device", "landscape-right")
        XCTAssertTrue(result.stderr.contains("note: the supported orientations (portrait) leave out landscape-left, so the "
                                             + "interface stays portrait"), result.stderr)
        result = fixture.ctl("set-device", "face-up")
        XCTAssertTrue(result.stderr.contains("note: face-up never turns the interface; it stays portrait"), result.stderr)
    }

    /// Global options work after the command too; usage errors point at the command's own help; an
    /// unknown property is a usage error listing the properties.
    func testOptionsWorkWhereverTheUserPutsThem() throws {
        let json = fixture.ctl("status", "--json")
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], json.stdout)
        let address = fixture.bus.address
        let after = runTool([orientationctl, "get", "RotationLocked", "--address=\(address)", "--json"])
        XCTAssertEqual(after.stdout, "{\"RotationLocked\": false}\n", after.stderr)

        let bogus = fixture.ctl("get", "Bogus")
        XCTAssertEqual(bogus.status, 2)
        XCTAssertTrue(bogus.stderr.contains("get: 'Bogus' is not a property of orientationd; properties: DeviceOrientation, "
                                            + "InterfaceOrientation"), bogus.stderr)
        XCTAssertTrue(bogus.stderr.hasSuffix("Try 'orientationctl get --help'.\n"), bogus.stderr)
        let extra = fixture.ctl("status", "extra")
        XCTAssertTrue(extra.stderr.hasSuffix("Try 'orientationctl status --help'.\n"), extra.stderr)
        let global = runTool([orientationctl, "--bogus"])
        XCTAssertTrue(global.stderr.hasSuffix("Try 'orientationctl --help'.\n"), global.stderr)
        // After `--` nothing is a global option: `follow exec` runs what follows as it is written.
        let separated = fixture.ctl("inject", "--", "--json", "0", "0")
        XCTAssertEqual(separated.status, 2)
        XCTAssertTrue(separated.stderr.contains("'--json' is not a number"), separated.stderr)
    }

    /// `monitor` prints the state first, as monitor-sensor does, then one line per device change.
    func testMonitorPrintsTheStateFirst() throws {
        let monitor = try fixture.background("monitor", ["monitor"])
        let json = try fixture.background("monitor-json", ["monitor", "--json"])
        defer {
            for m in [monitor, json] { m.signal(SIGTERM); _ = m.waitForExit(timeout: 5) }
        }
        XCTAssertTrue(waitUntil(5) { monitor.stdout.contains("state ") && json.stdout.contains("\"state\"") }, monitor.stderr)
        let first = String(monitor.stdout.split(separator: "\n")[0].dropFirst(13))
        XCTAssertTrue(first.hasPrefix("state DeviceOrientation: ") && first.contains("; InterfaceOrientation: portrait (top edge up); "
                      + "SupportedMask: portrait, landscape-right, landscape-left; RotationLocked: no"), first)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.split(separator: "\n")[0].utf8)) as? [String: Any])
        XCTAssertEqual(object["event"] as? String, "state")
        let properties = try XCTUnwrap(object["properties"] as? [String: Any])
        XCTAssertEqual(properties["InterfaceOrientationValue"] as? Int, 1)
        XCTAssertEqual(properties.count, 22 + 7, "every property, and the raw values of the seven coded ones")
    }

    /// The daemon's ordinary log has no benchmark line; `--verbose` measures the cost and logs it.
    func testTheOrdinaryLogHasNoBenchmarkLine() throws {
        let monitor = try fixture.background("monitor", ["monitor"])
        XCTAssertTrue(waitUntil(5) { monitor.stdout.contains("state ") })
        XCTAssertEqual(fixture.ctl("inject", "0", "9.81", "0").status, 0)
        monitor.signal(SIGTERM)
        _ = monitor.waitForExit(timeout: 5)
        fixture.stopDaemon()
        XCTAssertFalse(fixture.daemon.stderr.contains("per-sample cost"), fixture.daemon.stderr)

        let bus = try PrivateBus()
        defer { bus.stop() }
        let verbose = try Background([orientationd, "--address", bus.address, "--sensor", "simulated", "--verbose",
                                      "--state-dir", fixture.directory + "/verbose-state"], in: fixture.directory, name: "verbose")
        let up = waitUntil(5) { verbose.stderr.contains("serving") }
        XCTAssertTrue(up, verbose.stderr)
        let claim = try Background([orientationctl, "--address", bus.address, "monitor"], in: fixture.directory, name: "claim")
        XCTAssertTrue(waitUntil(5) { claim.stdout.contains("state ") })
        XCTAssertEqual(runTool([orientationctl, "--address", bus.address, "inject", "0", "9.81", "0"]).status, 0)
        claim.signal(SIGTERM)
        _ = claim.waitForExit(timeout: 5)
        verbose.signal(SIGTERM)
        _ = verbose.waitForExit(timeout: 5)
        XCTAssertTrue(verbose.stderr.contains("per-sample cost: median"), verbose.stderr)
    }

    /// `app reset` of an application with nothing to forget and `attempt` that turns nothing say so.
    func testCommandsThatChangeNothingSaySo() throws {
        var result = fixture.ctl("app", "reset", "org.example.Nothing")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("note: org.example.Nothing had no orientations of its own; nothing changed"),
                      result.stderr)
        XCTAssertEqual(fixture.ctl("app", "set", "org.example.Something", "portrait").status, 0)
        result = fixture.ctl("app", "reset", "org.example.Something")
        XCTAssertEqual(result.stderr, "", "an override was forgotten: nothing to say")

        result = fixture.ctl("attempt")
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("note: the device orientation is unknown (nobody claims it"), result.stderr)
        let monitor = try fixture.background("monitor", ["monitor"])
        defer { monitor.signal(SIGTERM); _ = monitor.waitForExit(timeout: 5) }
        XCTAssertTrue(waitUntil(5) { monitor.stdout.contains("state ") })
        XCTAssertEqual(fixture.ctl("lock").status, 0)
        XCTAssertEqual(fixture.ctl("set-device", "landscape-left").status, 0)
        XCTAssertEqual(fixture.ctl("unlock").status, 0, "the interface catches up")
        result = fixture.ctl("attempt")
        XCTAssertTrue(result.stderr.contains("note: the interface stays landscape-right: the device's orientation "
                                             + "(landscape-left) asks for no other"), result.stderr)
    }
}
