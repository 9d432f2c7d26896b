// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// The ambient light and proximity sensors through `net.hadess.SensorProxy`: fake IIO devices in a
/// umockdev testbed, the daemon serving the compatibility interface, and clients (our own and the real
/// `monitor-sensor`) claiming them.
final class LightProximityTests: TestbedTestCase {
    var connections: [Connection] = []
    var children: [ChildProcess] = []

    override func tearDownWithError() throws {
        for child in children where child.isRunning { child.stop(SIGTERM) }
        for c in connections { c.close() }
        try super.tearDownWithError()
    }

    // MARK: Helpers

    func start() throws {
        try launch(["--sensor", "iio", "--sensor-proxy-compat"], waitingFor: SensorProxy.busName)
    }

    func property(_ name: String) throws -> Value {
        let reply = try probe.callBlocking(destination: SensorProxy.busName, path: SensorProxy.path, interface: StandardInterface.properties,
                                           method: "Get", values: [.string(SensorProxy.interface), .string(name)], timeoutMs: 5000)
        return reply.first?.variantValue ?? reply.first ?? .string("")
    }

    func lightLevel() throws -> Double { try property("LightLevel").doubleValue ?? -1 }

    /// A client that keeps every PropertiesChanged it receives from the compatibility object, whether
    /// sent to everyone (it asks for those with a match rule) or to it alone.
    final class Listener {
        let connection: Connection
        private(set) var changes: [[String: Value]] = []
        init(address: String) throws {
            connection = try Connection(bus: .address(address))
            try connection.addMatch("type='signal',interface='\(StandardInterface.properties)',path='\(SensorProxy.path)'")
            connection.onSignal { [unowned self] message in
                guard message.path == SensorProxy.path, let change = PropertiesChanged(message) else { return }
                changes.append(Dictionary(change.changed, uniquingKeysWith: { _, last in last }))
            }
        }
        func values(of property: String) -> [Value] { changes.compactMap { $0[property] } }
        func call(_ method: String) throws {
            _ = try connection.callBlocking(destination: SensorProxy.busName, path: SensorProxy.path, interface: SensorProxy.interface,
                                            method: method, timeoutMs: 5000)
        }
    }

    func listener() throws -> Listener {
        let l = try Listener(address: bus.address)
        connections.append(l.connection)
        return l
    }

    func log() -> String { daemon?.log ?? "" }

    // MARK: Light

    func testLightIsReadOnlyWhileClaimedAndItsReadingsGoOnlyToTheClaimants() throws {
        let als = try testbed.add("iio:device1", attributes: ["name": "als", "in_illuminance_input": "120"])
        try start()
        XCTAssertEqual(try property("HasAmbientLight"), .bool(true), log())
        XCTAssertEqual(try lightLevel(), 0, "the peer's value before any claim")
        XCTAssertEqual(try property("LightLevelUnit"), .string("lux"))

        let claimant = try listener(), bystander = try listener()
        try claimant.call("ClaimLight")
        XCTAssertTrue(waitUntil(3) { claimant.values(of: "LightLevel").contains(.double(120)) }, "\(claimant.changes)\n\(log())")
        XCTAssertEqual(try lightLevel(), 120)
        try testbed.set(als, "in_illuminance_input", "300.5")
        XCTAssertTrue(waitUntil(3) { claimant.values(of: "LightLevel").contains(.double(300.5)) }, "\(claimant.changes)")
        XCTAssertEqual(claimant.values(of: "LightLevelUnit").last, .string("lux"))
        XCTAssertEqual(claimant.values(of: "LightLevel").filter { $0 == .double(120) }.count, 1, "a reading is sent when it changes only")
        XCTAssertTrue(bystander.values(of: "LightLevel").isEmpty, "a client that does not claim gets no readings: \(bystander.changes)")

        // Released: the sensor is not read any more.
        try claimant.call("ReleaseLight")
        try testbed.set(als, "in_illuminance_input", "999")
        waitUntil(2) { false }
        XCTAssertEqual(try lightLevel(), 300.5, "read while nobody claims it")

        // A claimant that leaves ends its claim.
        try bystander.call("ClaimLight")
        XCTAssertTrue(waitUntil(3) { bystander.values(of: "LightLevel").contains(.double(999)) }, "\(bystander.changes)")
        bystander.connection.close()
        try testbed.set(als, "in_illuminance_input", "5")
        waitUntil(2) { false }
        XCTAssertEqual(try lightLevel(), 999, "read after its only claimant left")
    }

    func testRawIlluminanceIsMultipliedByItsOwnChannelsScale() throws {
        try testbed.add("iio:device2", attributes: ["name": "als", "in_illuminance0_raw": "50", "in_illuminance0_scale": "2.5"])
        try start()
        let claimant = try listener()
        try claimant.call("ClaimLight")
        XCTAssertTrue(waitUntil(3) { (try? self.lightLevel()) == 125 }, "LightLevel \(String(describing: try? lightLevel()))\n\(log())")
    }

    func testAGarbageReadingIsSkippedLoggedOnceAndNeverMadeUp() throws {
        let als = try testbed.add("iio:device1", attributes: ["name": "als", "in_illuminance_input": "40"])
        try start()
        let claimant = try listener()
        try claimant.call("ClaimLight")
        XCTAssertTrue(waitUntil(3) { (try? self.lightLevel()) == 40 })
        try testbed.set(als, "in_illuminance_input", "bright")
        waitUntil(2.5) { false }
        XCTAssertEqual(try lightLevel(), 40, "no value is made up from garbage")
        XCTAssertEqual(log().components(separatedBy: "not a number").count - 1, 1, "logged once per episode:\n\(log())")
        try testbed.set(als, "in_illuminance_input", "41")
        XCTAssertTrue(waitUntil(3) { (try? self.lightLevel()) == 41 }, log())
        XCTAssertTrue(log().contains("readings work again"), log())
    }

    func testALightSensorPluggedInOrRemovedIsAnnouncedToEveryone() throws {
        try start()
        XCTAssertEqual(try property("HasAmbientLight"), .bool(false))
        let watcher = try listener()
        let als = try testbed.add("iio:device4", attributes: ["name": "als", "in_illuminance_input": "7"])
        try testbed.uevent(als, "add")
        XCTAssertTrue(waitUntil(3) { watcher.values(of: "HasAmbientLight").contains(.bool(true)) }, "\(watcher.changes)\n\(log())")
        XCTAssertEqual(try property("HasAmbientLight"), .bool(true))
        try testbed.uevent(als, "remove")
        try testbed.remove(als)
        XCTAssertTrue(waitUntil(3) { watcher.values(of: "HasAmbientLight").last == .bool(false) }, "\(watcher.changes)\n\(log())")
    }

    /// Apple's SMC: `(a,b)` in its `light` attribute, the brighter as a percentage of 255, in a vendor unit.
    func testAppleSMCLightIsReadInItsVendorUnit() throws {
        try testbed.add(description: "P: /devices/platform/applesmc.768\nE: SUBSYSTEM=platform\nE: MODALIAS=platform:applesmc\n"
                        + "A: modalias=platform:applesmc\nA: light=(10,51)\n")
        try start()
        XCTAssertEqual(try property("HasAmbientLight"), .bool(true), log())
        let claimant = try listener()
        try claimant.call("ClaimLight")
        XCTAssertTrue(waitUntil(3) { claimant.values(of: "LightLevel").contains(.double(20)) }, "\(claimant.changes)\n\(log())")
        XCTAssertEqual(claimant.values(of: "LightLevelUnit").last, .string("vendor"))
        XCTAssertEqual(try property("LightLevelUnit"), .string("vendor"))
    }

    // MARK: Proximity

    func testProximityIsNearAboveTheLevelAndFarOnlyBelowTheMargin() throws {
        let sensor = try testbed.add("iio:device3", attributes: ["name": "prox", "in_proximity_raw": "10"],
                                     properties: ["PROXIMITY_NEAR_LEVEL": "100"])
        try start()
        XCTAssertEqual(try property("HasProximity"), .bool(true), log())
        let claimant = try listener()
        try claimant.call("ClaimProximity")
        waitUntil(1) { false }
        XCTAssertEqual(try property("ProximityNear"), .bool(false))
        try testbed.set(sensor, "in_proximity_raw", "150")
        XCTAssertTrue(waitUntil(3) { claimant.values(of: "ProximityNear").last == .bool(true) }, "\(claimant.changes)\n\(log())")
        try testbed.set(sensor, "in_proximity_raw", "95")
        waitUntil(1.6) { false }
        XCTAssertEqual(try property("ProximityNear"), .bool(true), "within the margin it stays near")
        try testbed.set(sensor, "in_proximity_raw", "80")
        XCTAssertTrue(waitUntil(3) { claimant.values(of: "ProximityNear").last == .bool(false) }, "\(claimant.changes)")
        XCTAssertEqual(claimant.values(of: "ProximityNear"), [.bool(true), .bool(false)], "each change once")
    }

    func testTheNearLevelMayComeFromSysfs() throws {
        try testbed.add("iio:device3", attributes: ["name": "prox", "in_proximity_raw": "60", "in_proximity_nearlevel": "50"])
        try start()
        let claimant = try listener()
        try claimant.call("ClaimProximity")
        XCTAssertTrue(waitUntil(3) { (try? self.property("ProximityNear")) == .bool(true) }, log())
    }

    // MARK: The real monitor-sensor

    func testMonitorSensorShowsLightAndProximityChanges() throws {
        guard toolExists("monitor-sensor") else { throw unavailable("monitor-sensor is not installed (apt: iio-sensor-proxy)") }
        // An accelerometer, a light sensor and a proximity sensor, as on a convertible or a phone.
        try testbed.add("iio:device0", attributes: ["name": "accel_3d", "in_accel_x_raw": "0", "in_accel_y_raw": "-256",
                                                     "in_accel_z_raw": "0", "in_accel_scale": "0.038320312"])
        let als = try testbed.add("iio:device1", attributes: ["name": "als", "in_illuminance_input": "12"])
        let prox = try testbed.add("iio:device3", attributes: ["name": "prox", "in_proximity_raw": "0"],
                                   properties: ["PROXIMITY_NEAR_LEVEL": "100"])
        try start()
        let output = scratch + "/monitor-sensor.out"
        let monitor = try ChildProcess(["monitor-sensor"], output: .file(output), environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        children.append(monitor)
        func seen() -> String { (try? String(contentsOfFile: output, encoding: .utf8)) ?? "" }
        // monitor-sensor reads the properties before it claims: undefined until the claim's first reading, as with the peer.
        XCTAssertTrue(waitUntil(5) { seen().contains("=== Has accelerometer (orientation: undefined)")
                        && seen().contains("=== Has ambient light sensor") && seen().contains("=== Has proximity sensor") },
                      seen())
        XCTAssertTrue(waitUntil(3) { seen().contains("Accelerometer orientation changed: normal") }, seen())
        XCTAssertTrue(waitUntil(3) { seen().contains("Light changed: 12.0") }, seen())
        try testbed.set(als, "in_illuminance_input", "345")
        XCTAssertTrue(waitUntil(3) { seen().contains("Light changed: 345.0") }, seen())
        try testbed.set(prox, "in_proximity_raw", "200")
        XCTAssertTrue(waitUntil(3) { seen().contains("Proximity value changed: 1") }, seen())
        try testbed.set(prox, "in_proximity_raw", "3")
        XCTAssertTrue(waitUntil(3) { seen().contains("Proximity value changed: 0") }, seen())
        monitor.stop(SIGTERM)
    }
}

/// The same fake light and proximity devices read by the real iio-sensor-proxy and by orientationd, one
/// after the other on one private bus (both serve `net.hadess.SensorProxy`): what each reports,
/// case by case, for the table in Docs/sensors.md.
final class LightProximitySideBySideTests: TestbedTestCase {
    override func setUpWithError() throws {
        guard access("/usr/sbin/iio-sensor-proxy", X_OK) == 0 else {
            throw unavailable("iio-sensor-proxy is not installed (apt: iio-sensor-proxy)")
        }
        try super.setUpWithError()
    }

    enum Server: String { case peer = "iio-sensor-proxy", ours = "orientationd" }

    /// Starts `server` in the testbed, claims light and proximity from a client, runs `steps` (each a
    /// change to the devices, then what to read after a poll or two), and stops it.
    func run(_ server: Server, _ steps: [(change: () throws -> Void, read: [String])]) throws -> [[String: Value]] {
        let argv = server == .peer ? ["/usr/sbin/iio-sensor-proxy"]
            : [programsDirectory() + "/orientationd", "--address", bus.address, "--sensor", "iio", "--sensor-proxy-compat",
               "--state-dir", scratch + "/state"]
        let child = try world.start(argv, name: server.rawValue,
                                    environment: testbedEnvironment.merging(["DBUS_SYSTEM_BUS_ADDRESS": bus.address]) { $1 },
                                    waitFor: SensorProxy.busName)
        defer { child.stop(SIGTERM) }
        let client = try Connection(bus: .address(bus.address))
        defer { client.close() }
        for method in ["ClaimLight", "ClaimProximity"] {
            _ = try client.callBlocking(destination: SensorProxy.busName, path: SensorProxy.path, interface: SensorProxy.interface,
                                        method: method, timeoutMs: 5000)
        }
        var seen: [[String: Value]] = []
        for step in steps {
            try step.change()
            waitUntil(1.8) { false }
            let all = try client.callBlocking(destination: SensorProxy.busName, path: SensorProxy.path, interface: StandardInterface.properties,
                                              method: "GetAll", values: [.string(SensorProxy.interface)], timeoutMs: 5000)
            let values = all.first?.stringKeyedDictionary ?? [:]
            seen.append(values.filter { step.read.contains($0.key) })
        }
        let gone = waitUntil(5) {
            child.stop(SIGTERM)
            return (try? probe.callBusDriverBlocking("NameHasOwner", [.string(SensorProxy.busName)]).first?.boolValue) == false
        }
        XCTAssertTrue(gone, "\(server.rawValue) did not leave the bus")
        return seen
    }

    /// One device setup, read by both from the same starting values.
    func compare(light: [String: String], proximity: [String: String], proximityProperties: [String: String],
                 proximitySteps: [String]) throws -> (peer: [[String: Value]], ours: [[String: Value]]) {
        let als = try testbed.add("iio:device1", attributes: ["name": "als"].merging(light) { $1 },
                                  properties: ["IIO_SENSOR_PROXY_TYPE": "iio-poll-als"])
        let prox = try testbed.add("iio:device2", attributes: ["name": "prox"].merging(proximity) { $1 },
                                   properties: ["IIO_SENSOR_PROXY_TYPE": "iio-poll-proximity"].merging(proximityProperties) { $1 })
        let read = ["HasAmbientLight", "LightLevel", "LightLevelUnit", "HasProximity", "ProximityNear"]
        func steps() -> [(change: () throws -> Void, read: [String])] {
            [({}, read)] + proximitySteps.map { value in ({ try self.testbed.set(prox, "in_proximity_raw", value) }, ["ProximityNear"]) }
        }
        let start = proximity["in_proximity_raw"] ?? "0"
        let peer = try run(.peer, steps())
        try testbed.set(prox, "in_proximity_raw", start)
        let ours = try run(.ours, steps())
        try testbed.remove(als)
        try testbed.remove(prox)
        return (peer, ours)
    }

    /// `in_illuminance_input` as is: both. A proximity sensor falling from near to within 10 % below its
    /// level: ours stays near (sensors.md: far only below 90 % of the level, so a hand hovering at the
    /// level does not blink the screen), iio-sensor-proxy 3.0 reads far at once (no margin); below the
    /// margin both read far.
    func testLuxInputAgreesAndOnlyOursKeepsAMarginBelowTheLevel() throws {
        let r = try compare(light: ["in_illuminance_input": "120"], proximity: ["in_proximity_raw": "150"],
                            proximityProperties: ["PROXIMITY_NEAR_LEVEL": "100"], proximitySteps: ["95", "85"])
        XCTAssertEqual(r.ours[0], ["HasAmbientLight": .bool(true), "LightLevel": .double(120), "LightLevelUnit": .string("lux"),
                                   "HasProximity": .bool(true), "ProximityNear": .bool(true)])
        XCTAssertEqual(r.peer[0], r.ours[0], "iio-sensor-proxy: \(r.peer)")
        XCTAssertEqual(r.ours[1], ["ProximityNear": .bool(true)], "95 is within the margin below 100: still near")
        XCTAssertEqual(r.peer[1], ["ProximityNear": .bool(false)], "iio-sensor-proxy: \(r.peer)")
        XCTAssertEqual(r.ours[2], ["ProximityNear": .bool(false)], "85 is below the margin: far")
        XCTAssertEqual(r.peer[2], r.ours[2])
    }

    /// `in_illuminance_raw` × `in_illuminance_scale`, and near as soon as above the level: both.
    func testRawTimesScaleAndNearAboveTheLevelAgree() throws {
        let r = try compare(light: ["in_illuminance_raw": "50", "in_illuminance_scale": "2.5"], proximity: ["in_proximity_raw": "10"],
                            proximityProperties: ["PROXIMITY_NEAR_LEVEL": "100"], proximitySteps: ["105"])
        XCTAssertEqual(r.ours[0]["LightLevel"], .double(125))
        XCTAssertEqual(r.peer[0]["LightLevel"], .double(125), "iio-sensor-proxy: \(r.peer)")
        XCTAssertEqual(r.ours[1], ["ProximityNear": .bool(true)])
        XCTAssertEqual(r.peer[1], r.ours[1], "iio-sensor-proxy: \(r.peer)")
    }

    /// Apple's SMC light sensor, marked `hwmon-als` as the peer's rule marks it: both read `(a,b)` as the
    /// brighter in percent of 255, in a vendor unit.
    func testAppleSMCLightAgrees() throws {
        try testbed.add(description: "P: /devices/platform/applesmc.768\nE: SUBSYSTEM=platform\nE: MODALIAS=platform:applesmc\n"
                        + "E: IIO_SENSOR_PROXY_TYPE=hwmon-als\nA: modalias=platform:applesmc\nA: light=(10,51)\n")
        let read = [(change: {}, read: ["HasAmbientLight", "LightLevel", "LightLevelUnit"])] as [(change: () throws -> Void, read: [String])]
        let peer = try run(.peer, read), ours = try run(.ours, read)
        XCTAssertEqual(ours[0], ["HasAmbientLight": .bool(true), "LightLevel": .double(20), "LightLevelUnit": .string("vendor")])
        XCTAssertEqual(peer[0]["LightLevelUnit"], ours[0]["LightLevelUnit"], "iio-sensor-proxy: \(peer)")
        XCTAssertEqual(peer[0]["LightLevel"]?.doubleValue ?? -1, 20, accuracy: 0.001, "iio-sensor-proxy: \(peer)")
    }

    /// `in_illuminance0_raw` × `in_illuminance0_scale`: ours uses the channel's own scale (125); the peer
    /// looks for `in_illuminance0_` in the whole path, never finds it, and takes `in_illuminance_scale`,
    /// absent here, as 1 (50). A proximity sensor with no near level: neither uses it.
    func testIlluminance0ScaleAndAProximitySensorWithoutALevel() throws {
        let r = try compare(light: ["in_illuminance0_raw": "50", "in_illuminance0_scale": "2.5"], proximity: ["in_proximity_raw": "10"],
                            proximityProperties: [:], proximitySteps: [])
        XCTAssertEqual(r.ours[0]["LightLevel"], .double(125))
        XCTAssertEqual(r.peer[0]["LightLevel"], .double(50), "iio-sensor-proxy: \(r.peer)")
        XCTAssertEqual(r.ours[0]["HasProximity"], .bool(false))
        XCTAssertEqual(r.peer[0]["HasProximity"], .bool(false), "iio-sensor-proxy: \(r.peer)")
    }
}

/// Buffered sensors (HID sensor hubs report only when the reading changes): a light sensor's
/// `in_intensity_both` and a compass's `in_rot_from_north_magnetic_tilt_comp`, read from the device's
/// buffer while claimed, so the daemon sleeps until the device reports.
final class BufferedScalarSensorTests: TestbedTestCase {
    var clients: [Connection] = []

    override func tearDownWithError() throws {
        for c in clients { c.close() }
        try super.tearDownWithError()
    }

    /// A buffered device with one channel (le:u32 at 0) and an enabled timestamp at 8: 16-byte frames.
    func addBuffered(_ number: Int, name: String, channel: String, scale: String, type: String = "le:u32/32>>0",
                     extra: String = "") throws {
        try testbed.add(description: """
            P: /devices/iio:device\(number)
            N: iio:device\(number)
            E: DEVNAME=/dev/iio:device\(number)
            E: SUBSYSTEM=iio
            A: dev=241:\(number)
            A: name=\(name)
            A: \(channel)_scale=\(scale)
            A: buffer/enable=0
            A: buffer/length=8
            A: trigger/current_trigger=
            A: scan_elements/\(channel)_en=0
            A: scan_elements/\(channel)_index=0
            A: scan_elements/\(channel)_type=\(type)
            A: scan_elements/in_timestamp_en=1
            A: scan_elements/in_timestamp_index=1
            A: scan_elements/in_timestamp_type=le:s64/64>>0
            \(extra)
            """)
        try testbed.add(description: "P: /devices/trigger\(number)\nE: SUBSYSTEM=iio\nA: name=\(name)-dev\(number)\n")
    }

    func frame(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xff), UInt8(value >> 8 & 0xff), UInt8(value >> 16 & 0xff), UInt8(value >> 24), 0, 0, 0, 0,
         1, 2, 3, 4, 5, 6, 7, 8]
    }

    func get(_ path: String, _ interface: String, _ name: String) throws -> Value? {
        try probe.callBlocking(destination: SensorProxy.busName, path: path, interface: StandardInterface.properties,
                               method: "Get", values: [.string(interface), .string(name)], timeoutMs: 5000).first?.variantValue
    }

    func claim(_ path: String, _ interface: String, _ method: String) throws -> (Connection, () -> [[String: Value]]) {
        let c = try Connection(bus: .address(bus.address))
        clients.append(c)
        final class Box { var changes: [[String: Value]] = [] }
        let box = Box()
        c.onSignal { message in
            guard message.path == path, let change = PropertiesChanged(message) else { return }
            box.changes.append(Dictionary(change.changed, uniquingKeysWith: { _, last in last }))
        }
        _ = try c.callBlocking(destination: SensorProxy.busName, path: path, interface: interface, method: method, timeoutMs: 5000)
        return (c, { box.changes })
    }

    func testABufferedLightSensorWakesTheDaemonOnlyWhenItReports() throws {
        try addBuffered(6, name: "als", channel: "in_intensity_both", scale: "0.5")
        try launch(["--sensor", "iio", "--sensor-proxy-compat"], waitingFor: SensorProxy.busName)
        XCTAssertEqual(try get(SensorProxy.path, SensorProxy.interface, "HasAmbientLight"), .bool(true), daemon!.log)
        XCTAssertTrue(daemon!.log.contains("buffered (trigger als-dev6"), daemon!.log)
        XCTAssertEqual(try testbed.read("/sys/devices/iio:device6/buffer/enable"), "0", "not enabled before a claim")
        let (_, changes) = try claim(SensorProxy.path, SensorProxy.interface, "ClaimLight")
        XCTAssertTrue(waitUntil(3) { (try? self.testbed.read("/sys/devices/iio:device6/buffer/enable")) == "1" }, daemon!.log)
        XCTAssertEqual(try testbed.read("/sys/devices/iio:device6/scan_elements/in_intensity_both_en"), "1")
        XCTAssertEqual(try testbed.read("/sys/devices/iio:device6/trigger/current_trigger"), "als-dev6")

        // Claimed, and the device silent: no timer wakes the daemon.
        waitUntil(0.3) { false }
        let before = daemon!.contextSwitches
        waitUntil(1.5) { false }
        XCTAssertLessThanOrEqual(daemon!.contextSwitches - before, 1, "the daemon woke while the buffered sensor was silent")

        try testbed.writeDevice("/dev/iio:device6", frame(400))
        XCTAssertTrue(waitUntil(3) { changes().contains { $0["LightLevel"] == .double(200) } }, "\(changes())\n\(daemon!.log)")
        XCTAssertEqual(try get(SensorProxy.path, SensorProxy.interface, "LightLevel"), .double(200))
    }

    /// A buffer that cannot be used (here a scan element type the kernel would never print; under the
    /// shipped unit, a read-only /sys) leaves the channel's raw attribute, polled instead.
    func testALightSensorWhoseBufferFailsIsPolledInstead() throws {
        try addBuffered(6, name: "als", channel: "in_intensity_both", scale: "0.5", type: "garbage",
                        extra: "A: in_intensity_both_raw=300\n")
        try launch(["--sensor", "iio", "--sensor-proxy-compat"], waitingFor: SensorProxy.busName)
        let (_, changes) = try claim(SensorProxy.path, SensorProxy.interface, "ClaimLight")
        XCTAssertTrue(waitUntil(3) { changes().contains { $0["LightLevel"] == .double(150) } }, "\(changes())\n\(daemon!.log)")
        XCTAssertTrue(daemon!.log.contains("polling in_intensity_both_raw every 800 ms instead"), daemon!.log)
    }

    func testTheCompassIsServedAtItsOwnPathFromItsBuffer() throws {
        let path = SensorProxy.compassPath, interface = SensorProxy.compassInterface
        try launch(["--sensor", "iio", "--sensor-proxy-compat"], waitingFor: SensorProxy.busName)
        XCTAssertEqual(try get(path, interface, "HasCompass"), .bool(false), "served even without a compass")
        XCTAssertEqual(try get(path, interface, "CompassHeading"), .double(-1), "the peer's value before any reading")

        try addBuffered(5, name: "magn_3d", channel: "in_rot_from_north_magnetic_tilt_comp", scale: "0.001")
        try testbed.uevent("/sys/devices/iio:device5", "add")
        XCTAssertTrue(waitUntil(3) { (try? self.get(path, interface, "HasCompass")) == .bool(true) }, daemon!.log)
        let (_, changes) = try claim(path, interface, "ClaimCompass")
        XCTAssertTrue(waitUntil(3) { (try? self.testbed.read("/sys/devices/iio:device5/buffer/enable")) == "1" }, daemon!.log)
        try testbed.writeDevice("/dev/iio:device5", frame(90_000) + frame(123_500))
        XCTAssertTrue(waitUntil(3) { changes().contains { $0["CompassHeading"] == .double(123.5) } }, "\(changes())\n\(daemon!.log)")
        XCTAssertFalse(changes().contains { $0["CompassHeading"] == .double(90) }, "only the newest frame of a wake-up counts")
        _ = try probe.callBlocking(destination: SensorProxy.busName, path: path, interface: interface, method: "ReleaseCompass", timeoutMs: 5000)
        XCTAssertEqual(try testbed.read("/sys/devices/iio:device5/buffer/enable"), "1", "another client's claim still holds")
        clients[0].close()
        XCTAssertTrue(waitUntil(3) { (try? self.testbed.read("/sys/devices/iio:device5/buffer/enable")) == "0" },
                      "the buffer is disabled once its last claimant has left")
    }
}
