// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// 1 g as raw counts with scale 9.81/256, the peer's test vectors.
private let g = 256
private let scale = "0.038320312"

/// The attributes of a polled accelerometer reading (x, y, z) raw counts.
private func accelerometer(_ x: Int, _ y: Int, _ z: Int, _ extra: [String: String] = [:]) -> [String: String] {
    var a = ["name": "accel_3d", "in_accel_x_raw": "\(x)", "in_accel_y_raw": "\(y)", "in_accel_z_raw": "\(z)",
             "in_accel_scale": scale]
    for (k, v) in extra { a[k] = v }
    return a
}

/// The IIO source end to end: a fake accelerometer in a umockdev testbed, the daemon reading it.
final class IIOSourceTests: TestbedTestCase {
    var claimant: Connection?

    override func tearDownWithError() throws {
        claimant?.close()
        claimant = nil
        try super.tearDownWithError()
    }

    // MARK: Helpers

    func start(_ arguments: [String] = [], config: String? = nil, as user: TestAccount? = nil) throws {
        var args = ["--sensor", "iio"] + arguments
        if let config {
            let path = scratch + "/orientationd.conf"
            try config.write(toFile: path, atomically: true, encoding: .utf8)
            args += ["--config", path]
        }
        try launch(args, as: user)
    }

    func property(_ name: String) throws -> Value {
        let reply = try probe.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: StandardInterface.properties,
                                           method: "Get", values: [.string(Orientation1.managerInterface), .string(name)], timeoutMs: 5000)
        return reply.first?.variantValue ?? reply.first ?? .string("")
    }

    func deviceOrientation() throws -> UInt32 { try property("DeviceOrientation").uint32Value ?? 999 }
    func hasAccelerometer() throws -> Bool { try property("HasAccelerometer").boolValue ?? false }

    /// Claims device orientations (P16) from a client that stays connected.
    func claim() throws {
        let c = try Connection(bus: .address(bus.address))
        _ = try c.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: Orientation1.managerInterface,
                               method: "BeginGeneratingDeviceOrientationNotifications", timeoutMs: 5000)
        claimant = c
    }

    func release() throws {
        _ = try claimant?.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: Orientation1.managerInterface,
                                       method: "EndGeneratingDeviceOrientationNotifications", timeoutMs: 5000)
    }

    /// Waits up to `timeout` s for `condition`, polling every 20 ms.
    @discardableResult
    func eventually(_ timeout: Double = 3, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if try condition() { return true }
            usleep(20_000)
        } while Date() < deadline
        return try condition()
    }

    func assertOrientation(_ expected: UInt32, _ message: String = "", timeout: Double = 3,
                           file: StaticString = #filePath, line: UInt = #line) throws {
        let reached = try eventually(timeout) { try deviceOrientation() == expected }
        let actual = try deviceOrientation()
        XCTAssertTrue(reached, "DeviceOrientation is \(actual), not \(expected). \(message)\nlog:\n\(daemon?.log ?? "")",
                      file: file, line: line)
    }

    func logLines(containing text: String) -> Int {
        (daemon?.log ?? "").split(separator: "\n").filter { $0.contains(text) }.count
    }

    // MARK: Polled mode

    func testPolledRawIntegersGiveTheSixOrientations() throws {
        let path = try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0))
        try start()
        XCTAssertTrue(try hasAccelerometer())
        try claim()
        let vectors: [((Int, Int, Int), UInt32)] = [((0, -g, 0), 1), ((0, g, 0), 2), ((-g, 0, 0), 3), ((g, 0, 0), 4),
                                                    ((0, 0, g), 5), ((0, 0, -g), 6), ((0, -g, 0), 1)]
        for ((x, y, z), expected) in vectors {
            try testbed.set(path, ["in_accel_x_raw": "\(x)", "in_accel_y_raw": "\(y)", "in_accel_z_raw": "\(z)"])
            try assertOrientation(expected, "raw (\(x), \(y), \(z))")
        }
    }

    /// What the unit's unprivileged user has: read access to sysfs, nothing else of root's.
    func testAnUnprivilegedUserPollsTheAccelerometer() throws {
        guard TestAccounts.available else { throw unavailable("running the daemon as another user needs root") }
        let user = try TestAccounts.user()
        let path = try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0))
        // Its fake /sys is world-readable as the real one is (IIO's raw attributes are 0444); the bus and a
        // state directory of its own are the unit's.
        XCTAssertEqual(runTool(["chmod", "-R", "a+rX", testbed.root]).status, 0)
        // umockdev's stand-in for the uevent socket lives in the testbed's top directory.
        chmod(testbed.root, 0o777)
        let socket = bus.address.components(separatedBy: "unix:path=").last?.components(separatedBy: ",").first ?? ""
        chmod(dirname(socket), 0o755)
        chmod(socket, 0o777)
        mkdir(scratch + "/state", 0o755)
        chown(scratch + "/state", user.uid, user.gid)
        try start(as: user)
        XCTAssertTrue(readText("/proc/\(daemon!.pid)/status").contains("Uid:\t\(user.uid)\t\(user.uid)"), "not running as \(user.name)")
        XCTAssertTrue(try hasAccelerometer())
        try claim()
        try assertOrientation(1)
        try testbed.set(path, ["in_accel_x_raw": "\(-g)", "in_accel_y_raw": "0"])
        try assertOrientation(3)
        // The orientation alone is saved lazily, within 5 s of the last write (the one at start).
        XCTAssertTrue(eventually(8) { readText(self.scratch + "/state/state").contains("InterfaceOrientation=3") },
                      "the state is saved by the unprivileged user: \(daemon?.log ?? "")")
        XCTAssertEqual(logLines(containing: "no hotplug"), 0, "uevents reach an unprivileged user")
        try testbed.remove(path)
        XCTAssertTrue(try eventually { try !hasAccelerometer() }, "the removal was not seen: \(daemon?.log ?? "")")
    }

    func testPerAxisFloatScaleAndOffsetAreApplied() throws {
        // Milli-g counts with a per-axis float scale (which beats in_accel_scale) and an offset of +1000: raw
        // (-1000, -2000, -1000) is (0, -1 g, 0) only if the offset is applied, and raw (0, -1000, -1000)
        // is (1 g, 0, 0), landscape-right; without the offset it would read portrait, tilted back.
        let path = try testbed.add("iio:device0", attributes: [
            "name": "accel", "in_accel_x_raw": "-1000", "in_accel_y_raw": "-2000", "in_accel_z_raw": "-1000",
            "in_accel_x_scale": "0.00981", "in_accel_y_scale": "0.00981", "in_accel_z_scale": "0.00981",
            "in_accel_offset": "1000", "in_accel_scale": "100",
        ])
        try start()
        try claim()
        try assertOrientation(1)
        try testbed.set(path, ["in_accel_x_raw": "0.0", "in_accel_y_raw": "-1000"])
        try assertOrientation(4)
    }

    // MARK: Mount matrix

    func testConfigMountMatrixComesFirst() throws {
        try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0, ["mount_matrix": "0, 1, 0; -1, 0, 0; 0, 0, 1"]),
                        properties: ["ACCEL_MOUNT_MATRIX": "0, 1, 0; -1, 0, 0; 0, 0, 1"])
        try start(config: "[Sensor]\nMountMatrix=-1, 0, 0; 0, -1, 0; 0, 0, 1\n")
        try claim()
        try assertOrientation(2, "the config's matrix turns portrait upside down")
        XCTAssertEqual(logLines(containing: "from the config's MountMatrix"), 1, daemon!.log)
    }

    func testUdevMountMatrixFromTheUeventFileBeatsSysfs() throws {
        // (0, -g, 0) through "0, 1, 0; -1, 0, 0; 0, 0, 1" is (-g, 0, 0): landscape-left.
        try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0, ["mount_matrix": "-1, 0, 0; 0, -1, 0; 0, 0, 1"]),
                        properties: ["ACCEL_MOUNT_MATRIX": "0, 1, 0; -1, 0, 0; 0, 0, 1"])
        try start()
        try claim()
        try assertOrientation(3)
    }

    func testSysfsMountMatrix() throws {
        try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0, ["mount_matrix": "-1, 0, 0; 0, -1, 0; 0, 0, 1"]))
        try start()
        try claim()
        try assertOrientation(2)
    }

    func testMatrixWithAnAllZeroRowIsSkippedWithAWarning() throws {
        try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0, ["in_accel_mount_matrix": "-1, 0, 0; 0, -1, 0; 0, 0, 1"]),
                        properties: ["ACCEL_MOUNT_MATRIX": "0, 0, 0; 0, 1, 0; 0, 0, 1"])
        try start()
        try claim()
        try assertOrientation(2, "the next source, in_accel_mount_matrix, is used")
        XCTAssertEqual(logLines(containing: "warning: iio:device0: udev property ACCEL_MOUNT_MATRIX ignored"), 1, daemon!.log)
    }

    // MARK: Location

    func testAccelerometerInTheBaseIsIgnored() throws {
        try testbed.add("iio:device0", attributes: accelerometer(0, g, 0, ["location": "base"]))
        try testbed.add("iio:device1", attributes: accelerometer(0, g, 0), properties: ["ACCEL_LOCATION": "base"])
        try start()
        XCTAssertFalse(try hasAccelerometer(), "both are in the base")
        XCTAssertEqual(logLines(containing: "not used: it is in a laptop's base"), 2, daemon!.log)
        // One in the display, added later, is used.
        let display = try testbed.add("iio:device2", attributes: accelerometer(0, -g, 0, ["location": "display"]))
        try testbed.uevent(display, "add")
        XCTAssertTrue(try eventually { try hasAccelerometer() }, daemon!.log)
        try claim()
        try assertOrientation(1)
    }

    /// The kernel's sysfs `label` says where a convertible's accelerometers are: one labelled
    /// `accel-base` alone is not the screen's, so there is no accelerometer to rotate with.
    func testBaseLabelledAccelerometerAloneIsNotUsed() throws {
        let path = try testbed.add("iio:device0", attributes: accelerometer(0, g, 0, ["label": "accel-base"]))
        try start()
        XCTAssertFalse(try hasAccelerometer(), daemon!.log)
        try claim()
        usleep(300_000)
        XCTAssertEqual(try deviceOrientation(), 0, "the base's pose is not the screen's")
        XCTAssertEqual(logLines(containing: "iio:device0: not used: it is in a laptop's base (sysfs label 'accel-base')"), 1, daemon!.log)
        try testbed.uevent(path, "change")
        XCTAssertTrue(eventually { logLines(containing: "device event 'change'") == 1 }, daemon!.log)
        XCTAssertEqual(logLines(containing: "not used"), 1, "logged once, not at every event")
    }

    /// A convertible with both: the display's is used whichever comes first in sysfs. The base one
    /// reads upside down, the display's portrait, so using the wrong one shows.
    func testDisplayAccelerometerIsUsedWhenTheBaseOneComesFirst() throws {
        try testbed.add("iio:device0", attributes: accelerometer(0, g, 0, ["label": "accel-base"]))
        try testbed.add("iio:device1", attributes: accelerometer(0, -g, 0, ["label": "accel-display"]))
        try expectTheDisplaysAccelerometer("iio:device1")
    }

    func testDisplayAccelerometerIsUsedWhenTheBaseOneComesSecond() throws {
        try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0, ["label": "accel-display"]))
        try testbed.add("iio:device1", attributes: accelerometer(0, g, 0, ["label": "accel-base"]))
        try expectTheDisplaysAccelerometer("iio:device0")
    }

    /// One marked as the display's beats one that says nothing, even when that one comes first.
    func testDisplayMarkedAccelerometerBeatsAnUnmarkedOne() throws {
        try testbed.add("iio:device0", attributes: accelerometer(0, g, 0))
        try testbed.add("iio:device1", attributes: accelerometer(0, -g, 0), properties: ["ACCEL_LOCATION": "display"])
        try expectTheDisplaysAccelerometer("iio:device1")
    }

    private func expectTheDisplaysAccelerometer(_ sysname: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try start()
        XCTAssertTrue(try hasAccelerometer(), file: file, line: line)
        try claim()
        try assertOrientation(1, "the display's reads portrait", file: file, line: line)
        XCTAssertEqual(logLines(containing: "accelerometer \(sysname), in the display"), 1, daemon!.log, file: file, line: line)
    }

    /// udev sends `change` when hwdb learns a quirk (or applies it after the kernel announced the
    /// device): the new `ACCEL_MOUNT_MATRIX` is used at once, without a restart.
    func testChangeEventWithANewMountMatrixIsApplied() throws {
        let path = try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0))
        try start()
        try claim()
        try assertOrientation(1)
        try testbed.setProperty(path, "ACCEL_MOUNT_MATRIX", "0, 1, 0; -1, 0, 0; 0, 0, 1")
        try testbed.uevent(path, "change")
        try assertOrientation(3, "(0, -g, 0) through the quirk reads (-g, 0, 0): landscape-left")
        XCTAssertEqual(logLines(containing: "mount matrix 0, 1, 0; -1, 0, 0; 0, 0, 1 from udev property ACCEL_MOUNT_MATRIX"), 1,
                       daemon!.log)
    }

    /// A `change` that marks the device as the base's takes it out of use.
    func testChangeEventWithANewLocationIsApplied() throws {
        let path = try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0))
        try start()
        try claim()
        try assertOrientation(1)
        try testbed.setProperty(path, "ACCEL_LOCATION", "base")
        try testbed.uevent(path, "change")
        XCTAssertTrue(try eventually { try !hasAccelerometer() }, daemon!.log)
        try assertOrientation(0)
    }

    // MARK: Scale

    /// A scale off by ten makes gravity read 10 g, which the gates would drop forever.
    func testAScaleOffByTenIsLearned() throws {
        try expectALearnedScale(["in_accel_scale": "0.38320312"], factor: "10.0")
    }

    /// Off by a thousand the other way: 0.001 g.
    func testAScaleOffByAThousandthIsLearned() throws {
        try expectALearnedScale(["in_accel_scale": "0.000038320312"], factor: "0.001")
    }

    /// No scale attribute at all: raw counts of 256 per g read as 26 g.
    func testAMissingScaleIsLearned() throws {
        try expectALearnedScale(["in_accel_scale": nil], factor: "26.1")
    }

    /// The device turns landscape, portrait, and keeps the learned scale for the next claim (its
    /// pose comes back within the settle time, not after another second of learning); the factor is
    /// logged once.
    private func expectALearnedScale(_ scale: [String: String?], factor: String, file: StaticString = #filePath, line: UInt = #line) throws {
        var attributes = accelerometer(-g, 0, 0)
        for (key, value) in scale { attributes[key] = value }
        let path = try testbed.add("iio:device0", attributes: attributes)
        try start()
        try claim()
        try assertOrientation(3, "learned within a second or so", timeout: 4, file: file, line: line)
        try testbed.set(path, ["in_accel_x_raw": "0", "in_accel_y_raw": "\(-g)"])
        try assertOrientation(1, file: file, line: line)
        try release()
        try assertOrientation(0, file: file, line: line)
        try claim()
        let start = Date()
        try assertOrientation(1, file: file, line: line)
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.7, "the scale was learned again", file: file, line: line)
        XCTAssertEqual(logLines(containing: "the device's scale is off by a factor of \(factor);"), 1, daemon!.log, file: file, line: line)
        XCTAssertEqual(logLines(containing: "accelerometer scale"), 1, daemon!.log, file: file, line: line)
    }

    // MARK: Sampling frequency

    /// A sensor left at 1 Hz would answer a 20 Hz poll with the same value for a second: once found it
    /// runs at the nearest listed rate at or above 10 Hz, as the peer leaves it; at the nearest at or
    /// above the poll rate while claimed, and at the first again after.
    func testSlowSensorIsSpedUpWhileClaimedAndPutBackAfter() throws {
        try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0, [
            "sampling_frequency": "1.000000", "sampling_frequency_available": "1 5 10 25 50"]))
        try start()
        XCTAssertEqual(try testbed.read("/sys/devices/iio:device0/sampling_frequency"), "10", "raised to 10 Hz once found")
        for round in 1...2 {
            try claim()
            let raised = try eventually { try testbed.read("/sys/devices/iio:device0/sampling_frequency") == "25" }
            let value = try testbed.read("/sys/devices/iio:device0/sampling_frequency")
            XCTAssertTrue(raised, "claim \(round): \(value)\n\(daemon!.log)")
            try assertOrientation(1)
            try release()
            XCTAssertTrue(try eventually { try testbed.read("/sys/devices/iio:device0/sampling_frequency") == "10" },
                          "put back after claim \(round)")
        }
        XCTAssertEqual(logLines(containing: "sampling frequency raised from 10 to 25 Hz"), 1, daemon!.log)
    }

    /// Without a list of rates 10 Hz, then the poll rate itself, is asked for; the channel's attribute counts too.
    func testChannelSamplingFrequencyWithoutAListIsSetToThePollRate() throws {
        try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0, ["in_accel_sampling_frequency": "2"]))
        try start()
        XCTAssertEqual(try testbed.read("/sys/devices/iio:device0/in_accel_sampling_frequency"), "10", "raised to 10 Hz once found")
        try claim()
        XCTAssertTrue(try eventually { try testbed.read("/sys/devices/iio:device0/in_accel_sampling_frequency") == "20" }, daemon!.log)
        try release()
        XCTAssertTrue(try eventually { try testbed.read("/sys/devices/iio:device0/in_accel_sampling_frequency") == "10" })
    }

    /// A device that refuses the new rate (here a read-only file: even root cannot write a 0444
    /// sysctl) is read as it is, and that is logged once, not at every claim.
    func testSamplingFrequencyRefusedIsLoggedOnceAndTheDeviceStillRead() throws {
        try testbed.add("iio:device0", attributes: accelerometer(-g, 0, 0, ["sampling_frequency": "1"]))
        try testbed.symlink("/sys/devices/iio:device0/sampling_frequency", to: "/proc/sys/kernel/cap_last_cap")
        guard let value = Int(try testbed.read("/sys/devices/iio:device0/sampling_frequency")), value < 200 else {
            throw XCTSkip("cap_last_cap is not a small number on this kernel")
        }
        try start(config: "[Sensor]\nPollHz=200\n")
        for _ in 1...2 {
            try claim()
            try assertOrientation(3)
            try release()
            try assertOrientation(0)
        }
        XCTAssertEqual(logLines(containing: "cannot raise the sampling frequency"), 1, daemon!.log)
    }

    // MARK: Faults

    func testGarbageValueIsSkippedLoggedOnceAndNeverGivesAWrongOrientation() throws {
        let path = try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0))
        try start()
        try claim()
        try assertOrientation(1)
        // Read in part, "256abc" would be upside down: it must be refused as a whole.
        try testbed.set(path, "in_accel_y_raw", "256abc")
        var seen = Set<UInt32>()
        let deadline = Date().addingTimeInterval(1.0)
        while Date() < deadline {
            seen.insert(try deviceOrientation())
            usleep(20_000)
        }
        XCTAssertTrue(seen.isSubset(of: [0, 1]), "saw \(seen.sorted()) while the value was garbage")
        XCTAssertEqual(try deviceOrientation(), 0, "after repeated failures the orientation is unknown, not held forever")
        XCTAssertEqual(logLines(containing: "holds '256abc', not a number"), 1, "logged once per episode:\n\(daemon!.log)")
        try testbed.set(path, "in_accel_y_raw", "")
        usleep(300_000)
        XCTAssertEqual(logLines(containing: "not a number"), 1, "still the same episode")
        try testbed.set(path, "in_accel_y_raw", "-256")
        try assertOrientation(1, "recovers when reads work again")
        XCTAssertEqual(logLines(containing: "readings work again"), 1, daemon!.log)
        XCTAssertTrue(daemon!.isRunning)
    }

    func testGarbageScaleIsAFaultNotAWrongOrientation() throws {
        let path = try testbed.add("iio:device0", attributes: accelerometer(0, g, 0, ["in_accel_scale": "-25,6"]))
        try start()
        try claim()
        usleep(500_000)
        XCTAssertEqual(try deviceOrientation(), 0)
        XCTAssertEqual(logLines(containing: "in_accel_scale holds '-25,6'"), 1, daemon!.log)
        try testbed.set(path, "in_accel_scale", scale)
        try assertOrientation(2)
    }

    // MARK: Hotplug

    func testRemovedDeviceReadsUnknownAndComesBackWithoutRestart() throws {
        var path = try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0))
        try start()
        try claim()
        try assertOrientation(1)
        try testbed.uevent(path, "remove")
        try testbed.remove(path)
        XCTAssertTrue(try eventually { try !hasAccelerometer() }, daemon!.log)
        try assertOrientation(0, "a vanished device reads unknown, never a stale pose")
        path = try testbed.add("iio:device0", attributes: accelerometer(-g, 0, 0))
        try testbed.uevent(path, "add")
        XCTAssertTrue(try eventually { try hasAccelerometer() }, daemon!.log)
        try assertOrientation(3, "the claim is still valid: the new device is read at once")
    }

    func testRemoveEventIsSeenWhileUnclaimed() throws {
        // Nothing reads the device while unclaimed, so only the uevent can tell it went away.
        let path = try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0))
        try start()
        XCTAssertTrue(try hasAccelerometer())
        try testbed.uevent(path, "remove")
        try testbed.remove(path)
        XCTAssertTrue(try eventually { try !hasAccelerometer() }, daemon!.log)
        XCTAssertEqual(logLines(containing: "iio:device0: accelerometer removed"), 1, daemon!.log)
    }

    func testDeviceAppearingAfterStartIsPickedUp() throws {
        try start()
        XCTAssertFalse(try hasAccelerometer())
        try claim()
        let path = try testbed.add("iio:device3", attributes: accelerometer(g, 0, 0))
        try testbed.uevent(path, "add")
        XCTAssertTrue(try eventually { try hasAccelerometer() }, daemon!.log)
        try assertOrientation(4)
    }

    func testOtherDevicesComingAndGoingNeverWakeTheDaemon() throws {
        let path = try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0))
        try start()
        usleep(300_000)
        let before = daemon!.contextSwitches
        for i in 0..<20 {
            try testbed.add(description: "P: /devices/usb\(i)\nE: SUBSYSTEM=usb\nE: DEVTYPE=usb_device\nA: idVendor=1d6b\n")
            try testbed.uevent("/sys/devices/usb\(i)", "add")
            try testbed.uevent("/sys/devices/usb\(i)", "remove")
        }
        usleep(300_000)
        XCTAssertEqual(daemon!.contextSwitches, before, "40 usb events woke the daemon; log:\n\(daemon!.log)")
        // The same socket still hears its own subsystem.
        try testbed.uevent(path, "remove")
        try testbed.remove(path)
        XCTAssertTrue(try eventually { try !hasAccelerometer() }, daemon!.log)
    }

    /// Claims a device lying upright under `config`, lets it lie still 1.5 s, and counts the
    /// daemon's wake-ups over the next 2 s.
    private func wakeupsWhileStill(config: String) throws -> (path: String, wakeups: Int) {
        let path = try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0))
        try start(config: config)
        try claim()
        try assertOrientation(1)
        usleep(1_500_000)
        let before = daemon!.contextSwitches
        usleep(2_000_000)
        return (path, daemon!.contextSwitches - before)
    }

    func testAStillDeviceIsPolledAtTheStillRateAndTurnsAreStillSeen() throws {
        let (path, wakeups) = try wakeupsWhileStill(config: "[Sensor]\nPollHz=20\nStillPollHz=4\n")
        XCTAssertEqual(logLines(containing: "polled at 20 Hz, 4 Hz once still"), 1, daemon!.log)
        // 4 Hz is 8 polls in 2 s (20 Hz would be 40).
        XCTAssertLessThanOrEqual(wakeups, 16, "woke \(wakeups) times in 2 s while still")
        try testbed.set(path, ["in_accel_x_raw": "\(-g)", "in_accel_y_raw": "0"])
        try assertOrientation(3, "a turn after a still spell", timeout: 2)
    }

    /// A device set down in a new pose after lying still: the reading that moved is read again
    /// `RestMs` later and, unchanged, reported then, long before the settle time.
    func testATurnFromStillnessIsReportedAtRestBeforeTheSettleTime() throws {
        let (path, _) = try wakeupsWhileStill(config: "[Sensor]\nPollHz=20\nStillPollHz=2\n[Classifier]\nSettleMs=2000\n")
        let start = Date()
        try testbed.set(path, ["in_accel_x_raw": "\(-g)", "in_accel_y_raw": "0"])
        try assertOrientation(3, "a turn after a still spell", timeout: 3)
        // At most a still interval (500 ms) and the rest time (20 ms), against the 2 s settle time.
        XCTAssertLessThan(Date().timeIntervalSince(start), 1.5, daemon!.log)
    }

    /// A turn's fast polls end when it is over: the reading that confirms a step at rest reports its
    /// pose, and the still rate applies from it, not `StillAfterMs` (200 ms) or a second later.
    /// Measured over the second that follows the report.
    func testATurnsFastPollsEndWhenItsPoseIsReported() throws {
        let (path, _) = try wakeupsWhileStill(config: "[Sensor]\nPollHz=50\nStillPollHz=1\n")
        try testbed.set(path, ["in_accel_x_raw": "\(-g)", "in_accel_y_raw": "0"])
        try assertOrientation(3, "the turn", timeout: 3)
        let before = daemon!.contextSwitches
        usleep(1_000_000)
        let wakeups = daemon!.contextSwitches - before
        // At 1 Hz from the report: one poll, and the first change's saved state (its writer's start and
        // end); held 200 ms at 50 Hz first would add 10, a fixed second 50.
        XCTAssertLessThanOrEqual(wakeups, 6, "woke \(wakeups) times in the second after the turn was reported")
    }

    /// `[Sensor] StillAfterMs`: readings that must hold longer keep the moving rate longer.
    func testStillAfterMsDelaysTheStillRate() throws {
        let (_, wakeups) = try wakeupsWhileStill(config: "[Sensor]\nPollHz=20\nStillPollHz=4\nStillAfterMs=60000\n")
        // Still for 3.5 s, but not for a minute: 20 Hz is 40 polls in 2 s (4 Hz would be 8).
        XCTAssertGreaterThanOrEqual(wakeups, 30, "woke \(wakeups) times in 2 s; the still rate came early")
    }

    // MARK: Claims (P16)

    func testNothingReadsOrWakesWhileUnclaimed() throws {
        let path = try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0, ["in_accel_x_raw": "garbage"]))
        try start()
        usleep(300_000)
        var before = daemon!.contextSwitches
        usleep(1_000_000)
        XCTAssertEqual(daemon!.contextSwitches, before, "the daemon woke up while nobody claimed")
        XCTAssertEqual(logLines(containing: "not a number"), 0, "the device was read while nobody claimed:\n\(daemon!.log)")
        // Claimed, it is read (which is how the check above could fail) ...
        try claim()
        XCTAssertTrue(eventually { logLines(containing: "not a number") == 1 }, daemon!.log)
        try testbed.set(path, "in_accel_x_raw", "0")
        try assertOrientation(1)
        // ... and released, it is quiet again: no timer left behind.
        try release()
        usleep(300_000)
        before = daemon!.contextSwitches
        usleep(1_000_000)
        XCTAssertEqual(daemon!.contextSwitches, before, "the poll timer outlived the claim")
    }

    /// P16: a claim never starts with the pose of an earlier claim. Portrait while claimed, turned to
    /// landscape while nobody claims: the next claim reads 0 and then landscape, never portrait.
    func testAClaimNeverStartsWithThePoseOfAnEarlierClaim() throws {
        let path = try testbed.add("iio:device0", attributes: accelerometer(0, -g, 0))
        try start()
        try claim()
        try assertOrientation(1)
        try release()
        try assertOrientation(0)
        try testbed.set(path, ["in_accel_x_raw": "\(-g)", "in_accel_y_raw": "0"])
        let recorder = try DeviceSignals(address: bus.address)
        try claim()
        XCTAssertTrue(recorder.wait { $0.last == 3 }, "saw \(recorder.values)\n\(daemon!.log)")
        XCTAssertEqual(recorder.values, [3], "the stale portrait must not be shown first")
    }

    /// The other half of P16: a device that did not move between claims still gets its pose, classified afresh.
    func testAnUnmovedDeviceGetsItsPoseAgainOnTheNextClaim() throws {
        try testbed.add("iio:device0", attributes: accelerometer(g, 0, 0))
        try start()
        for round in 1...2 {
            try claim()
            try assertOrientation(4, "claim \(round)")
            try release()
            try assertOrientation(0, "released \(round)")
        }
    }

    /// An accelerometer removed while rotation is locked: DeviceOrientation reads 0 at once, not the
    /// pose held at locking time, and HasAccelerometer false.
    func testRemovedWhileLockedReadsUnknown() throws {
        let path = try testbed.add("iio:device0", attributes: accelerometer(-g, 0, 0))
        try start()
        try claim()
        try assertOrientation(3)
        _ = try probe.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: StandardInterface.properties,
                                   method: "Set", values: [.string(Orientation1.managerInterface), .string("RotationLocked"), .variant(.bool(true))],
                                   timeoutMs: 5000)
        try testbed.uevent(path, "remove")
        try testbed.remove(path)
        XCTAssertTrue(try eventually { try !hasAccelerometer() }, daemon!.log)
        try assertOrientation(0, "a removed accelerometer's pose is not held by the lock")
    }

    // MARK: Input (evdev) accelerometers

    /// An evdev accelerometer at /dev/input/event7 whose `EVIOCGABS` answers x, y, z (about 256 counts a g).
    func addInputAccelerometer(_ x: Int32, _ y: Int32, _ z: Int32, properties: String = "") throws {
        try testbed.add(description: """
            P: /devices/platform/lis3lv02d/input/input7/event7
            N: input/event7
            E: DEVNAME=/dev/input/event7
            E: SUBSYSTEM=input
            E: ID_INPUT=1
            E: ID_INPUT_ACCELEROMETER=1
            \(properties)A: dev=13:71

            """)
        try answer(x, y, z)
    }

    /// Makes `EVIOCGABS` on the node answer x, y, z from now on.
    func answer(_ x: Int32, _ y: Int32, _ z: Int32) throws {
        func absinfo(_ value: Int32) -> String {
            [value, -1024, 1024, 0, 0, 0].map { v in
                withUnsafeBytes(of: v.littleEndian) { $0.map { String(format: "%02X", $0) }.joined() }
            }.joined()
        }
        let file = scratch + "/event7-\(x)-\(y)-\(z).ioctl"
        try """
            @DEV /dev/input/event7
            EVIOCGABS 0 \(absinfo(x))
            EVIOCGABS(1) 0 \(absinfo(y))
            EVIOCGABS(2) 0 \(absinfo(z))

            """.write(toFile: file, atomically: true, encoding: .utf8)
        try testbed.loadIoctl("/dev/input/event7", file)
    }

    func testAnInputAccelerometerIsReadThroughEVIOCGABS() throws {
        try addInputAccelerometer(0, -256, 0)
        try start()
        XCTAssertTrue(try hasAccelerometer(), daemon!.log)
        XCTAssertEqual(logLines(containing: "input device /dev/input/event7"), 1, daemon!.log)
        try claim()
        try assertOrientation(1, "(0, -g, 0) is portrait")
    }

    /// umockdev answers `EVIOCGABS` from the record loaded with the device and keeps its first answers,
    /// so each pose is its own device.
    func testAnInputAccelerometerLyingOnItsSideReadsLandscape() throws {
        try addInputAccelerometer(-256, 0, 0)
        try start()
        try claim()
        try assertOrientation(3, "(-g, 0, 0) is landscape-left")
    }

    func testAnInputAccelerometerTakesItsMountMatrix() throws {
        try addInputAccelerometer(256, 0, 0, properties: "E: ACCEL_MOUNT_MATRIX=0, 1, 0; -1, 0, 0; 0, 0, 1\n")
        try start()
        try claim()
        try assertOrientation(1, "raw (+g, 0, 0) through the matrix reads (0, -g, 0): portrait")
    }

    // MARK: Buffered mode

    /// A buffered accelerometer: x, y, z as le:s16 at 0, 2, 4, an enabled 64-bit timestamp at 8 (16-byte frames),
    /// its trigger, and a pty standing in for /dev/iio:device0. Its raw attributes read 0, so only frames can orient it.
    func addBufferedAccelerometer(yType: String = "le:s16/16>>0") throws {
        try testbed.add(description: """
            P: /devices/iio:device0
            N: iio:device0
            E: DEVNAME=/dev/iio:device0
            E: SUBSYSTEM=iio
            A: dev=241:0
            A: name=accel_3d
            A: in_accel_x_raw=0
            A: in_accel_y_raw=0
            A: in_accel_z_raw=0
            A: in_accel_scale=\(scale)
            A: buffer/enable=0
            A: buffer/length=8
            A: trigger/current_trigger=
            A: scan_elements/in_accel_x_en=0
            A: scan_elements/in_accel_x_index=0
            A: scan_elements/in_accel_x_type=le:s16/16>>0
            A: scan_elements/in_accel_y_en=0
            A: scan_elements/in_accel_y_index=1
            A: scan_elements/in_accel_y_type=\(yType)
            A: scan_elements/in_accel_z_en=0
            A: scan_elements/in_accel_z_index=2
            A: scan_elements/in_accel_z_type=le:s16/16>>0
            A: scan_elements/in_timestamp_en=1
            A: scan_elements/in_timestamp_index=3
            A: scan_elements/in_timestamp_type=le:s64/64>>0

            """)
        try testbed.add(description: "P: /devices/trigger0\nE: SUBSYSTEM=iio\nA: name=accel_3d-dev0\n")
    }

    private func le16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)] }

    private func frame(_ x: Int, _ y: [UInt8], _ z: Int) -> [UInt8] {
        le16(x) + y + le16(z) + [0, 0] + [1, 2, 3, 4, 5, 6, 7, 8]
    }

    func testBufferedModeReadsFramesAndStopsOnRelease() throws {
        try addBufferedAccelerometer()
        try start()
        XCTAssertEqual(logLines(containing: "buffered (trigger accel_3d-dev0"), 1, daemon!.log)
        XCTAssertEqual(try testbed.read("/sys/devices/iio:device0/buffer/enable"), "0", "not enabled before a claim")
        try claim()
        XCTAssertTrue(try eventually { try testbed.read("/sys/devices/iio:device0/buffer/enable") == "1" }, daemon!.log)
        XCTAssertEqual(try testbed.read("/sys/devices/iio:device0/trigger/current_trigger"), "accel_3d-dev0")
        for axis in ["x", "y", "z"] {
            XCTAssertEqual(try testbed.read("/sys/devices/iio:device0/scan_elements/in_accel_\(axis)_en"), "1")
        }
        XCTAssertTrue(eventually { openNodes() == 1 }, "the node is open while claimed")
        // Two frames in one write and one split across writes: the newest complete frame counts.
        try testbed.writeDevice("/dev/iio:device0", frame(0, le16(-g), 0) + frame(g, le16(0), 0))
        try assertOrientation(4)
        let split = frame(0, le16(g), 0)
        for _ in 0..<3 {
            try testbed.writeDevice("/dev/iio:device0", Array(split[0..<5]))
            try testbed.writeDevice("/dev/iio:device0", Array(split[5...]))
            usleep(60_000)
        }
        try assertOrientation(2)
        try release()
        XCTAssertTrue(try eventually { try testbed.read("/sys/devices/iio:device0/buffer/enable") == "0" }, "disabled on release")
        XCTAssertTrue(eventually { openNodes() == 0 }, "the node is closed on release")
        XCTAssertEqual(logLines(containing: "polling"), 0, "no fallback was needed:\n\(daemon!.log)")
    }

    /// A device that reports only on change (a HID sensor hub's): claimed and lying still, the daemon
    /// sleeps on the node; no timer wakes it, and the next report is read at once.
    func testABufferedAccelerometerFedOnlyOnChangeNeverWakesTheDaemonWhileStill() throws {
        try addBufferedAccelerometer()
        try start()
        try claim()
        XCTAssertTrue(eventually { openNodes() == 1 }, daemon!.log)
        for _ in 0..<3 {
            try testbed.writeDevice("/dev/iio:device0", frame(0, le16(-g), 0))
            usleep(60_000)
        }
        try assertOrientation(1)
        usleep(1_000_000)
        let before = daemon!.contextSwitches
        usleep(2_000_000)
        XCTAssertEqual(daemon!.contextSwitches - before, 0, "the daemon woke while the buffered device was silent")
        for _ in 0..<3 {
            try testbed.writeDevice("/dev/iio:device0", frame(g, le16(0), 0))
            usleep(60_000)
        }
        try assertOrientation(4)
    }

    func testBufferedBigEndianShiftedChannel() throws {
        // y as 12 bits, big-endian, shifted by 4: -256 is 0xF00 << 4 = 0xF000.
        try addBufferedAccelerometer(yType: "be:s12/16>>4")
        try start()
        try claim()
        XCTAssertTrue(eventually { openNodes() == 1 }, daemon!.log)
        for _ in 0..<3 {
            try testbed.writeDevice("/dev/iio:device0", frame(0, [0xf0, 0x00], 0))
            usleep(60_000)
        }
        try assertOrientation(1)
        for _ in 0..<3 {
            try testbed.writeDevice("/dev/iio:device0", frame(0, [0x10, 0x00], 0))
            usleep(60_000)
        }
        try assertOrientation(2)
    }

    func testBufferSetupFailureFallsBackToPolling() throws {
        // A scan element type the kernel would never print: buffered setup fails, polling takes over.
        try addBufferedAccelerometer(yType: "le:s16/24>>0")
        try testbed.set("/sys/devices/iio:device0", ["in_accel_y_raw": "\(-g)"])
        try start()
        try claim()
        try assertOrientation(1)
        XCTAssertEqual(logLines(containing: "buffered reading unavailable"), 1, daemon!.log)
    }

    /// How many descriptors of the daemon point at a pty (the fake /dev/iio:device0).
    func openNodes() -> Int {
        guard let daemon else { return -1 }
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/fd")) ?? []
        return fds.filter { ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(daemon.pid)/fd/\($0)")) ?? "")
            .hasPrefix("/dev/pts/") }.count
    }
}

/// Collects `DeviceOrientationDidChange` values as they arrive.
final class DeviceSignals {
    private let connection: Connection
    private(set) var values: [UInt32] = []

    init(address: String) throws {
        connection = try Connection(bus: .address(address))
        try connection.addMatch("type='signal',interface='\(Orientation1.managerInterface)',member='DeviceOrientationDidChange'")
        _ = connection.onSignal { [unowned self] message in
            if message.member == "DeviceOrientationDidChange", let value = (try? message.arguments())?.first?.uint32Value {
                values.append(value)
            }
        }
    }

    /// Runs the main loop until `condition` holds for the values, up to `timeout` s.
    func wait(timeout: Double = 3, _ condition: ([UInt32]) -> Bool) -> Bool {
        waitUntil(timeout) { condition(values) }
    }

    deinit { connection.close() }
}
