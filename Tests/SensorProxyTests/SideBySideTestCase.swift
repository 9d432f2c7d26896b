// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// iio-sensor-proxy's `AccelerometerOrientation` strings as device orientations (Docs/sensors.md,
/// the axis table): what the peer says must be what we say.
let sideBySidePeerOrientation: [String: UInt32] = ["normal": 1, "bottom-up": 2, "right-up": 3, "left-up": 4]

/// Side by side: umockdev fake accelerometers read by the REAL iio-sensor-proxy 3.0 and by
/// `orientationd --sensor iio`, both started in the same testbed (made by the driver,
/// SideBySideDriverScript.swift) through the test's `World`, on its private bus (the proxy's
/// "system" bus). Both are claimed from this process (ClaimAccelerometer;
/// BeginGeneratingDeviceOrientationNotifications). Subclasses set the devices up, move them, and
/// compare what the two say.
class SideBySideTestCase: EndToEndTestCase {
    /// One g in raw counts at scale 9.81/256 (the peer's test vectors).
    static let g = 256

    var driver: Child?
    var client: Connection!
    var bus: PrivateBus { world.bus }
    var scratch: String { world.scratch }

    override func setUpWithError() throws {
        try requirePeer()
        try super.setUpWithError()
        client = try world.newConnection()
    }

    // MARK: Helpers

    func log(_ name: String) -> String { readText(scratch + "/" + name) }

    /// The attributes of a polled accelerometer reading raw counts (x, y, z) at scale 9.81/256, with `extra`
    /// added or (when nil) removed.
    static func accelerometer(_ x: Int, _ y: Int, _ z: Int, _ extra: [String: String?] = [:]) -> [String: String] {
        var a = ["in_accel_x_raw": "\(x)", "in_accel_y_raw": "\(y)", "in_accel_z_raw": "\(z)", "in_accel_scale": "0.038320312"]
        for (key, value) in extra { a[key] = value }
        return a
    }

    /// Creates the fake device in `initial` (raw counts), with `ACCEL_MOUNT_MATRIX` when given, and
    /// starts iio-sensor-proxy and orientationd on it; then claims both.
    func start(initial: (Int, Int, Int), mountMatrix: String? = nil) throws {
        try start(devices: [(Self.accelerometer(initial.0, initial.1, initial.2), mountMatrix.map { ["ACCEL_MOUNT_MATRIX": $0] } ?? [:])])
    }

    /// Creates the fake devices (iio:device0, 1, … with these sysfs attributes and udev properties),
    /// starts iio-sensor-proxy and orientationd (with `daemonArguments`) on them; then claims both.
    func start(devices: [(attributes: [String: String], properties: [String: String])], daemonArguments: [String] = []) throws {
        let script = scratch + "/side-by-side.py"
        writeText(script, sideBySideDriverScript)
        let spec: [String: Any] = ["devices": devices.map { ["attrs": $0.attributes, "props": $0.properties] }]
        let specText = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
        // The driver's own libudev builds the uevents it sends, so it must see the testbed too.
        let child = try world.start(["env", "LD_PRELOAD=libumockdev-preload.so.0", "/usr/bin/python3", script, specText],
                                    name: "driver", pipes: true, stopSignal: 0)
        driver = child
        let first = try child.readLine()
        guard first.hasPrefix("ok ") else {
            throw DBusError.failed("the driver did not make the devices: \(first)\ndriver log:\n\(log("driver.log"))")
        }
        let root = String(first.dropFirst(3))
        try world.start(["umockdev-wrapper", "/usr/sbin/iio-sensor-proxy", "-v"], name: "iio-sensor-proxy",
                        environment: ["UMOCKDEV_DIR": root, "DBUS_SYSTEM_BUS_ADDRESS": bus.address],
                        waitFor: SensorProxy.busName, timeout: 10)
        try world.startDaemon(daemonArguments, sensor: "iio", stateDirectory: scratch + "/state",
                              environment: World.testbedEnvironment(root: root).merging(["DBUS_SYSTEM_BUS_ADDRESS": bus.address]) { $1 })
        _ = try client.callBlocking(destination: SensorProxy.busName, path: SensorProxy.path, interface: SensorProxy.busName,
                                    method: "ClaimAccelerometer", timeoutMs: 5000)
        _ = try client.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: Orientation1.managerInterface,
                                    method: "BeginGeneratingDeviceOrientationNotifications", timeoutMs: 5000)
    }

    func property(_ destination: String, _ path: String, _ interface: String, _ name: String) -> Value? {
        let reply = try? client.callBlocking(destination: destination, path: path, interface: StandardInterface.properties,
                                             method: "Get", values: [.string(interface), .string(name)], timeoutMs: 2000)
        return reply?.first.map { $0.variantValue ?? $0 }
    }

    /// What each says now: the peer's `AccelerometerOrientation`, our `DeviceOrientation`.
    func readings() -> (peer: String?, ours: UInt32?) {
        (property(SensorProxy.busName, SensorProxy.path, SensorProxy.busName, "AccelerometerOrientation")?.stringValue,
         property(Orientation1.busName, Orientation1.managerPath, Orientation1.managerInterface, "DeviceOrientation")?.uint32Value)
    }

    /// Sets the fake device (raw counts, scale 9.81/256); returns what both said just before.
    func pose(_ raw: (Int, Int, Int)) throws -> (peer: String?, ours: UInt32?) {
        let before = readings()
        let answer = try driver!.command("pose \(raw.0) \(raw.1) \(raw.2)")
        XCTAssertEqual(answer, "ok", "driver: pose \(raw)")
        return before
    }

    /// One command to the driver, which must answer `ok`.
    func drive(_ command: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try driver!.command(command), "ok", "driver: \(command)", file: file, line: line)
    }

    /// Polls both (the peer polls its device every 700 ms), up to `timeout` s, until each has left
    /// what it said `before` the pose (so neither is still reporting the previous pose: consecutive
    /// poses must differ) and reports `expected` (ours) or its string for it (theirs); then both say
    /// the same thing, and it is the table's.
    func expectBoth(_ expected: UInt32, _ what: String, changedFrom before: (peer: String?, ours: UInt32?)? = nil,
                    timeout: Double = 4, file: StaticString = #filePath, line: UInt = #line) {
        var last: (peer: String?, ours: UInt32?) = (nil, nil)
        func stale() -> Bool { before.map { last.peer == $0.peer || last.ours == $0.ours } ?? false }
        let settled = waitUntil(timeout) {
            last = readings()
            if !stale() && last.peer.flatMap({ sideBySidePeerOrientation[$0] }) == expected && last.ours == expected { return true }
            usleep(20_000)
            return false
        }
        if settled { return }
        let theirs = last.peer.flatMap { sideBySidePeerOrientation[$0] }
        var said = "iio-sensor-proxy says \(last.peer.map { "'\($0)'" } ?? "nothing") (→ \(theirs.map(String.init) ?? "none")), "
            + "orientationd says \(last.ours.map(String.init) ?? "nothing")"
        if let before {
            said += "; before the pose: '\(before.peer ?? "nothing")', \(before.ours.map(String.init) ?? "nothing")"
        }
        let logs = "\norientationd log:\n\(log("daemon.log"))\niio-sensor-proxy log (tail):\n"
            + log("iio-sensor-proxy.log").split(separator: "\n").suffix(15).joined(separator: "\n")
        if stale() {
            XCTFail("\(what): not both changed after \(timeout) s: \(said)\(logs)", file: file, line: line)
        } else if theirs != last.ours {
            XCTFail("\(what): they disagree after \(timeout) s: \(said)\(logs)", file: file, line: line)
        } else {
            XCTFail("\(what): they agree, but not on \(expected) (the table) after \(timeout) s: \(said)\(logs)", file: file, line: line)
        }
    }
}
