// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// P20 and posture source 4 under umockdev (Docs/sensors.md, "Touch hold" and "Posture"): a touchscreen as an input device whose
/// events the test writes, stood for by the driver's evdev recorder (every ioctl and read the daemon
/// makes on it, in order); touchpads and mice plugged in and out.
final class TouchHoldTests: TestbedTestCase {
    let screen = "/dev/input/event12"
    static let buttonTouch: UInt16 = 330

    func manager(_ name: String) throws -> Value { try get(name, Orientation1.managerPath, on: probe) }
    func log() -> String { daemon?.log ?? "" }
    func reads(_ name: String, _ value: Value, within seconds: Double = 3) -> Bool {
        waitUntil(seconds) { (try? self.manager(name)) == value }
    }

    /// A finger down or up, as a touchscreen reports it: its position, its contact, `BTN_TOUCH`, `SYN_REPORT`.
    func finger(_ down: Bool) throws {
        var events = inputEvent(type: 3, code: 0x39, value: down ? 7 : -1)   // ABS_MT_TRACKING_ID
        if down { events += inputEvent(type: 3, code: 0x35, value: 1234) + inputEvent(type: 3, code: 0x36, value: 567) }
        events += inputEvent(type: 1, code: Self.buttonTouch, value: down ? 1 : 0) + inputEvent(type: 0, code: 0, value: 0)
        try testbed.writeDevice(screen, events)
    }

    /// The display's accelerometer, upright.
    @discardableResult
    func accelerometer(x: String = "0", y: String = "-1000") throws -> String {
        try testbed.add("accel-display", attributes: ["in_accel_x_raw": x, "in_accel_y_raw": y, "in_accel_z_raw": "0",
                                                      "in_accel_scale": "0.00981"])
    }

    func claim() throws {
        try call(probe, Orientation1.managerPath, Orientation1.managerInterface, "BeginGeneratingDeviceOrientationNotifications")
    }

    /// An input device unplugged: its event node's and its own removal, each announced first (umockdev
    /// can announce a device only while it is there).
    func unplug(_ input: String, _ event: String) throws {
        for path in [input + "/" + event, input] {
            try testbed.uevent(path, "remove")
            try testbed.remove(path)
        }
    }

    /// A tablet's machine-info, for posture source 4, which a phone never uses.
    func tabletMachineInfo() -> String {
        let path = scratch + "/machine-info-tablet"
        writeText(path, "CHASSIS=\"tablet\"\n")
        return path
    }

    func testATurnDuringATouchAndWithinTheHoldTurnsNothingUntilTheHoldEnds() throws {
        guard MemoryLayout<Int>.size == 8 else { throw XCTSkip("the events written are a 64-bit kernel's") }
        try testbed.add(description: fixtureText("IIOTests/Fixtures/touchscreen.umockdev"))
        try testbed.recordEvdev(screen)
        let accel = try accelerometer()
        try launch(["--sensor", "iio", "--verbose"])
        XCTAssertEqual(try testbed.evdevLog(screen).count, 0, "no touchscreen is opened before a claim")
        try claim()
        XCTAssertTrue(reads("DeviceOrientation", .uint32(1)), log())
        XCTAssertTrue(waitUntil(3) { ((try? self.testbed.evdevLog(self.screen)) ?? []).contains { $0["call"] as? String == "EVIOCGKEY" } },
                      log())
        XCTAssertEqual(try manager("TouchHold"), .bool(false))

        // A finger on the screen while the user turns the device: DeviceOrientation follows, the screen does not.
        try finger(true)
        XCTAssertTrue(reads("TouchHold", .bool(true)), log())
        try testbed.set(accel, ["in_accel_x_raw": "1000", "in_accel_y_raw": "0"])
        XCTAssertTrue(reads("DeviceOrientation", .uint32(4)), log())
        usleep(700_000)
        XCTAssertEqual(try manager("InterfaceOrientation"), .uint32(1), "a turn during a touch turns nothing, even past the hold's length")
        XCTAssertEqual(try manager("TouchHold"), .bool(true))

        // Lifted: the hold lasts TouchHoldMs (500), then the pose that stands is acted on by a timer.
        let lifted = Date()
        try finger(false)
        XCTAssertEqual(try manager("InterfaceOrientation"), .uint32(1), "within the hold the screen stays")
        XCTAssertTrue(reads("InterfaceOrientation", .uint32(4)), log())
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(lifted), 0.45, "the screen turned before the hold ended")
        XCTAssertEqual(try manager("TouchHold"), .bool(false))

        // The mask went on before the first read, to the three codes only, and the node was never grabbed.
        let calls = try testbed.evdevLog(screen)
        let names = calls.map { $0["call"] as? String ?? "?" }
        XCTAssertEqual(Array(names.prefix(3)), ["EVIOCSMASK", "EVIOCSMASK", "EVIOCSMASK"], "\(calls)")
        let masks = calls.prefix(3).map { "\($0["type"] as? Int ?? -1): \($0["bits"] as? [Int] ?? [])" }
        XCTAssertEqual(masks, ["0: [0, 1, 3]", "1: [330]", "3: [57]"], "types SYN, KEY, ABS; BTN_TOUCH; ABS_MT_TRACKING_ID")
        XCTAssertLessThan(names.firstIndex(of: "EVIOCSMASK") ?? .max, names.firstIndex(of: "read") ?? .max)
        XCTAssertTrue(names.contains("read"), "the events were read: \(names)")
        XCTAssertFalse(names.contains("EVIOCGRAB"), "the touchscreen was grabbed: \(names)")
    }

    /// The kernel dropped events (`SYN_DROPPED`): what follows up to the next `SYN_REPORT` is passed over
    /// and the state read again with `EVIOCGKEY`. A contact held past TouchStuckSeconds is taken as lifted.
    func testDroppedEventsAreReadAgainAndAStuckContactIsReleased() throws {
        guard MemoryLayout<Int>.size == 8 else { throw XCTSkip("the events written are a 64-bit kernel's") }
        try testbed.add(description: fixtureText("IIOTests/Fixtures/touchscreen.umockdev"))
        try testbed.recordEvdev(screen)
        try accelerometer()
        let config = scratch + "/touch.conf"
        writeText(config, "[Classifier]\nTouchStuckSeconds=2\n")
        try launch(["--sensor", "iio", "--config", config])
        try claim()
        XCTAssertTrue(waitUntil(3) { ((try? self.testbed.evdevLog(self.screen)) ?? []).contains { $0["call"] as? String == "EVIOCGKEY" } },
                      log())
        // A finger went down while events were dropped: the event itself is lost, EVIOCGKEY says it.
        try testbed.evdevKeys(screen, [Int(Self.buttonTouch)])
        try testbed.writeDevice(screen, inputEvent(type: 0, code: 3, value: 0) + inputEvent(type: 1, code: Self.buttonTouch, value: 0)
            + inputEvent(type: 0, code: 0, value: 0))
        XCTAssertTrue(reads("TouchHold", .bool(true)), log())
        XCTAssertEqual(try testbed.evdevLog(screen).filter { $0["call"] as? String == "EVIOCGKEY" }.count, 2)
        // Never lifted: after TouchStuckSeconds it is taken as lifted, the hold ends, and the log says so.
        XCTAssertTrue(reads("TouchHold", .bool(false), within: 5), log())
        XCTAssertTrue(log().contains("taken as lifted"), log())
    }

    /// A touchscreen plugged in while claimed is read at once; unplugged while touched, the hold ends.
    func testATouchscreenComingAndGoingIsFollowed() throws {
        guard MemoryLayout<Int>.size == 8 else { throw XCTSkip("the events written are a 64-bit kernel's") }
        try accelerometer()
        try launch(["--sensor", "iio"])
        try claim()
        XCTAssertTrue(reads("DeviceOrientation", .uint32(1)), log())
        try testbed.recordEvdev(screen)
        try testbed.add(description: fixtureText("IIOTests/Fixtures/touchscreen.umockdev"))
        XCTAssertTrue(waitUntil(3) { ((try? self.testbed.evdevLog(self.screen)) ?? []).contains { $0["call"] as? String == "EVIOCGKEY" } },
                      log())
        try finger(true)
        XCTAssertTrue(reads("TouchHold", .bool(true)), log())
        try unplug("/sys/devices/pci0000:00/0000:00:15.1/i2c_designware.1/i2c-2/i2c-ELAN2514:00/0018:04F3:2A4C.0001/input/input12",
                   "event12")
        XCTAssertTrue(reads("TouchHold", .bool(false)), "a touchscreen gone holds nothing: \(log())")
    }

    /// Rotations the hierarchy, an application or the user ask for are never held (P20).
    func testARotationAskedForIsNotHeld() throws {
        guard MemoryLayout<Int>.size == 8 else { throw XCTSkip("the events written are a 64-bit kernel's") }
        try testbed.add(description: fixtureText("IIOTests/Fixtures/touchscreen.umockdev"))
        try testbed.recordEvdev(screen)
        try accelerometer()
        try launch(["--sensor", "iio"])
        try claim()
        XCTAssertTrue(reads("DeviceOrientation", .uint32(1)), log())
        try finger(true)
        XCTAssertTrue(reads("TouchHold", .bool(true)), log())
        try set("ApplicationMask", .uint32(8))
        XCTAssertEqual(try manager("InterfaceOrientation"), .uint32(3), "the application's mask turns the screen at once")
        try setDevice(3)
        try set("ApplicationMask", .uint32(26))
        XCTAssertEqual(try manager("InterfaceOrientation"), .uint32(3))
        try setDevice(1)
        XCTAssertEqual(try manager("InterfaceOrientation"), .uint32(1), "a forced device orientation turns the screen at once")
        XCTAssertEqual(try manager("TouchHold"), .bool(true))
    }

    /// Posture source 4: a touchscreen alone is a tablet (its own mouse node does not count); a touchpad
    /// plugged in makes it a laptop, upright, once stable for 2 s; unplugged, a tablet that turns again;
    /// gone and back within 2 s changes nothing; virtual and tagged pointers never count.
    func testPointersPluggedInGiveThePosture() throws {
        try testbed.add(description: fixtureText("IIOTests/Fixtures/touchscreen.umockdev"))
        try accelerometer(x: "1000", y: "0")
        try launch(["--sensor", "iio", "--machine-info", tabletMachineInfo()])
        try claim()
        XCTAssertTrue(reads("Posture", .string("tablet")), log())
        XCTAssertTrue(reads("InterfaceOrientation", .uint32(4)), "a tablet turns the screen: \(log())")
        XCTAssertTrue(log().contains("a touchscreen and no pointer"), log())

        let touchpad = "/sys/devices/platform/AMDI0010:03/i2c-1/i2c-MSFT0001:00/0018:06CB:CD7D.0002/input/input14"
        try testbed.add(description: fixtureText("IIOTests/Fixtures/touchpad.umockdev"))
        usleep(1_000_000)
        XCTAssertEqual(try manager("Posture"), .string("tablet"), "the posture waits until the pointers are stable")
        XCTAssertTrue(reads("Posture", .string("laptop")), log())
        XCTAssertTrue(reads("InterfaceOrientation", .uint32(1)), "a laptop keeps the screen upright")
        XCTAssertTrue(log().contains("event14"), log())

        // Unplugged and plugged again within 2 s (a Bluetooth reconnect, under a new node: umockdev
        // cannot make a removed node again): nothing changes.
        try unplug(touchpad, "event14")
        usleep(300_000)
        let again = fixtureText("IIOTests/Fixtures/touchpad.umockdev").replacingOccurrences(of: "input14", with: "input15")
            .replacingOccurrences(of: "event14", with: "event15").replacingOccurrences(of: "13:78", with: "13:79")
        try testbed.add(description: again)
        var seen: Set<String> = []
        for _ in 0..<26 {
            seen.insert((try? manager("Posture"))?.stringValue ?? "?")
            usleep(100_000)
        }
        XCTAssertEqual(seen, ["laptop"], "the posture never left laptop: \(log())")

        // Unplugged for good: a tablet again, which turns the screen.
        let touchpadAgain = touchpad.replacingOccurrences(of: "input14", with: "input15")
        try unplug(touchpadAgain, "event15")
        XCTAssertTrue(reads("Posture", .string("tablet"), within: 4), log())
        XCTAssertTrue(reads("InterfaceOrientation", .uint32(4)), log())

        // A uinput mouse, a mouse tagged kwin-ignore-tablet-mode, one marked ORIENTATIOND_IGNORE_POINTER: still a tablet.
        try testbed.add(description: fixtureText("IIOTests/Fixtures/ignored-pointers.umockdev"))
        usleep(2_600_000)
        XCTAssertEqual(try manager("Posture"), .string("tablet"), log())
        XCTAssertEqual(try manager("InterfaceOrientation"), .uint32(4))
    }

    /// A phone never takes its posture from pointers: a keyboard dock with a touchpad does not stop it turning.
    func testAPhoneIgnoresPointers() throws {
        try testbed.add(description: fixtureText("IIOTests/Fixtures/touchscreen.umockdev"))
        try testbed.add(description: fixtureText("IIOTests/Fixtures/touchpad.umockdev"))
        try accelerometer(x: "1000", y: "0")
        try launch(["--sensor", "iio"])
        try claim()
        XCTAssertTrue(reads("InterfaceOrientation", .uint32(4)), log())
        XCTAssertEqual(try manager("Posture"), .string("unknown"))
    }
}
