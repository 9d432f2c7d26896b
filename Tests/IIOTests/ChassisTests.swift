// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// `Idiom=auto`, the default: the chassis as systemd-hostnamed finds it, read by the daemon from the
/// umockdev test bed's DMI and device tree (and from a machine-info file the test names), so that a
/// convertible laptop gets the tablet idiom and with it upside down, and a handset the phone idiom.
final class ChassisTests: TestbedTestCase {
    /// A machine-info file that does not exist: the firmware decides.
    var noMachineInfo: String { scratch + "/no-machine-info" }

    func manager(_ name: String) throws -> String {
        let reply = try probe.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath,
                                           interface: StandardInterface.properties, method: "Get",
                                           values: [.string(Orientation1.managerInterface), .string(name)], timeoutMs: 5000)
        return reply.first?.variantValue?.stringValue ?? ""
    }

    func dmi(_ type: String) throws {
        _ = try testbed.add("id", subsystem: "dmi", attributes: ["chassis_type": type])
    }

    /// A file of the test bed's /sys that is no device's (the device tree, ACPI).
    func firmwareFile(_ path: String, _ bytes: [UInt8]) throws {
        let full = testbed.root + path
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: full, contents: Data(bytes))
    }

    /// An accelerometer upright (256 counts of 9.81/256 m/s² down its y axis), the daemon serving the
    /// compatibility interface on it, and a claim; returns the device's path.
    func startUprightAndClaim() throws -> String {
        let accel = try testbed.add("iio:device0", attributes: ["name": "accel", "in_accel_x_raw": "0", "in_accel_y_raw": "-256",
                                                                 "in_accel_z_raw": "0", "in_accel_scale": "0.038320312"])
        try launch(["--sensor", "iio", "--sensor-proxy-compat", "--machine-info", noMachineInfo], waitingFor: SensorProxy.busName)
        _ = try probe.callBlocking(destination: SensorProxy.busName, path: SensorProxy.path, interface: SensorProxy.interface,
                                   method: "ClaimAccelerometer", timeoutMs: 5000)
        return accel
    }

    /// The daemon took the phone idiom from what `source` says, and logged `logged` as its reason.
    func expectPhone(source: String, logged: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try manager("Idiom"), "phone", file: file, line: line)
        XCTAssertEqual(try manager("IdiomSource"), source, file: file, line: line)
        XCTAssertTrue(daemon!.log.contains("idiom phone: " + logged), daemon!.log, file: file, line: line)
    }

    func start(_ extra: [String] = []) throws {
        try launch(["--sensor", "none", "--machine-info", noMachineInfo] + extra)
    }

    func testAConvertiblesDMIChassisGivesTheTabletIdiom() throws {
        try dmi("31")
        try start()
        XCTAssertEqual(try manager("Idiom"), "tablet")
        XCTAssertEqual(try manager("IdiomSource"), "chassis convertible (DMI 31)")
        XCTAssertTrue(daemon!.log.contains("idiom tablet: Idiom=auto, chassis convertible from DMI chassis_type 31"), daemon!.log)
    }

    func testALaptopsDMIChassisGivesTheTabletIdiom() throws {
        try dmi("10")
        try start()
        XCTAssertEqual(try manager("Idiom"), "tablet")
        XCTAssertEqual(try manager("IdiomSource"), "chassis laptop (DMI 10)")
    }

    func testADeviceTreeHandsetGivesThePhoneIdiom() throws {
        try firmwareFile("/sys/firmware/devicetree/base/chassis-type", Array("handset".utf8) + [0])
        try start()
        XCTAssertEqual(try manager("Idiom"), "phone")
        XCTAssertEqual(try manager("IdiomSource"), "chassis handset (device tree)")
    }

    func testACPIsTabletProfileIsReadWithoutDMI() throws {
        try firmwareFile("/sys/firmware/acpi/pm_profile", Array("8\n".utf8))
        try start()
        XCTAssertEqual(try manager("IdiomSource"), "chassis tablet (ACPI 8)")
    }

    func testMachineInfoOverridesTheFirmware() throws {
        try dmi("31")
        let machineInfo = scratch + "/machine-info"
        writeText(machineInfo, "PRETTY_HOSTNAME=\"Pocket\"\nCHASSIS=\"handset\"\n")
        try launch(["--sensor", "none", "--machine-info", machineInfo])
        try expectPhone(source: "chassis handset (machine-info)", logged: "Idiom=auto, chassis handset from CHASSIS= in \(machineInfo)")
    }

    func testTheConfigsIdiomWins() throws {
        try dmi("31")
        let config = scratch + "/orientationd.conf"
        writeText(config, "[Application]\nIdiom=phone\n")
        try start(["--config", config])
        try expectPhone(source: "configuration", logged: "Idiom=phone in \(config)")
    }

    /// A drop-in of the config's FILE.d/ chooses the idiom over a convertible's chassis, and the daemon's log
    /// names both files it read.
    func testADropInChoosesTheIdiomOverTheChassis() throws {
        try dmi("31")
        let config = scratch + "/orientationd.conf"
        writeText(config, "[Application]\nIdiom=auto\n")
        try FileManager.default.createDirectory(atPath: config + ".d", withIntermediateDirectories: true)
        writeText(config + ".d/50-phone.conf", "[Application]\nIdiom=phone\n")
        try start(["--config", config])
        try expectPhone(source: "configuration", logged: "Idiom=phone in \(config).d/50-phone.conf")
        XCTAssertTrue(daemon!.log.contains("configuration: \(config), \(config).d/50-phone.conf"), daemon!.log)
    }

    func testNothingFoundGivesTheTabletIdiom() throws {
        try start()
        XCTAssertEqual(try manager("Idiom"), "tablet")
        XCTAssertEqual(try manager("IdiomSource"), "no chassis found")
    }

    /// What the issue was about: on a convertible the compatibility interface reports upside down, as
    /// iio-sensor-proxy does; on a handset it does not.
    func testWithAConvertiblesChassisTheCompatibilityInterfaceReportsBottomUp() throws {
        try dmi("31")
        let accel = try startUprightAndClaim()
        func orientation() -> String {
            let reply = try? probe.callBlocking(destination: SensorProxy.busName, path: SensorProxy.path, interface: StandardInterface.properties,
                                                method: "Get", values: [.string(SensorProxy.interface), .string("AccelerometerOrientation")])
            return reply?.first?.variantValue?.stringValue ?? ""
        }
        XCTAssertTrue(waitUntil(3) { orientation() == "normal" }, orientation())
        try testbed.set(accel, ["in_accel_y_raw": "256"])
        XCTAssertTrue(waitUntil(3) { orientation() == "bottom-up" }, "a convertible turned upside down: \(orientation())\n\(daemon!.log)")
    }

    func testWithAHandsetsChassisUpsideDownIsNotReported() throws {
        try firmwareFile("/sys/firmware/devicetree/base/chassis-type", Array("handset".utf8) + [0])
        let accel = try startUprightAndClaim()
        func device() -> UInt32 {
            let reply = try? probe.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath,
                                                interface: StandardInterface.properties, method: "Get",
                                                values: [.string(Orientation1.managerInterface), .string("DeviceOrientation")])
            return reply?.first?.variantValue?.uint32Value ?? 99
        }
        try testbed.set(accel, ["in_accel_y_raw": "256"])
        XCTAssertTrue(waitUntil(3) { device() == 2 }, "the device is upside down")
        let reply = try probe.callBlocking(destination: SensorProxy.busName, path: SensorProxy.path, interface: StandardInterface.properties,
                                           method: "Get", values: [.string(SensorProxy.interface), .string("AccelerometerOrientation")])
        XCTAssertEqual(reply.first?.variantValue?.stringValue, "normal", "a phone's interface does not turn upside down")
    }
}
