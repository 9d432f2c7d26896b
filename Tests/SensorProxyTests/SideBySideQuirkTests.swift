// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// The device shapes of real convertibles and quirky drivers, each read by the real iio-sensor-proxy
/// and by orientationd side by side. Each test says what orientationd must report (sensors.md) and
/// what iio-sensor-proxy 3.0 reports, and prints one line saying whether they agree and, where they
/// differ, why; Docs/sensors.md ("Side by side with iio-sensor-proxy") keeps the same table.
final class SideBySideQuirkTests: SideBySideTestCase {
    /// What one of the two says: whether it has an accelerometer, and its orientation as a device orientation.
    struct Reading: Equatable, CustomStringConvertible {
        var hasAccelerometer: Bool?
        var orientation: UInt32?
        var description: String {
            "HasAccelerometer \(hasAccelerometer.map { $0 ? "true" : "false" } ?? "?"), orientation \(orientation.map(String.init) ?? "?")"
        }
    }

    func peer() -> Reading {
        let has = property(SensorProxy.busName, SensorProxy.path, SensorProxy.busName, "HasAccelerometer")?.boolValue
        let text = property(SensorProxy.busName, SensorProxy.path, SensorProxy.busName, "AccelerometerOrientation")?.stringValue
        return Reading(hasAccelerometer: has, orientation: text.map { sideBySidePeerOrientation[$0] ?? 0 })
    }

    func ours() -> Reading {
        Reading(hasAccelerometer: property(Orientation1.busName, Orientation1.managerPath, Orientation1.managerInterface,
                                           "HasAccelerometer")?.boolValue,
                orientation: property(Orientation1.busName, Orientation1.managerPath, Orientation1.managerInterface,
                                      "DeviceOrientation")?.uint32Value)
    }

    /// Waits until `side` reads `expected` (up to `timeout` s), then for `stays` s more in which it must
    /// keep reading it (the peer polls every 700 ms: an answer that is about to change shows in two polls);
    /// returns what it read last, or the first value that broke the stay.
    func wait(for expected: Reading, _ side: () -> Reading, timeout: Double, stays: Double = 1.5) -> Reading {
        var last = side()
        _ = waitUntil(timeout) {
            last = side()
            if last == expected { return true }
            usleep(20_000)
            return false
        }
        guard last == expected else { return last }
        _ = waitUntil(stays) {
            last = side()
            if last != expected { return true }
            usleep(50_000)
            return false
        }
        return last
    }

    /// Checks both against what each is known to do, and prints the comparison.
    func compare(_ shape: String, ours expectedOurs: Reading, peer expectedPeer: Reading, why: String? = nil,
                 file: StaticString = #filePath, line: UInt = #line) {
        let ours = wait(for: expectedOurs, self.ours, timeout: 4)
        // The peer polls every 700 ms; give a wrong answer the time to show, too.
        let peer = wait(for: expectedPeer, self.peer, timeout: 4)
        XCTAssertEqual(ours, expectedOurs, "\(shape): orientationd; log:\n\(self.log("daemon.log"))", file: file, line: line)
        XCTAssertEqual(peer, expectedPeer, "\(shape): iio-sensor-proxy (3.0's known behaviour); log:\n"
                       + self.log("iio-sensor-proxy.log").split(separator: "\n").suffix(20).joined(separator: "\n"), file: file, line: line)
        let verdict = ours == peer ? "same" : "differ: " + (why ?? "?")
        print("side-by-side | \(shape) | orientationd: \(ours) | iio-sensor-proxy: \(peer) | \(verdict)")
    }

    // MARK: Shapes

    private static let present = (portrait: Reading(hasAccelerometer: true, orientation: 1),
                                  upsideDown: Reading(hasAccelerometer: true, orientation: 2),
                                  landscapeLeft: Reading(hasAccelerometer: true, orientation: 3))

    /// A convertible's base accelerometer alone (sysfs `label` `accel-base`), reading the keyboard's pose.
    func testBaseLabelledAccelerometerAlone() throws {
        try start(devices: [(Self.accelerometer(0, Self.g, 0, ["label": "accel-base"]), [:])])
        compare("base-labelled accelerometer alone", ours: Reading(hasAccelerometer: false, orientation: 0),
                peer: Self.present.upsideDown,
                why: "iio-sensor-proxy 3.0 does not read the kernel's label, and takes the base's pose for the screen's")
    }

    /// Base (upside down) and display (portrait) accelerometers, the base's first in sysfs.
    func testBaseAndDisplayAccelerometersBaseFirst() throws {
        try start(devices: [(Self.accelerometer(0, Self.g, 0, ["label": "accel-base"]), [:]),
                            (Self.accelerometer(0, -Self.g, 0, ["label": "accel-display"]), [:])])
        compare("base and display labelled, base first", ours: Self.present.portrait, peer: Self.present.upsideDown,
                why: "iio-sensor-proxy 3.0 does not read the label and takes the first accelerometer, the base's")
    }

    func testBaseAndDisplayAccelerometersDisplayFirst() throws {
        try start(devices: [(Self.accelerometer(0, -Self.g, 0, ["label": "accel-display"]), [:]),
                            (Self.accelerometer(0, Self.g, 0, ["label": "accel-base"]), [:])])
        compare("base and display labelled, display first", ours: Self.present.portrait, peer: Self.present.portrait)
    }

    /// The same convertible marked the older way, by the udev property `ACCEL_LOCATION`, which 3.0 reads.
    func testBaseAndDisplayMarkedByACCEL_LOCATIONBaseFirst() throws {
        try start(devices: [(Self.accelerometer(0, Self.g, 0), ["ACCEL_LOCATION": "base"]),
                            (Self.accelerometer(0, -Self.g, 0), ["ACCEL_LOCATION": "display"])])
        compare("base and display by ACCEL_LOCATION, base first", ours: Self.present.portrait, peer: Self.present.portrait)
    }

    /// udev's `change` after hwdb learns a quirk: the new `ACCEL_MOUNT_MATRIX` turns portrait into landscape-left.
    func testChangeEventWithANewMountMatrix() throws {
        try start(devices: [(Self.accelerometer(0, -Self.g, 0), [:])])
        compare("mount matrix before the change event", ours: Self.present.portrait, peer: Self.present.portrait)
        try drive("prop 0 ACCEL_MOUNT_MATRIX 0, 1, 0; -1, 0, 0; 0, 0, 1")
        try drive("uevent 0 change")
        compare("new ACCEL_MOUNT_MATRIX in a change event", ours: Self.present.landscapeLeft, peer: Self.present.portrait,
                why: "iio-sensor-proxy 3.0 reads the mount matrix when it opens the device, and a change event does not reopen it")
    }

    /// A sensor left at 1 Hz. The peer raised it to 10 Hz when it opened the device and leaves it there; we
    /// raise it to the nearest listed rate at or above 20 Hz while we claim, and put back what we found.
    func testSensorLeftAt1Hz() throws {
        try start(devices: [(Self.accelerometer(-Self.g, 0, 0, ["sampling_frequency": "1", "sampling_frequency_available": "1 5 10 25 50"]), [:])])
        compare("sensor at 1 Hz", ours: Self.present.landscapeLeft, peer: Self.present.landscapeLeft)
        XCTAssertEqual(try driver!.command("read 0 sampling_frequency"), "value 25", "raised while we claim")
        _ = try client.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: Orientation1.managerInterface,
                                    method: "EndGeneratingDeviceOrientationNotifications", timeoutMs: 5000)
        let restored = waitUntil(3) { (try? self.driver!.command("read 0 sampling_frequency")) == "value 10" }
        XCTAssertTrue(restored, "put back to the 10 Hz the peer had set; log:\n\(self.log("daemon.log"))")
        print("side-by-side | sensor at 1 Hz | sampling_frequency: iio-sensor-proxy sets 10 on open and keeps it; "
              + "orientationd 25 while claimed, then 10 again")
    }

    /// Scales off by ten, by a thousandth, and missing (raw counts of 256 per g read as 26 g).
    func testScaleOffByTen() throws {
        try expectScale("0.38320312", "scale off by 10", peer: Self.present.landscapeLeft)
    }

    func testScaleOffByAThousandth() throws {
        try expectScale("0.000038320312", "scale off by 1/1000", peer: Reading(hasAccelerometer: true, orientation: 0),
                        why: "iio-sensor-proxy 3.0 turns readings into whole 1/256 g counts before its angles: at a "
                            + "thousandth of the scale every axis is 0, and it stays 'undefined'")
    }

    func testScaleMissing() throws {
        try expectScale(nil, "scale missing", peer: Self.present.landscapeLeft)
    }

    /// Landscape-left, then portrait: orientationd learns gravity in its first second, the peer's
    /// angles do not depend on the scale (within its integer counts).
    private func expectScale(_ scale: String?, _ shape: String, peer: Reading, why: String? = nil,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        try start(devices: [(Self.accelerometer(-Self.g, 0, 0, ["in_accel_scale": scale]), [:])])
        compare(shape, ours: Self.present.landscapeLeft, peer: peer, why: why, file: file, line: line)
        _ = try pose((0, -Self.g, 0))
        let turned = peer == Self.present.landscapeLeft ? Self.present.portrait : peer
        compare(shape + ", turned to portrait", ours: Self.present.portrait, peer: turned, why: why, file: file, line: line)
    }
}
