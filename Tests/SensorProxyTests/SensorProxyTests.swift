// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// `orientationd --sensor sensor-proxy` against the REAL iio-sensor-proxy 3.0, which runs on a
/// private bus (as its "system" bus, DBUS_SYSTEM_BUS_ADDRESS) inside a umockdev testbed with a
/// fake IIO accelerometer. The driver (DriverScript.swift) moves the fake device and records the
/// proxy's method calls with dbus-monitor.
final class SensorProxyTests: EndToEndTestCase {
    var driver: Child?
    /// iio-sensor-proxy, while it runs.
    var proxy: Child?
    /// The testbed's directory, where the proxy finds the fake device.
    var testbedRoot: String?
    var daemon: Child?
    var bus: PrivateBus { world.bus }
    var probe: Connection { world.probe }
    var scratch: String { world.scratch }

    override func setUpWithError() throws {
        try requirePeer()
        try super.setUpWithError()
    }

    // MARK: Helpers

    /// Starts the fake device and (unless `proxy` is false) iio-sensor-proxy on it.
    func startDriver(proxy: Bool = true) throws {
        let script = scratch + "/driver.py"
        writeText(script, driverScript)
        let child = try world.start(["/usr/bin/python3", script, bus.address, scratch], name: "driver", pipes: true, stopSignal: 0)
        driver = child
        let first = try child.readLine()
        guard first.hasPrefix("ok ") else { throw DBusError.failed("the fake device did not start: \(first)\n\(child.log)") }
        testbedRoot = String(first.dropFirst(3))
        if proxy { try startProxy() }
    }

    /// Starts iio-sensor-proxy in the testbed, on the private bus as its system bus, and waits for its name.
    func startProxy() throws {
        guard let testbedRoot else { throw DBusError.failed("no testbed") }
        proxy = try world.start(["umockdev-wrapper", "/usr/sbin/iio-sensor-proxy", "-v"], name: "iio-sensor-proxy",
                                environment: ["UMOCKDEV_DIR": testbedRoot, "DBUS_SYSTEM_BUS_ADDRESS": bus.address,
                                              "G_MESSAGES_DEBUG": "all"],
                                waitFor: SensorProxy.busName, timeout: 10)
    }

    /// Stops iio-sensor-proxy and waits until the bus has seen it go.
    func stopProxy() {
        guard let proxy else { return }
        world.stop(proxy, releasing: SensorProxy.busName)
        self.proxy = nil
    }

    func drive(_ line: String) throws {
        let answer = try driver!.command(line)
        XCTAssertEqual(answer, "ok", "driver: \(line)")
    }

    /// The fake device in a pose (raw values, scale 9.81/256).
    func pose(_ x: Int, _ y: Int, _ z: Int) throws { try drive("pose \(x) \(y) \(z)") }

    func startDaemon(sensor: String = "sensor-proxy") throws {
        // Our daemon reaches the proxy on the "system" bus: here the private one.
        daemon = try world.startDaemon(sensor: sensor, stateDirectory: scratch + "/state",
                                       environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
    }

    func hasAccelerometer() -> Bool? { (try? get("HasAccelerometer"))?.boolValue }
    func deviceOrientation() -> UInt32? { (try? get("DeviceOrientation"))?.uint32Value }

    /// Waits (up to `timeout` s, the proxy polls every 700 ms) for `DeviceOrientation` to read `value`.
    func expectDevice(_ value: UInt32, timeout: Double = 4, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let ok = waitUntil(timeout) {
            if deviceOrientation() == value { return true }
            usleep(20_000)
            return false
        }
        XCTAssertTrue(ok, "\(what): DeviceOrientation is \(deviceOrientation().map(String.init) ?? "?"), expected \(value); "
                      + "daemon log:\n\(daemon?.log ?? "")", file: file, line: line)
    }

    func expectHasAccelerometer(_ value: Bool, timeout: Double = 4, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let ok = waitUntil(timeout) {
            if hasAccelerometer() == value { return true }
            usleep(20_000)
            return false
        }
        XCTAssertTrue(ok, "\(what): HasAccelerometer is not \(value); daemon log:\n\(daemon?.log ?? "")", file: file, line: line)
    }

    /// The proxy's accelerometer method calls made by our daemon's process so far, in order.
    func daemonCalls() throws -> [String] {
        let answer = try driver!.command("calls")
        guard answer.hasPrefix("calls") else { throw DBusError.failed("driver: \(answer)") }
        var pids: [String: UInt32] = [:]
        var out: [String] = []
        for item in answer.split(separator: " ").dropFirst() {
            guard let colon = item.firstIndex(of: ":") else { continue }
            let member = String(item[..<colon]), sender = String(item[item.index(after: colon)...])
            guard member.hasSuffix("Accelerometer") else { continue }
            if pids[sender] == nil {
                let r = try? probe.callBusDriverBlocking("GetConnectionUnixProcessID", [.string(sender)])
                pids[sender] = r?.first?.uint32Value ?? 0
            }
            if pids[sender] == UInt32(daemon!.pid) { out.append(member) }
        }
        return out
    }

    func claim(_ c: Connection) throws {
        _ = try c.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: Orientation1.managerInterface,
                               method: "BeginGeneratingDeviceOrientationNotifications", timeoutMs: 5000)
    }

    func unclaim(_ c: Connection) throws {
        _ = try c.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: Orientation1.managerInterface,
                               method: "EndGeneratingDeviceOrientationNotifications", timeoutMs: 5000)
    }

    // MARK: Tests

    /// HasAccelerometer from the proxy; no claim on it until a client claims; poses followed
    /// while claimed, with iio-sensor-proxy's strings mapped to device orientations; released after.
    func testFollowsTheRealProxyOnlyWhileClaimed() throws {
        try startDriver()
        try startDaemon()
        expectHasAccelerometer(true, "the proxy has an accelerometer")
        XCTAssertEqual(deviceOrientation(), 0, "nobody claims: DeviceOrientation reads 0")
        // Give a wrongly eager source the time to claim, then check it did not.
        waitUntil(1) { false }
        XCTAssertEqual(try daemonCalls(), [], "no claim on the proxy while nobody claims here")

        let app = try Connection(bus: .address(bus.address))
        defer { app.close() }
        var seen: [UInt32] = []
        try app.addMatch("type='signal',path='\(Orientation1.managerPath)',interface='\(Orientation1.managerInterface)',member='DeviceOrientationDidChange'")
        app.onSignal { message in
            if message.member == "DeviceOrientationDidChange", let v = (try? message.arguments())?.first?.uint32Value { seen.append(v) }
        }
        try claim(app)
        expectDevice(1, "the fake device starts in portrait (normal)")
        XCTAssertEqual(try daemonCalls(), ["ClaimAccelerometer"], "one claim on the proxy once claimed here")

        try pose(-256, 0, 0)
        expectDevice(3, "right-up → landscape-left")
        try pose(256, 0, 0)
        expectDevice(4, "left-up → landscape-right")
        try pose(0, 256, 0)
        expectDevice(2, "bottom-up → portrait-upside-down")
        try pose(0, -256, 0)
        expectDevice(1, "normal → portrait")
        waitUntil(0.2) { false }
        XCTAssertEqual(seen, [1, 3, 4, 2, 1], "DeviceOrientationDidChange for each pose, in order")

        try unclaim(app)
        waitUntil(1) { false }
        XCTAssertEqual(try daemonCalls(), ["ClaimAccelerometer", "ReleaseAccelerometer"], "released when nobody claims")
        XCTAssertEqual(deviceOrientation(), 0)
        XCTAssertEqual(hasAccelerometer(), true)

        // Claiming again claims again, and reports the pose the device is in now.
        try pose(-256, 0, 0)
        try claim(app)
        expectDevice(3, "claimed again: the current pose")
        XCTAssertEqual(try daemonCalls(), ["ClaimAccelerometer", "ReleaseAccelerometer", "ClaimAccelerometer"])
        // A client leaving the bus drops its claim: the daemon releases the proxy.
        app.close()
        waitUntil(1.5) { false }
        XCTAssertEqual(try daemonCalls().last, "ReleaseAccelerometer", "released when the claiming client leaves")
    }

    /// The proxy going away reads as no accelerometer (DeviceOrientation 0); its return is picked
    /// up and the claim made again.
    func testProxyVanishesAndReturns() throws {
        try startDriver()
        try startDaemon()
        let app = try Connection(bus: .address(bus.address))
        defer { app.close() }
        try claim(app)
        expectDevice(1, "portrait at first")

        stopProxy()
        expectHasAccelerometer(false, "the proxy left")
        XCTAssertEqual(deviceOrientation(), 0, "no accelerometer: DeviceOrientation 0")

        try pose(-256, 0, 0)
        try startProxy()
        expectHasAccelerometer(true, "the proxy is back")
        expectDevice(3, "claim made again; the current pose read")
        XCTAssertEqual(try daemonCalls(), ["ClaimAccelerometer", "ClaimAccelerometer"])
    }

    /// A daemon started before the proxy finds it when it appears.
    func testProxyStartingLaterIsPickedUp() throws {
        try startDriver(proxy: false)
        try startDaemon()
        let app = try Connection(bus: .address(bus.address))
        defer { app.close() }
        try claim(app)
        waitUntil(0.3) { false }
        XCTAssertEqual(hasAccelerometer(), false, "no proxy yet")
        XCTAssertEqual(deviceOrientation(), 0)
        try startProxy()
        expectHasAccelerometer(true, "the proxy appeared")
        expectDevice(1, "claimed on appearance: portrait")
        XCTAssertTrue(daemon!.log.contains("sensor-proxy: using the accelerometer"), daemon!.log)
    }

    /// `auto` without an IIO accelerometer asks once for an upstream proxy and, when it has an
    /// accelerometer, reads it like `--sensor sensor-proxy`: claimed only while claimed here.
    func testAutoTakesTheUpstreamProxyWhenThereIsNoIIODevice() throws {
        try XCTSkipIf(access("/sys/bus/iio/devices/iio:device0", F_OK) == 0, "this machine has an IIO device, which auto prefers")
        let fake = try startFakeProxy()
        defer { fake.stop() }
        try startDaemon(sensor: "auto")
        expectHasAccelerometer(true, "auto found the proxy's accelerometer")
        XCTAssertEqual(try fake.command("claims"), "claims 0", "nobody claims here: no claim on the proxy")

        let app = try Connection(bus: .address(bus.address))
        defer { app.close() }
        try claim(app)
        expectDevice(1, "normal, vertical")
        XCTAssertEqual(try fake.command("claims"), "claims 1")
        XCTAssertEqual(try fake.command("set right-up vertical"), "ok")
        expectDevice(3, "right-up → landscape-left")
        try unclaim(app)
        waitUntil(0.5) { false }
        XCTAssertEqual(try fake.command("claims"), "claims 0", "released")
    }

    /// `auto` with neither an IIO accelerometer nor a proxy says so and serves without one, and
    /// takes a proxy that starts later: it watches for one, it does not ask once.
    func testAutoWithoutAnyAccelerometerTakesAProxyThatStartsLater() throws {
        try XCTSkipIf(access("/sys/bus/iio/devices/iio:device0", F_OK) == 0, "this machine has an IIO device, which auto prefers")
        try startDaemon(sensor: "auto")
        XCTAssertTrue(daemon!.log.contains("the 'auto' source found no IIO accelerometer; watching for one, and for net.hadess.SensorProxy"),
                      daemon!.log)
        waitUntil(0.5) { false }
        XCTAssertEqual(hasAccelerometer(), false)
        let fake = try startFakeProxy()
        defer { fake.stop() }
        expectHasAccelerometer(true, "the proxy that started later")
        let app = try Connection(bus: .address(bus.address))
        defer { app.close() }
        try claim(app)
        expectDevice(1, "normal, vertical")
        XCTAssertEqual(try fake.command("claims"), "claims 1")
        XCTAssertTrue(daemon!.log.contains("the 'auto' source uses the accelerometer of net.hadess.SensorProxy"), daemon!.log)
    }

    /// P16 with the upstream proxy: it keeps its last pose while nobody claims it, and polls every
    /// 700 ms once claimed. Portrait during one claim, turned while released: the next claim reads
    /// landscape-left, never first the proxy's stale portrait.
    func testAClaimNeverStartsWithTheProxysPoseFromAnEarlierClaim() throws {
        try startDriver()
        try startDaemon()
        let app = try Connection(bus: .address(bus.address))
        defer { app.close() }
        try claim(app)
        expectDevice(1, "portrait")
        try unclaim(app)
        expectDevice(0, "released")
        try pose(-256, 0, 0)
        waitUntil(1) { false }
        var seen: [UInt32] = []
        try app.addMatch("type='signal',path='\(Orientation1.managerPath)',interface='\(Orientation1.managerInterface)',member='DeviceOrientationDidChange'")
        app.onSignal { message in
            if message.member == "DeviceOrientationDidChange", let v = (try? message.arguments())?.first?.uint32Value { seen.append(v) }
        }
        try claim(app)
        expectDevice(3, "the pose the device is in now")
        waitUntil(0.3) { false }
        XCTAssertEqual(seen, [3], "the proxy's portrait from the earlier claim must not be shown first")
    }

    /// The source's connection to the proxy's bus drops (the system bus restarted): it connects
    /// again and takes the proxy back, without a restart of the daemon. The daemon serves its own
    /// objects on another bus, which stays.
    func testTheSourceComesBackWhenItsBusConnectionDrops() throws {
        let ownBus = try PrivateBus()
        defer { ownBus.stop() }
        let (child, own) = try startProxyDaemon(on: ownBus)
        defer { own.close() }
        func read(_ property: String, timeoutMs: Int32 = 2000) -> Value? { managerProperty(property, via: own, timeoutMs: timeoutMs) }
        func expect(_ property: String, _ value: Value, _ what: String, timeout: Double = 5) {
            expectManagerProperty(property, value, via: own, of: child, what, timeout: timeout)
        }
        expect("HasAccelerometer", .bool(true), "the proxy on its bus")
        _ = try own.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: Orientation1.managerInterface,
                                 method: "BeginGeneratingDeviceOrientationNotifications", timeoutMs: 5000)
        expect("DeviceOrientation", .uint32(1), "portrait")

        // The proxy's bus goes away, and with it the proxy; a new bus comes at the same address.
        let directory = stopProxyBus()
        expect("HasAccelerometer", .bool(false), "the bus is gone")
        XCTAssertEqual(read("DeviceOrientation"), .uint32(0))
        XCTAssertEqual(directory, bus.directory)
        try world.restartBus()
        try startDriver()
        try pose(-256, 0, 0)
        expect("HasAccelerometer", .bool(true), "connected again to the new bus", timeout: 10)
        expect("DeviceOrientation", .uint32(3), "the claim made again on the new proxy")
        XCTAssertTrue(child.log.contains("sensor-proxy: connected again"), child.log)
        // Stopped here, while its own bus is still there (tearDown would find it gone with that bus).
        XCTAssertTrue(child.isRunning, "orientationd died; log:\n\(child.log)")
        XCTAssertEqual(child.stop(), 0, "orientationd did not exit 0 on SIGTERM; log:\n\(child.log)")
        daemon = nil
    }

    /// While the source connects again to a bus that accepts the socket and never answers (a hung
    /// system bus), the daemon's loop stays free: its own clients are answered at once. The attempt
    /// fails when that bus closes, and a real bus that comes back is taken.
    func testReconnectingToASilentBusLeavesTheDaemonAnswering() throws {
        let ownBus = try PrivateBus()
        defer { ownBus.stop() }
        let (child, own) = try startProxyDaemon(on: ownBus)
        defer { own.close() }
        let socketPath = "\(bus.directory)/bus"
        func read(_ property: String, timeoutMs: Int32 = 2000) -> Value? { managerProperty(property, via: own, timeoutMs: timeoutMs) }
        func expect(_ property: String, _ value: Value, _ what: String, timeout: Double = 5) {
            expectManagerProperty(property, value, via: own, of: child, what, timeout: timeout)
        }
        expect("HasAccelerometer", .bool(true), "the proxy on its bus")

        // The proxy's bus goes away; in its place a listener accepts the connection made again and
        // never answers, which left libdbus' blocking Hello waiting 25 s.
        let directory = stopProxyBus()
        expect("HasAccelerometer", .bool(false), "the bus is gone")
        mkdir(directory, 0o700)
        writeText(scratch + "/silentbus.py", silentBusScript)
        let silent = try world.start(["/usr/bin/python3", scratch + "/silentbus.py", socketPath], name: "silentbus", pipes: true)
        defer { silent.stop() }
        XCTAssertEqual(try silent.readLine(), "listening")
        XCTAssertEqual(try silent.readLine(timeout: 10), "accepted", "the source did not try the bus again; log:\n\(child.log)")
        for _ in 0..<3 {
            let start = now()
            let answer = read("HasAccelerometer", timeoutMs: 5000)
            let took = now() - start
            XCTAssertEqual(answer, .bool(false), "no answer while connecting to the silent bus; log:\n\(child.log)")
            XCTAssertLessThan(took, 2, "the answer waited for the silent bus")
            usleep(300_000)
        }

        // The silent bus closes; the attempt fails, and a real bus is taken when it comes back.
        silent.stop()
        XCTAssertEqual(directory, bus.directory)
        try world.restartBus()
        try startDriver()
        try pose(-256, 0, 0)
        expect("HasAccelerometer", .bool(true), "connected again to the new bus", timeout: 15)
        XCTAssertTrue(child.log.contains("sensor-proxy: cannot connect yet"), child.log)
        XCTAssertTrue(child.isRunning, "orientationd died; log:\n\(child.log)")
        XCTAssertEqual(child.stop(), 0, "orientationd did not exit 0 on SIGTERM; log:\n\(child.log)")
        daemon = nil
    }

    /// The proxy on the "system" bus, `orientationd --sensor sensor-proxy` serving on `ownBus`, and a
    /// client connection on `ownBus`.
    func startProxyDaemon(on ownBus: PrivateBus) throws -> (Child, Connection) {
        // The system bus' address names no server GUID (a restarted bus has a new one), so neither may this one.
        try startDriver()
        let child = try world.startDaemon(sensor: "sensor-proxy", stateDirectory: scratch + "/state", address: ownBus.address,
                                          environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(bus.directory)/bus"],
                                          waitFor: nil, checked: false)
        daemon = child
        return (child, try Connection(bus: .address(ownBus.address)))
    }

    /// Stops the proxy and its bus; returns the bus's directory, where a bus can come again.
    func stopProxyBus() -> String {
        stopProxy()
        _ = try? driver?.command("quit")
        driver?.stop(0)
        driver = nil
        world.stopBus()
        return bus.directory
    }

    /// A manager property read through `own`; nil when the daemon does not answer in `timeoutMs`.
    func managerProperty(_ property: String, via own: Connection, timeoutMs: Int32 = 2000) -> Value? {
        let reply = try? own.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath,
                                          interface: StandardInterface.properties, method: "Get",
                                          values: [.string(Orientation1.managerInterface), .string(property)], timeoutMs: timeoutMs)
        return reply?.first.map { $0.variantValue ?? $0 }
    }

    /// Waits up to `timeout` s for a manager property to read `value`.
    func expectManagerProperty(_ property: String, _ value: Value, via own: Connection, of child: Child, _ what: String,
                               timeout: Double) {
        let ok = waitUntil(timeout) {
            if managerProperty(property, via: own) == value { return true }
            usleep(20_000)
            return false
        }
        XCTAssertTrue(ok, "\(what): \(property) is \(managerProperty(property, via: own).map { "\($0)" } ?? "?"); log:\n\(child.log)")
    }

    /// The fake newer proxy (FakeProxyScript.swift) on the private bus, answering `ok` once it owns the name.
    func startFakeProxy() throws -> Child {
        let script = scratch + "/fakeproxy.py"
        writeText(script, fakeProxyScript)
        let fake = try world.start(["/usr/bin/python3", script, bus.address], name: "fakeproxy", pipes: true)
        XCTAssertEqual(try fake.readLine(), "ok")
        return fake
    }

    /// A newer proxy's `AccelerometerTilt`: face-up / face-down win over the edge; the other tilt
    /// values leave the edge alone. (iio-sensor-proxy 3.0 has no tilt, so a fake proxy serves it.)
    func testTiltFromAFakeNewerProxy() throws {
        let fake = try startFakeProxy()
        defer { fake.stop() }
        try startDaemon()
        expectHasAccelerometer(true, "the fake proxy has an accelerometer")
        XCTAssertEqual(try fake.command("claims"), "claims 0")

        let app = try Connection(bus: .address(bus.address))
        defer { app.close() }
        try claim(app)
        expectDevice(1, "normal, vertical")
        XCTAssertEqual(try fake.command("claims"), "claims 1")
        for (orientation, tilt, expected) in [("right-up", "tilted-up", 3), ("right-up", "face-up", 5), ("normal", "face-down", 6),
                                              ("left-up", "tilted-down", 4), ("bottom-up", "vertical", 2), ("undefined", "vertical", 0)]
        {
            XCTAssertEqual(try fake.command("set \(orientation) \(tilt)"), "ok")
            expectDevice(UInt32(expected), timeout: 2, "\(orientation), \(tilt)")
        }
        try unclaim(app)
        waitUntil(0.5) { false }
        XCTAssertEqual(try fake.command("claims"), "claims 0", "released")
    }
}
