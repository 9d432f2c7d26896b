// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// The `monitor-sensor` the orientationd-sensor-proxy package ships in place of iio-sensor-proxy's, side by
/// side with the peer's own (/usr/bin/monitor-sensor) under umockdev: each runs alone against a fresh
/// daemon on the same fake accelerometer and light sensor, through the same turns, and the two print the
/// same lines. Against the real iio-sensor-proxy and against orientationd's compatibility interface.
final class MonitorSensorTests: EndToEndTestCase {
    var scratch: String { world.scratch }
    var driver: ChildProcess?
    var root = ""

    override func setUpWithError() throws {
        try requirePeer()
        if !toolExists("monitor-sensor") { throw unavailable("monitor-sensor (package iio-sensor-proxy) is not installed") }
        try super.setUpWithError()
        let script = scratch + "/side-by-side.py"
        writeText(script, sideBySideDriverScript)
        let g = SideBySideTestCase.g
        let spec: [String: Any] = ["devices": [
            ["attrs": SideBySideTestCase.accelerometer(0, -g, 0), "props": [:]],
            ["attrs": ["name": "als", "in_illuminance_input": "120"], "props": ["IIO_SENSOR_PROXY_TYPE": "iio-poll-als"]],
        ]]
        let specText = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
        let child = try world.start(["env", "LD_PRELOAD=libumockdev-preload.so.0", "/usr/bin/python3", script, specText],
                                    name: "driver", pipes: true, stopSignal: 0)
        driver = child
        let first = try child.readLine()
        guard first.hasPrefix("ok ") else { throw DBusError.failed("the driver did not make the devices: \(first)") }
        root = String(first.dropFirst(3))
    }

    /// The turns, raw counts at 9.81/256 per g, each with the string a client sees.
    let turns: [((Int, Int, Int), String)] = {
        let g = SideBySideTestCase.g
        return [((g, 0, 0), "left-up"), ((0, g, 0), "bottom-up"), ((-g, 0, 0), "right-up"), ((0, -g, 0), "normal")]
    }()

    /// Starts `daemon`, then `monitor` alone against it; turns the device (`turns`, by default the four
    /// poses, ending upright), each turn waited for; returns what the monitor printed, and stops both.
    /// `label` tells apart the logs of two sessions of the same pair.
    func session(daemon: String, monitor: String, turns: [((Int, Int, Int), String)]? = nil, label: String = "") throws -> [String] {
        let bus = world.bus.address
        let server: ChildProcess
        if daemon == "peer" {
            server = try world.start(["umockdev-wrapper", "/usr/sbin/iio-sensor-proxy"], name: "peer-\(monitor.count)",
                                     environment: ["UMOCKDEV_DIR": root, "DBUS_SYSTEM_BUS_ADDRESS": bus],
                                     waitFor: SensorProxy.busName, timeout: 10)
        } else {
            // A convertible: the tablet idiom, as with Idiom=auto on such a machine, so upside down is reported.
            let machineInfo = scratch + "/machine-info-convertible"
            writeText(machineInfo, "CHASSIS=convertible\n")
            server = try world.startDaemon(["--sensor-proxy-compat", "--machine-info", machineInfo], name: "orientationd-\(monitor.count)\(label)",
                                           sensor: "iio", stateDirectory: scratch + "/state",
                                           environment: World.testbedEnvironment(root: root).merging(["DBUS_SYSTEM_BUS_ADDRESS": bus]) { $1 },
                                           waitFor: SensorProxy.busName, checked: false)
        }
        let name = "monitor-\(daemon)-\(monitor == "/usr/bin/monitor-sensor" ? "peer" : "ours")\(label)"
        let watcher = try world.start([monitor], name: name, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus])
        XCTAssertTrue(waitUntil(10) { watcher.log.contains("=== No proximity sensor") || watcher.log.contains("=== Has proximity") },
                      "\(name) did not start: \(watcher.log)")
        for (raw, expected) in turns ?? self.turns {
            // The line may be there already (the last turn comes back to the first pose): one more.
            let line = "    Accelerometer orientation changed: \(expected)"
            let seen = watcher.log.components(separatedBy: line).count
            XCTAssertEqual(try driver!.command("pose \(raw.0) \(raw.1) \(raw.2)"), "ok")
            XCTAssertTrue(waitUntil(6) { watcher.log.components(separatedBy: line).count > seen },
                          "\(name) against \(daemon): no new '\(line)':\n\(watcher.log)")
        }
        waitUntil(0.3) { false }
        world.stop(watcher, SIGTERM)
        let lines = watcher.log.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        world.stop(server, SIGTERM, releasing: SensorProxy.busName)
        return lines
    }

    func testTheSameLinesAsThePeersMonitorAgainstThePeer() throws {
        let theirs = try session(daemon: "peer", monitor: "/usr/bin/monitor-sensor")
        let ours = try session(daemon: "peer", monitor: programsDirectory() + "/monitor-sensor")
        XCTAssertEqual(ours, theirs, "line for line")
        XCTAssertTrue(ours.contains("=== Has ambient light sensor (value: 0.000000, unit: lux)"), ours.joined(separator: "\n"))
    }

    /// A daemon whose saved interface orientation is not the device's first reading rotates on the claim.
    /// Until that reading the compatibility interface's orientation reads `undefined`, so no change of it is
    /// announced before the reading's pose: the peer, which saves nothing, announces none either.
    func testEachPoseIsAnnouncedOnceWhenTheSavedPoseIsNotTheFirstReading() throws {
        let g = SideBySideTestCase.g
        _ = try session(daemon: "orientationd", monitor: "/usr/bin/monitor-sensor", turns: [((g, 0, 0), "left-up")], label: "-1")
        XCTAssertEqual(try driver!.command("pose 0 \(-g) 0"), "ok")
        let lines = try session(daemon: "orientationd", monitor: "/usr/bin/monitor-sensor", turns: [((g, 0, 0), "left-up")], label: "-2")
        XCTAssertEqual(lines.filter { $0.hasPrefix("    Accelerometer orientation changed:") },
                       ["    Accelerometer orientation changed: normal", "    Accelerometer orientation changed: left-up"],
                       lines.joined(separator: "\n"))
    }

    func testTheSameLinesAsThePeersMonitorAgainstOrientationd() throws {
        let theirs = try session(daemon: "orientationd", monitor: "/usr/bin/monitor-sensor")
        let ours = try session(daemon: "orientationd", monitor: programsDirectory() + "/monitor-sensor")
        XCTAssertEqual(ours, theirs, "line for line")
        XCTAssertEqual(ours.first, "    Waiting for iio-sensor-proxy to appear")
        XCTAssertTrue(ours.contains("+++ iio-sensor-proxy appeared"), ours.joined(separator: "\n"))
    }

    /// The options of iio-sensor-proxy 3.9's monitor-sensor: one sensor alone, and a bad option refused.
    func testOneSensorAloneAndABadOption() throws {
        let bus = world.bus.address
        try world.start(["umockdev-wrapper", "/usr/sbin/iio-sensor-proxy"], name: "peer",
                        environment: ["UMOCKDEV_DIR": root, "DBUS_SYSTEM_BUS_ADDRESS": bus], waitFor: SensorProxy.busName, timeout: 10)
        let accel = try world.start([programsDirectory() + "/monitor-sensor", "--accel"], name: "accel",
                                    environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus])
        XCTAssertTrue(waitUntil(10) { accel.log.contains("=== Has accelerometer") }, accel.log)
        XCTAssertEqual(try driver!.command("pose -\(SideBySideTestCase.g) 0 0"), "ok")
        XCTAssertTrue(waitUntil(6) { accel.log.contains("    Accelerometer orientation changed: right-up") }, accel.log)
        XCTAssertFalse(accel.log.contains("light"), "--accel watches the accelerometer alone: \(accel.log)")
        XCTAssertFalse(accel.log.contains("proximity"), accel.log)
        world.stop(accel)

        let bad = runTool([programsDirectory() + "/monitor-sensor", "--sideways"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.stdout, "Failed to parse arguments: Unknown option --sideways\n")
        let compass = runTool([programsDirectory() + "/monitor-sensor", "--compass"])
        XCTAssertEqual(compass.status, 1)
        XCTAssertEqual(compass.stdout, "Can't monitor compass as a user other than \"geoclue\"\n")
    }
}
