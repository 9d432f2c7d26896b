// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// What a daemon in iio-sensor-proxy's place must do with the devices other people's test beds make,
/// as that daemon's own integration suite expects (Docs/sensors.md, "The peer's own suite"): devices
/// found by subsystem and udev properties whatever their directories are called, attributes replaced
/// as stock umockdev replaces them, `undefined` until a claim's first reading, the indexed proximity
/// channel, proximity switches of input devices, accelerometers with only a buffer, the sampling
/// frequency left at 10 Hz at least, Apple's SMC light seen within half a second while claimed, and
/// the peer's five tilts.
final class DropInTests: TestbedTestCase {
    // MARK: Helpers

    func start() throws {
        try launch(["--sensor", "iio", "--sensor-proxy-compat"], waitingFor: SensorProxy.busName)
    }

    func property(_ name: String) throws -> Value {
        let reply = try probe.callBlocking(destination: SensorProxy.busName, path: SensorProxy.path, interface: StandardInterface.properties,
                                           method: "Get", values: [.string(SensorProxy.interface), .string(name)], timeoutMs: 5000)
        return reply.first?.variantValue ?? .string("")
    }

    func string(_ name: String) throws -> String { try property(name).stringValue ?? "" }

    /// Calls `method` of the compatibility interface from the probe (its claims last for the test); the seconds it took.
    @discardableResult
    func call(_ method: String) throws -> Double {
        let start = Date()
        _ = try probe.callBlocking(destination: SensorProxy.busName, path: SensorProxy.path, interface: SensorProxy.interface,
                                   method: method, timeoutMs: 5000)
        return Date().timeIntervalSince(start)
    }

    func log() -> String { daemon?.log ?? "" }

    /// Milli-g counts: a raw value of 1000 is 1 g.
    static let milliG = "0.00981"

    // MARK: Accelerometers

    func testAnAccelerometerIsFoundByItsSubsystemWhateverItsDirectoryIsCalled() throws {
        let accel = try testbed.add("accel-in-lid", attributes: ["in_accel_x_raw": "0", "in_accel_y_raw": "-1000", "in_accel_z_raw": "0",
                                                                 "in_accel_scale": Self.milliG, "name": "lid accelerometer"],
                                    properties: ["IIO_SENSOR_PROXY_TYPE": "iio-poll-accel"])
        try start()
        XCTAssertEqual(try property("HasAccelerometer"), .bool(true), log())
        XCTAssertEqual(try string("AccelerometerOrientation"), "undefined", "no reading before a claim")
        XCTAssertEqual(try string("AccelerometerTilt"), "undefined")

        try call("ClaimAccelerometer")
        XCTAssertEqual(try string("AccelerometerOrientation"), "normal", "the claim is answered once the first reading is in")
        XCTAssertEqual(try string("AccelerometerTilt"), "vertical")

        // umockdev replaces each attribute by a new file: the daemon follows the new one.
        try testbed.set(accel, ["in_accel_x_raw": "-1000", "in_accel_y_raw": "0"])
        XCTAssertTrue(waitUntil(3) { (try? self.string("AccelerometerOrientation")) == "right-up" }, log())
        // The tilt is the angle of the screen's plane to the horizontal: 45° back, 27° forward, 72° flat.
        try testbed.set(accel, "in_accel_z_raw", "-1000")
        XCTAssertTrue(waitUntil(3) { (try? self.string("AccelerometerTilt")) == "tilted-down" }, log())
        try testbed.set(accel, "in_accel_z_raw", "500")
        XCTAssertTrue(waitUntil(3) { (try? self.string("AccelerometerTilt")) == "tilted-up" }, log())
        try testbed.set(accel, "in_accel_z_raw", "3000")
        XCTAssertTrue(waitUntil(3) { (try? self.string("AccelerometerTilt")) == "face-up" }, log())
        try testbed.set(accel, "in_accel_z_raw", "-3000")
        XCTAssertTrue(waitUntil(3) { (try? self.string("AccelerometerTilt")) == "face-down" }, log())
    }

    /// A scale far from 1 g (the peer's test beds use 256 counts of m/s² per g) still gives the first
    /// reading's orientation at once: nothing is known of the pose before it.
    func testTheFirstReadingOfAClaimIsTakenWhateverItsScale() throws {
        try testbed.add("bma-odd-scale", attributes: ["in_accel_x_raw": "-2560", "in_accel_y_raw": "0", "in_accel_z_raw": "0",
                                                      "in_accel_scale": "0.1"])
        try start()
        try call("ClaimAccelerometer")
        XCTAssertEqual(try string("AccelerometerOrientation"), "right-up", log())
    }

    func testAnAccelerometerRemovedWithoutADeviceEventIsSeenGone() throws {
        let accel = try testbed.add("accelerometer", attributes: ["in_accel_x_raw": "0", "in_accel_y_raw": "-1000", "in_accel_z_raw": "0",
                                                                  "in_accel_scale": Self.milliG])
        try start()
        try call("ClaimAccelerometer")
        XCTAssertEqual(try string("AccelerometerOrientation"), "normal")
        try testbed.remove(accel)
        XCTAssertTrue(waitUntil(3) { (try? self.property("HasAccelerometer")) == .bool(false) }, log())
        XCTAssertEqual(try string("AccelerometerOrientation"), "undefined", "nothing is known of a pose with no device")
        XCTAssertTrue(log().contains("accelerometer: accelerometer removed"), log())
    }

    /// Scan elements and a buffer make an accelerometer, with or without a trigger to choose, even
    /// with no raw attribute to poll.
    func testAnAccelerometerWithOnlyABufferIsFoundWithOrWithoutATrigger() throws {
        for withTrigger in [false, true] {
            var attributes = ["name": "buffered accel", "buffer/enable": "0"]
            for (n, axis) in ["x", "y", "z"].enumerated() {
                attributes["scan_elements/in_accel_\(axis)_en"] = "0"
                attributes["scan_elements/in_accel_\(axis)_index"] = "\(n)"
                attributes["scan_elements/in_accel_\(axis)_type"] = "le:s16/16>>0"
            }
            if withTrigger {
                attributes["trigger/current_trigger"] = ""
                try testbed.add("trigger3", attributes: ["name": "buffered accel-dev7"])
            }
            try testbed.add("buffered-accel7", attributes: attributes,
                            properties: ["IIO_SENSOR_PROXY_TYPE": "iio-buffer-accel", "DEVNAME": "/dev/buffered-accel7"])
            try start()
            XCTAssertEqual(try property("HasAccelerometer"), .bool(true), log())
            XCTAssertTrue(log().contains(withTrigger ? "buffered (trigger buffered accel-dev7" : "buffered (no trigger"), log())
            // Its node cannot be opened here: the claim is answered within one poll period all the same.
            XCTAssertLessThan(try call("ClaimAccelerometer"), 2, log())
            XCTAssertEqual(try string("AccelerometerOrientation"), "undefined", "no reading, no orientation")
            freshWorld()
        }
    }

    // MARK: Sampling frequency

    /// The rate a device is left at once found: the lowest listed at or above 10 Hz, else the highest
    /// listed, 10 itself with no list; written as the shortest number; a faster device is left alone.
    func testTheSamplingFrequencyIsLeftAtTenHertzOrTheNearestListedRate() throws {
        let cases: [(current: String, available: String?, expected: String)] = [
            ("2.5", nil, "10"),
            ("4", "1 4 16 32 64", "16"),
            ("3.125", "100.000000 25.000000 12.500000 3.125000", "12.5"),
            ("1", "1 2 5", "5"),
            ("50", "1 10 50", "50"),
        ]
        for c in cases {
            var attributes = ["in_accel_x_raw": "0", "in_accel_y_raw": "-1000", "in_accel_z_raw": "0", "in_accel_scale": Self.milliG,
                              "sampling_frequency": c.current]
            if let available = c.available { attributes["sampling_frequency_available"] = available }
            let accel = try testbed.add("slow-accel", attributes: attributes)
            try start()
            XCTAssertEqual(try testbed.read(accel + "/sampling_frequency"), c.expected, "from \(c.current), listed \(c.available ?? "nothing")")
            freshWorld()
        }
    }

    // MARK: Light and proximity

    func testLightAndIndexedProximityAreFoundWhateverTheirDirectoriesAreCalled() throws {
        let light = try testbed.add("ambient", attributes: ["in_illuminance_input": "70"], properties: ["IIO_SENSOR_PROXY_TYPE": "iio-poll-als"])
        let proximity = try testbed.add("proximity-front", attributes: ["in_proximity0_raw": "300", "in_proximity_nearlevel": "100"],
                                        properties: ["IIO_SENSOR_PROXY_TYPE": "iio-poll-proximity"])
        try start()
        XCTAssertEqual(try property("HasAmbientLight"), .bool(true), log())
        XCTAssertEqual(try property("HasProximity"), .bool(true), log())
        XCTAssertEqual(try property("ProximityNear"), .bool(false), "the peer's value before a claim")
        try call("ClaimLight")
        XCTAssertEqual(try property("LightLevel"), .double(70), "the first reading is in when the claim is answered")
        try testbed.set(light, "in_illuminance_input", "90")
        XCTAssertTrue(waitUntil(3) { (try? self.property("LightLevel")) == .double(90) }, log())
        try call("ClaimProximity")
        XCTAssertEqual(try property("ProximityNear"), .bool(true))
        try testbed.set(proximity, "in_proximity0_raw", "0")
        XCTAssertTrue(waitUntil(3) { (try? self.property("ProximityNear")) == .bool(false) }, log())
        try testbed.set(proximity, "in_proximity0_raw", "150")
        XCTAssertTrue(waitUntil(3) { (try? self.property("ProximityNear")) == .bool(true) }, log())
    }

    func testAProximitySwitchOfAnInputDeviceIsAProximitySensor() throws {
        try testbed.add(description: fixtureText("IIOTests/Fixtures/proximity-switch.umockdev"))
        try testbed.loadIoctl("/dev/input/event2", packageRoot + "/Tests/IIOTests/Fixtures/proximity-switch-near.ioctl")
        try start()
        XCTAssertEqual(try property("HasProximity"), .bool(true), log())
        XCTAssertEqual(try property("ProximityNear"), .bool(false), "the peer's value before a claim")
        try call("ClaimProximity")
        XCTAssertEqual(try property("ProximityNear"), .bool(true), "the switch's state when the claim began: \(log())")
        XCTAssertTrue(log().contains("SW_FRONT_PROXIMITY"), log())
    }

    /// Apple's SMC light sensor (a platform device the peer's rule marks `hwmon-als`): a change is seen
    /// within half a second while claimed.
    func testAnSMCLightChangeIsSeenWithinHalfASecondWhileClaimed() throws {
        let smc = try testbed.add("smc-light", subsystem: "platform", attributes: ["light": "(51,102)"],
                                  properties: ["IIO_SENSOR_PROXY_TYPE": "hwmon-als"])
        try start()
        XCTAssertEqual(try property("HasAmbientLight"), .bool(true), log())
        try call("ClaimLight")
        XCTAssertEqual(try property("LightLevel"), .double(40), "102 of 255")
        XCTAssertEqual(try string("LightLevelUnit"), "vendor")
        try testbed.set(smc, "light", "(204,0)")
        XCTAssertTrue(waitUntil(0.5) { (try? self.property("LightLevel")) == .double(80) }, log())
    }

    // MARK: One world per case

    /// Stops this case's daemon, testbed and bus and makes fresh ones, for a test that tries several devices in turn.
    private func freshWorld() {
        do {
            try tearDownWithError()
            try setUpWithError()
        } catch {
            XCTFail("cannot make a fresh world: \(error)")
        }
    }
}
