// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// P18 from a tablet-mode switch under umockdev (Docs/sensors.md, "Posture", source 3): an input device
/// with `SW_TABLET_MODE` (here intel-vbtn's "Intel Virtual Switches"), its state read with `EVIOCGSW`
/// when a claim starts and followed from its events. In laptop posture no accelerometer reading turns
/// the screen, on orientationd's interface and on the compatibility interface GNOME, KDE and Phosh read.
final class PostureSourceTests: TestbedTestCase {
    func start() throws {
        try launch(["--sensor", "iio", "--sensor-proxy-compat"], waitingFor: SensorProxy.busName)
    }

    func manager(_ name: String) throws -> Value {
        try get(name, Orientation1.managerPath, on: probe)
    }

    func compat(_ name: String) throws -> String {
        let reply = try probe.callBlocking(destination: SensorProxy.busName, path: SensorProxy.path, interface: StandardInterface.properties,
                                           method: "Get", values: [.string(SensorProxy.interface), .string(name)], timeoutMs: 5000)
        return reply.first?.variantValue?.stringValue ?? ""
    }

    func log() -> String { daemon?.log ?? "" }

    /// The switch moves: its event, then the report's end (`SYN_REPORT`).
    func flipSwitch(_ on: Bool) throws {
        try testbed.writeDevice("/dev/input/event4", inputEvent(type: 5, code: 1, value: on ? 1 : 0) + inputEvent(type: 0, code: 0, value: 0))
    }

    func testALaptopNeverTurnsTheScreenAndATabletDoes() throws {
        guard MemoryLayout<Int>.size == 8 else { throw XCTSkip("the events written are a 64-bit kernel's") }
        try testbed.add(description: fixtureText("IIOTests/Fixtures/tablet-mode-switch.umockdev"))
        try testbed.loadIoctl("/dev/input/event4", packageRoot + "/Tests/IIOTests/Fixtures/tablet-mode-off.ioctl")
        // The display's accelerometer reads the lid turned on its left edge.
        let accel = try testbed.add("accel-display", attributes: ["in_accel_x_raw": "1000", "in_accel_y_raw": "0", "in_accel_z_raw": "0",
                                                                  "in_accel_scale": "0.00981"])
        try start()
        XCTAssertEqual(try manager("Posture"), .string("unknown"), "nothing is read before a claim")

        try call(probe, Orientation1.managerPath, Orientation1.managerInterface, "BeginGeneratingDeviceOrientationNotifications")
        XCTAssertTrue(waitUntil(3) { (try? self.manager("Posture")) == .string("laptop") }, log())
        XCTAssertEqual(try manager("HingeAngle"), .double(-1), "a switch gives no angle")
        XCTAssertTrue(waitUntil(3) { (try? self.manager("DeviceOrientation")) == .uint32(4) }, "the sensor's pose is still reported: \(log())")
        XCTAssertEqual(try manager("InterfaceOrientation"), .uint32(1), "laptop: the screen stays upright")
        XCTAssertEqual(try compat("AccelerometerOrientation"), "normal", "and GNOME, KDE and Phosh read it upright")
        XCTAssertTrue(log().contains("SW_TABLET_MODE"), "LOG<<\(log())>>")

        // Folded to a tablet: the device turns the screen again.
        try flipSwitch(true)
        XCTAssertTrue(waitUntil(3) { (try? self.manager("Posture")) == .string("tablet") }, log())
        XCTAssertTrue(waitUntil(3) { (try? self.manager("InterfaceOrientation")) == .uint32(4) }, "\((try? manager("InterfaceOrientation")).map { "\($0)" } ?? "") \((try? manager("DeviceOrientation")).map { "\($0)" } ?? "")")
        XCTAssertTrue(waitUntil(3) { (try? self.compat("AccelerometerOrientation")) == "left-up" }, (try? compat("AccelerometerOrientation")) ?? "")

        // Back to a laptop: upright again, whatever the accelerometer says next.
        try flipSwitch(false)
        XCTAssertTrue(waitUntil(3) { (try? self.manager("InterfaceOrientation")) == .uint32(1) }, log())
        try testbed.set(accel, ["in_accel_x_raw": "-1000"])
        XCTAssertTrue(waitUntil(3) { (try? self.manager("DeviceOrientation")) == .uint32(3) }, log())
        XCTAssertEqual(try manager("InterfaceOrientation"), .uint32(1))
        XCTAssertEqual(try manager("Posture"), .string("laptop"))
    }

    /// Hotplug while claimed: the keyboard cover's switch unplugged leaves the posture unknown; a
    /// hinge sensor appearing (a sensor hub bound late) gives it again, without a new claim.
    func testSourcesComingAndGoingWhileClaimedAreFollowed() throws {
        try testbed.add(description: fixtureText("IIOTests/Fixtures/tablet-mode-switch.umockdev"))
        try testbed.loadIoctl("/dev/input/event4", packageRoot + "/Tests/IIOTests/Fixtures/tablet-mode-off.ioctl")
        try testbed.add("accel-display", attributes: ["in_accel_x_raw": "1000", "in_accel_y_raw": "0", "in_accel_z_raw": "0",
                                                      "in_accel_scale": "0.00981"])
        try start()
        try call(probe, Orientation1.managerPath, Orientation1.managerInterface, "BeginGeneratingDeviceOrientationNotifications")
        XCTAssertTrue(waitUntil(3) { (try? self.manager("Posture")) == .string("laptop") }, log())
        XCTAssertTrue(waitUntil(3) { (try? self.manager("DeviceOrientation")) == .uint32(4) }, log())
        XCTAssertEqual(try manager("InterfaceOrientation"), .uint32(1))

        for path in ["/sys/devices/platform/INT33D6:00/intel-vbtn/input/input9/event4", "/sys/devices/platform/INT33D6:00/intel-vbtn/input/input9"] {
            try testbed.uevent(path, "remove")
            try testbed.remove(path)
        }
        XCTAssertTrue(waitUntil(3) { (try? self.manager("Posture")) == .string("unknown") }, log())
        XCTAssertTrue(waitUntil(3) { (try? self.manager("InterfaceOrientation")) == .uint32(4) }, "no posture: the device turns the screen")

        try testbed.add("hinge", attributes: ["name": "hinge", "in_angl0_raw": "110", "in_angl_scale": String(Double.pi / 180),
                                              "in_angl_offset": "0"])
        XCTAssertTrue(waitUntil(3) { (try? self.manager("Posture")) == .string("laptop") }, log())
        XCTAssertEqual(try manager("HingeAngle").doubleValue ?? 0, 110, accuracy: 0.01)
        XCTAssertTrue(waitUntil(3) { (try? self.manager("InterfaceOrientation")) == .uint32(1) }, log())
    }

    /// Source 2: accelerometers in the display and in the base (sysfs labels `accel-display` and
    /// `accel-base`), both in the frame where they agree with the lid closed; the hinge angle is the
    /// turn between them about the hinge (the x axis). Raw 1000 is 1 g.
    func testTwoAccelerometersGiveTheHingeAngle() throws {
        let g = "0.00981"
        // A laptop open at 110°: the base on the desk, the display leaning back 20°.
        let display = try testbed.add("accel-display", attributes: ["label": "accel-display", "in_accel_x_raw": "0",
                                                                    "in_accel_y_raw": "-940", "in_accel_z_raw": "342", "in_accel_scale": g])
        let base = try testbed.add("accel-base", attributes: ["label": "accel-base", "in_accel_x_raw": "0", "in_accel_y_raw": "0",
                                                              "in_accel_z_raw": "-1000", "in_accel_scale": g])
        try start()
        try call(probe, Orientation1.managerPath, Orientation1.managerInterface, "BeginGeneratingDeviceOrientationNotifications")
        XCTAssertTrue(waitUntil(3) { (try? self.manager("Posture")) == .string("laptop") }, log())
        XCTAssertEqual(try manager("HingeAngle").doubleValue ?? 0, 110, accuracy: 0.5)
        XCTAssertTrue(log().contains("posture from the accelerometers in the display and in the base (accel-base)"), log())

        // Carried on its side, the hinge vertical: the angle cannot be told and the laptop stays one;
        // the display reads an edge, the screen stays upright.
        try testbed.set(display, ["in_accel_x_raw": "-1000", "in_accel_y_raw": "0", "in_accel_z_raw": "0"])
        try testbed.set(base, ["in_accel_x_raw": "-1000", "in_accel_y_raw": "0", "in_accel_z_raw": "0"])
        XCTAssertTrue(waitUntil(3) { (try? self.manager("DeviceOrientation")) == .uint32(3) }, log())
        usleep(700_000)
        XCTAssertEqual(try manager("Posture"), .string("laptop"))
        XCTAssertEqual(try manager("HingeAngle").doubleValue ?? 0, 110, accuracy: 0.5, "the last angle stays")
        XCTAssertEqual(try manager("InterfaceOrientation"), .uint32(1))
        XCTAssertEqual(try compat("AccelerometerOrientation"), "normal")

        // Folded back to a tablet (355°) held upright, then turned on its side: it turns the screen.
        try testbed.set(display, ["in_accel_x_raw": "0", "in_accel_y_raw": "-1000", "in_accel_z_raw": "0"])
        try testbed.set(base, ["in_accel_x_raw": "0", "in_accel_y_raw": "-996", "in_accel_z_raw": "87"])
        XCTAssertTrue(waitUntil(3) { (try? self.manager("Posture")) == .string("tablet") }, log())
        XCTAssertEqual(try manager("HingeAngle").doubleValue ?? 0, 355, accuracy: 0.5)
        try testbed.set(display, ["in_accel_x_raw": "-1000", "in_accel_y_raw": "0", "in_accel_z_raw": "0"])
        try testbed.set(base, ["in_accel_x_raw": "-1000", "in_accel_y_raw": "0", "in_accel_z_raw": "0"])
        XCTAssertTrue(waitUntil(3) { (try? self.manager("InterfaceOrientation")) == .uint32(3) }, log())
        XCTAssertEqual(try manager("Posture"), .string("tablet"))
        XCTAssertTrue(waitUntil(3) { (try? self.compat("AccelerometerOrientation")) == "right-up" }, log())

        // Opened back to a laptop: upright again.
        try testbed.set(display, ["in_accel_x_raw": "0", "in_accel_y_raw": "-940", "in_accel_z_raw": "342"])
        try testbed.set(base, ["in_accel_x_raw": "0", "in_accel_y_raw": "0", "in_accel_z_raw": "-1000"])
        XCTAssertTrue(waitUntil(3) { (try? self.manager("Posture")) == .string("laptop") }, log())
        XCTAssertTrue(waitUntil(3) { (try? self.manager("InterfaceOrientation")) == .uint32(1) }, log())
    }

    /// Source 1: a hinge sensor's angle channels (hid-sensor-custom-intel-hinge, named "hinge"), in
    /// radians by their scale. It comes before a tablet-mode switch, which this machine also has.
    func testAHingeSensorGivesThePostureAndItsAngle() throws {
        try testbed.add(description: fixtureText("IIOTests/Fixtures/tablet-mode-switch.umockdev"))
        try testbed.loadIoctl("/dev/input/event4", packageRoot + "/Tests/IIOTests/Fixtures/tablet-mode-off.ioctl")
        let radiansPerDegree = String(Double.pi / 180)
        let hinge = try testbed.add("hinge", attributes: ["name": "hinge", "in_angl0_raw": "110", "in_angl1_raw": "20",
                                                          "in_angl2_raw": "0", "in_angl_scale": radiansPerDegree,
                                                          "in_angl_offset": "0"])
        try testbed.add("accel-display", attributes: ["in_accel_x_raw": "1000", "in_accel_y_raw": "0", "in_accel_z_raw": "0",
                                                      "in_accel_scale": "0.00981"])
        try start()
        try call(probe, Orientation1.managerPath, Orientation1.managerInterface, "BeginGeneratingDeviceOrientationNotifications")
        XCTAssertTrue(waitUntil(3) { (try? self.manager("Posture")) == .string("laptop") }, log())
        XCTAssertEqual(try manager("HingeAngle").doubleValue ?? 0, 110, accuracy: 0.01)
        XCTAssertTrue(log().contains("posture from the hinge sensor"), log())
        XCTAssertTrue(waitUntil(3) { (try? self.manager("DeviceOrientation")) == .uint32(4) }, log())
        XCTAssertEqual(try manager("InterfaceOrientation"), .uint32(1), "laptop: upright")
        XCTAssertEqual(try compat("AccelerometerOrientation"), "normal")

        try testbed.set(hinge, "in_angl0_raw", "355")
        XCTAssertTrue(waitUntil(3) { (try? self.manager("Posture")) == .string("tablet") }, log())
        XCTAssertTrue(waitUntil(3) { (try? self.manager("InterfaceOrientation")) == .uint32(4) }, log())
        XCTAssertEqual(try manager("HingeAngle").doubleValue ?? 0, 355, accuracy: 0.01)

        // Back through 280° with the keyboard half standing: a tent, which turns by default.
        try testbed.set(hinge, ["in_angl0_raw": "280", "in_angl2_raw": "60"])
        XCTAssertTrue(waitUntil(3) { (try? self.manager("Posture")) == .string("tent") }, log())
        XCTAssertEqual(try manager("InterfaceOrientation"), .uint32(4))

        try testbed.set(hinge, ["in_angl0_raw": "100", "in_angl2_raw": "0"])
        XCTAssertTrue(waitUntil(3) { (try? self.manager("Posture")) == .string("laptop") }, log())
        XCTAssertTrue(waitUntil(3) { (try? self.manager("InterfaceOrientation")) == .uint32(1) }, log())
    }
}
