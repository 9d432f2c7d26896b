// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import TestSupport

/// 1 g as raw counts with scale 9.81/256.
private let oneG = 256

/// Motion events end to end: a polled accelerometer whose driver offers a motion event
/// (`events/in_accel_x&y&z_mag_rising_en`), its node answering `IIO_GET_EVENT_FD_IOCTL` through
/// umockdev's ioctl emulation. umockdev cannot make a descriptor in the daemon's process, so the
/// answer is a FIFO the daemon was started holding (descriptors 8 and 9, one per claim); the test
/// writes 16-byte `iio_event_data` records into it as the chip would raise its interrupt.
extension IIOSourceTests {
    private static let eventAttribute = "events/in_accel_x&y&z_mag_rising_en"

    /// The accelerometer at (x, y, z) raw counts with a motion event and a node; its sysfs path.
    private func addAccelerometerWithMotionEvents(_ x: Int, _ y: Int, _ z: Int, answering: Bool = true) throws -> String {
        try testbed.add(description: """
            P: /devices/iio:device0
            N: iio:device0
            E: DEVNAME=/dev/iio:device0
            E: SUBSYSTEM=iio
            A: dev=241:0
            A: name=mma8452
            A: in_accel_x_raw=\(x)
            A: in_accel_y_raw=\(y)
            A: in_accel_z_raw=\(z)
            A: in_accel_scale=0.038320312
            A: \(Self.eventAttribute)=0
            A: events/in_accel_x&y&z_mag_rising_value=0.5
            A: events/in_accel_x&y&z_mag_falling_en=0

            """)
        if answering { try testbed.answerEventDescriptor("/dev/iio:device0", fds: [8, 9]) }
        return "/sys/devices/iio:device0"
    }

    /// Starts the daemon holding the FIFO `events` at descriptors 8 and 9; returns the test's end of it.
    private func startHoldingEvents(config: String? = nil) throws -> Int32 {
        let fifo = scratch + "/motion-events"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let end = open(fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(end, 0)
        var args = ["--sensor", "iio"]
        if let config {
            let path = scratch + "/orientationd.conf"
            try config.write(toFile: path, atomically: true, encoding: .utf8)
            args += ["--config", path]
        }
        try launch(args, wrapper: ["sh", "-c", "f=$0; exec \"$@\" 8<>\"$f\" 9<>\"$f\"", fifo])
        return end
    }

    /// One `iio_event_data`: IIO_EVENT_CODE(IIO_ACCEL, 0, IIO_MOD_X_OR_Y_OR_Z, IIO_EV_TYPE_MAG, IIO_EV_DIR_RISING) and a timestamp.
    private func raiseEvent(_ fd: Int32) {
        var record = [UInt8](repeating: 0, count: 16)
        let code: UInt64 = (3 << 32) | (4 << 40) | (2 << 48) | (1 << 56)
        for i in 0..<8 { record[i] = UInt8(truncatingIfNeeded: code >> (8 * UInt64(i))) }
        XCTAssertEqual(write(fd, record, 16), 16)
    }

    private func setPose(_ path: String, _ x: Int, _ y: Int, _ z: Int) throws {
        try testbed.set(path, ["in_accel_x_raw": "\(x)", "in_accel_y_raw": "\(y)", "in_accel_z_raw": "\(z)"])
    }

    /// Claimed and lying still, the device is not polled: the daemon sleeps through a pose written
    /// without an event, and the event that follows has it read at once.
    func testAStillDeviceWithAMotionEventIsNotPolledUntilTheEventWakesTheDaemon() throws {
        let path = try addAccelerometerWithMotionEvents(0, -oneG, 0)
        let events = try startHoldingEvents()
        defer { close(events) }
        try claim()
        try assertOrientation(1, "portrait")
        XCTAssertTrue(try eventually { try testbed.read(path + "/" + Self.eventAttribute) == "1" }, "enabled while claimed: \(daemon!.log)")
        XCTAssertEqual(try testbed.read(path + "/events/in_accel_x&y&z_mag_falling_en"), "0", "a falling event is not motion")
        XCTAssertEqual(logLines(containing: "not polled while still: events/in_accel_x&y&z_mag_rising_en"), 1, daemon!.log)

        // Still: no poll, so no wake-up at all (at the 2 Hz still rate there would be 4 in 2 s).
        usleep(600_000)
        let before = daemon!.contextSwitches
        usleep(2_000_000)
        XCTAssertLessThanOrEqual(daemon!.contextSwitches - before, 1, "woken while still; log:\n\(daemon!.log)")

        // Turned with no event (a detector that missed it): nobody reads it.
        try setPose(path, -oneG, 0, 0)
        usleep(1_500_000)
        XCTAssertEqual(try deviceOrientation(), 1, "read without an event: the device is still polled")

        // The event: read at once.
        let raised = Date()
        raiseEvent(events)
        try assertOrientation(3, "landscape after the event", timeout: 1)
        XCTAssertLessThan(Date().timeIntervalSince(raised), 0.5, "seen long after the event")

        // And not polled again once it lies still (counting wake-ups here would count the state
        // written a few seconds after a turn, too).
        usleep(500_000)
        try setPose(path, 0, -oneG, 0)
        usleep(1_500_000)
        XCTAssertEqual(try deviceOrientation(), 3, "read without an event after the turn: polled while still")
        raiseEvent(events)
        try assertOrientation(1, "portrait after the second event", timeout: 1)

        try release()
        XCTAssertTrue(try eventually { try testbed.read(path + "/" + Self.eventAttribute) == "0" }, "put back on release")
    }

    /// A turn that starts slowly: the event comes while the pose is still within the tolerance, and the
    /// daemon keeps polling long enough to follow the rest of it.
    func testAnEventAtTheStartOfASlowTurnIsFollowedToItsEnd() throws {
        let path = try addAccelerometerWithMotionEvents(0, -oneG, 0)
        let events = try startHoldingEvents()
        defer { close(events) }
        try claim()
        try assertOrientation(1)
        usleep(600_000)
        raiseEvent(events)
        usleep(60_000)
        // 60° in 120 ms steps: well past the tolerance only after the first reading.
        for degrees in stride(from: 15.0, through: 90.0, by: 15.0) {
            let a = degrees * Double.pi / 180
            try setPose(path, Int((-Double(oneG) * sin(a)).rounded()), Int((-Double(oneG) * cos(a)).rounded()), 0)
            usleep(40_000)
        }
        try assertOrientation(3, "followed to landscape", timeout: 1.5)
    }

    /// Events that keep coming with no movement (a detector too sensitive for where the device lies):
    /// after five, the device is polled at the still rate until the claim ends.
    func testEventsWithoutMovementFallBackToStillPolling() throws {
        let path = try addAccelerometerWithMotionEvents(0, -oneG, 0)
        let events = try startHoldingEvents()
        defer { close(events) }
        try claim()
        try assertOrientation(1)
        for _ in 0..<5 {
            usleep(500_000)
            raiseEvent(events)
        }
        XCTAssertTrue(eventually { logLines(containing: "5 motion events in a row came without movement") == 1 }, daemon!.log)
        try setPose(path, -oneG, 0, 0)
        try assertOrientation(3, "polled at the still rate again, with no event", timeout: 2)
    }

    /// A node that gives no event descriptor (here: umockdev answers the ioctl as an unknown one):
    /// the device is polled at the still rate, logged once, its event left as it was.
    func testADeviceWhoseNodeGivesNoEventDescriptorIsPolledAtTheStillRate() throws {
        let path = try addAccelerometerWithMotionEvents(0, -oneG, 0, answering: false)
        let events = try startHoldingEvents()
        defer { close(events) }
        try claim()
        try assertOrientation(1)
        XCTAssertTrue(eventually { logLines(containing: "motion events unavailable") == 1 }, daemon!.log)
        XCTAssertEqual(try testbed.read(path + "/" + Self.eventAttribute), "0")
        usleep(1_500_000)
        try setPose(path, -oneG, 0, 0)
        try assertOrientation(3, "polled at the still rate", timeout: 2)
    }

    /// `[Sensor] MotionEvents=false`: the events are left alone and the device polled as before.
    func testMotionEventsCanBeTurnedOff() throws {
        let path = try addAccelerometerWithMotionEvents(0, -oneG, 0)
        let events = try startHoldingEvents(config: "[Sensor]\nMotionEvents=false\n")
        defer { close(events) }
        try claim()
        try assertOrientation(1)
        usleep(1_500_000)
        XCTAssertEqual(try testbed.read(path + "/" + Self.eventAttribute), "0")
        XCTAssertEqual(logLines(containing: "not polled while still"), 0, daemon!.log)
        try setPose(path, -oneG, 0, 0)
        try assertOrientation(3, "polled at the still rate", timeout: 2)
    }

    /// A second claim asks for a new descriptor (the first was closed on release) and sleeps again.
    func testASecondClaimTakesANewDescriptor() throws {
        let path = try addAccelerometerWithMotionEvents(0, -oneG, 0)
        let events = try startHoldingEvents()
        defer { close(events) }
        try claim()
        try assertOrientation(1)
        try release()
        XCTAssertTrue(try eventually { try testbed.read(path + "/" + Self.eventAttribute) == "0" })
        try claim()
        XCTAssertTrue(try eventually { try testbed.read(path + "/" + Self.eventAttribute) == "1" }, daemon!.log)
        usleep(600_000)
        try setPose(path, -oneG, 0, 0)
        usleep(1_000_000)
        XCTAssertEqual(try deviceOrientation(), 1, "not polled while still")
        raiseEvent(events)
        try assertOrientation(3, timeout: 1)
        XCTAssertEqual(logLines(containing: "motion events unavailable"), 0, daemon!.log)
    }
}
