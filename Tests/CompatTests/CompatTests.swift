// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// `--sensor-proxy-compat`: orientationd as `net.hadess.SensorProxy` (Docs/shells.md),
/// checked with the real `monitor-sensor` and with a Python GIO client written like mutter's
/// orientation manager, both talking to the private bus as their system bus.
final class CompatTests: CompatTestCase {

    /// A GNOME-style client (Fixtures/gnome-client.py): watches the name, makes a proxy, claims,
    /// reads `AccelerometerOrientation` and follows `PropertiesChanged` (as mutter's
    /// meta-orientation-manager.c does); `release` and `quit` on stdin.
    static let gnomeClient = fixtureText("CompatTests/Fixtures/gnome-client.py")

    /// The lines of `text` that start with `prefix`, with the prefix cut off.
    func lines(_ text: String, after prefix: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : nil
        }
    }

    // MARK: monitor-sensor

    /// The real `monitor-sensor` sees the interface orientation as the pose producing it, one
    /// "changed" line per rotation and none when the interface does not rotate; its claim is what
    /// makes device orientations flow, and it ends when monitor-sensor goes.
    func testMonitorSensorFollowsTheInterfaceOrientation() throws {
        if !toolExists("monitor-sensor") { throw unavailable("monitor-sensor (package iio-sensor-proxy) is not installed") }
        let config = scratch + "/tablet.conf"
        writeText(config, "[Application]\nIdiom=tablet\n")
        let daemon = try startDaemon(["--config", config, "--sensor-proxy-compat"], waitFor: SensorProxy.busName)
        XCTAssertEqual(try deviceOrientation(), 0, "nobody claims yet")

        let monitor = try startOnSystemBus(["monitor-sensor"], name: "monitor-sensor")
        XCTAssertTrue(waitUntil { monitor.log.contains("=== No proximity sensor") }, monitor.log)
        let start = monitor.log
        XCTAssertTrue(start.contains("+++ iio-sensor-proxy appeared"), start)
        XCTAssertTrue(start.contains("=== Has accelerometer (orientation: normal)"), start)
        XCTAssertTrue(start.contains("=== No ambient light sensor"), start)

        let changed = "    Accelerometer orientation changed: "
        // Device pose → interface orientation → the string a shell reads (sensors.md's axis table).
        let steps: [(device: UInt32, expected: String)] = [
            (3, "right-up"),   // landscape-left, right edge up → interface landscape-right (3)
            (4, "left-up"),    // landscape-right, left edge up → interface landscape-left (4)
            (2, "bottom-up"),  // portrait upside down (a tablet allows it)
            (1, "normal"),
        ]
        var seen: [String] = []
        for step in steps {
            try setDevice(step.device)
            seen.append(step.expected)
            XCTAssertTrue(waitUntil { lines(monitor.log, after: changed) == seen },
                          "after SetDeviceOrientation(\(step.device)): \(monitor.log)")
            XCTAssertEqual(try deviceOrientation(), step.device, "monitor-sensor's claim makes the device orientation flow")
            XCTAssertEqual(try proxyOrientation(), step.expected)
        }

        // Face up: the device changes, the interface does not, and neither does what the shell sees.
        try setDevice(5)
        pause(0.3)
        XCTAssertEqual(lines(monitor.log, after: changed), seen, monitor.log)
        XCTAssertEqual(try get("AccelerometerTilt", destination: SensorProxy.busName, SensorProxy.path, SensorProxy.interface).stringValue, "face-up")

        // monitor-sensor never releases: its claim ends when it leaves the bus.
        XCTAssertEqual(monitor.stop(SIGINT), -SIGINT)
        XCTAssertTrue(waitUntil { (try? deviceOrientation()) == 0 }, "DeviceOrientation must read 0 once the claimant left")
        XCTAssertEqual(try proxyOrientation(), "normal", "the interface orientation stays defined without claims")
        XCTAssertTrue(daemon.isRunning)
        XCTAssertEqual(daemon.stop(SIGTERM), 0, daemon.log)
    }

    // MARK: A GNOME-style client

    /// A mutter-like client rotates the screen to what the policy decided: a landscape-only root
    /// controller keeps it in landscape while the device is upright, the lock holds it, and
    /// releasing ends the claim.
    func testGnomeStyleClientObeysControllersAndLock() throws {
        if access("/usr/bin/python3", X_OK) != 0 { throw unavailable("/usr/bin/python3 is missing") }
        let check = pythonImports(["gi.repository.Gio", "gi.repository.GLib"])
        if check.status != 0 { throw unavailable("/usr/bin/python3 has no gi: \(check.stderr)") }
        let daemon = try startDaemon(["--sensor-proxy-compat"], waitFor: SensorProxy.busName)
        let script = scratch + "/gnome-client.py"
        writeText(script, Self.gnomeClient)
        let shell = try startOnSystemBus(["/usr/bin/python3", script], name: "gnome-client", stdinPipe: true)
        XCTAssertTrue(waitUntil { shell.log.contains("claimed has=True orientation normal") }, shell.log)

        func seen() -> [String] { lines(shell.log, after: "orientation ") }
        try setDevice(3)
        XCTAssertTrue(waitUntil { seen() == ["right-up"] }, shell.log)
        try setDevice(1)
        XCTAssertTrue(waitUntil { seen() == ["right-up", "normal"] }, shell.log)

        // An app whose root controller supports landscape only.
        let app = try newClient()
        let window = try call(app, Orientation1.managerPath, Orientation1.managerInterface, "RegisterWindow").first?.objectPathValue ?? "/"
        let controller = try call(app, Orientation1.managerPath, Orientation1.managerInterface, "CreateController", [.string("view")]).first?.objectPathValue ?? "/"
        try set("SupportedMask", .uint32(24), controller, Orientation1.controllerInterface, on: app)
        try set("RootController", .objectPath(controller), window, Orientation1.windowInterface, on: app)
        try call(app, window, Orientation1.windowInterface, "MakeKeyAndVisible")
        XCTAssertTrue(waitUntil { seen().count == 3 }, shell.log)
        let landscape = seen().last ?? ""
        XCTAssertTrue(["right-up", "left-up"].contains(landscape), "a landscape-only app turns the screen: \(shell.log)")
        XCTAssertEqual(try interfaceOrientation(), landscape == "right-up" ? 3 : 4)

        // The device upright (again): the screen stays in landscape.
        try setDevice(2)
        try setDevice(1)
        pause(0.3)
        XCTAssertEqual(seen().count, 3, "the device upright must not turn a landscape-only app: \(shell.log)")
        XCTAssertEqual(try proxyOrientation(), landscape)

        // The device in landscape-right (left edge up): interface landscape-left.
        try setDevice(4)
        XCTAssertTrue(waitUntil { seen().last == "left-up" }, shell.log)
        let before = seen()

        // The lock holds it.
        try set("RotationLocked", .bool(true))
        try setDevice(3)
        pause(0.3)
        XCTAssertEqual(seen(), before, "the lock must hold the screen: \(shell.log)")
        XCTAssertEqual(try proxyOrientation(), "left-up")

        // Releasing ends the claim: nobody else claims, so DeviceOrientation reads 0.
        XCTAssertNotEqual(try deviceOrientation(), 0)
        shell.send("release")
        XCTAssertTrue(waitUntil { shell.log.contains("released") }, shell.log)
        XCTAssertTrue(waitUntil { (try? deviceOrientation()) == 0 })
        // A second release, without a claim, is accepted as iio-sensor-proxy accepts it.
        shell.send("release")
        XCTAssertTrue(waitUntil { lines(shell.log, after: "released").count == 2 }, shell.log)
        XCTAssertEqual(try proxyOrientation(), "left-up", "the shell still reads the interface orientation")

        shell.send("quit")
        XCTAssertEqual(shell.wait(timeout: 5), 0, shell.log)
        XCTAssertFalse(shell.log.contains("Traceback"), shell.log)
        XCTAssertEqual(daemon.stop(SIGTERM), 0, daemon.log)
    }

    // MARK: The interface itself

    /// Members and types as iio-sensor-proxy 3.x declares them (its net.hadess.SensorProxy.xml and
    /// gtk-doc), the values a build without light and proximity sensors reads, claims counted once
    /// per client, and `[Compat] SensorProxy=true` as the config file's way of turning it on.
    func testInterfaceMatchesIioSensorProxy() throws {
        let config = scratch + "/compat.conf"
        writeText(config, "[Compat]\nSensorProxy=true\n")
        let daemon = try startDaemon(["--config", config], waitFor: SensorProxy.busName)
        XCTAssertEqual(owner(SensorProxy.busName), owner(Orientation1.busName), "one connection owns both names")

        let xml = try call(destination: SensorProxy.busName, SensorProxy.path, "org.freedesktop.DBus.Introspectable", "Introspect")
            .first?.stringValue ?? ""
        XCTAssertTrue(xml.contains("<interface name=\"net.hadess.SensorProxy\">"), xml)
        for (name, type) in [("HasAccelerometer", "b"), ("AccelerometerOrientation", "s"), ("HasAmbientLight", "b"),
                             ("LightLevelUnit", "s"), ("LightLevel", "d"), ("HasProximity", "b"), ("ProximityNear", "b")] {
            XCTAssertTrue(xml.contains("<property name=\"\(name)\" type=\"\(type)\" access=\"read\""), "\(name): \(xml)")
        }
        for method in ["ClaimAccelerometer", "ReleaseAccelerometer", "ClaimLight", "ReleaseLight",
                       "ClaimProximity", "ReleaseProximity"] {
            XCTAssertTrue(xml.contains("<method name=\"\(method)\""), "\(method): \(xml)")
        }

        let all = try call(destination: SensorProxy.busName, SensorProxy.path, StandardInterface.properties, "GetAll", [.string(SensorProxy.interface)])
        let values = all.first?.stringKeyedDictionary ?? [:]
        XCTAssertEqual(values["HasAccelerometer"], .bool(true))
        XCTAssertEqual(values["AccelerometerOrientation"], .string("normal"), "defined from the start, before any claim")
        XCTAssertEqual(values["AccelerometerTilt"], .string("undefined"), "the device reads unknown while nobody claims")
        XCTAssertEqual(values["HasAmbientLight"], .bool(false))
        XCTAssertEqual(values["LightLevelUnit"], .string("lux"))
        XCTAssertEqual(values["LightLevel"], .double(0))
        XCTAssertEqual(values["HasProximity"], .bool(false))
        XCTAssertEqual(values["ProximityNear"], .bool(false))

        // Light and proximity: claims succeed and change nothing.
        let client = try newClient()
        for method in ["ClaimLight", "ReleaseLight", "ClaimProximity", "ReleaseProximity", "ReleaseAccelerometer"] {
            XCTAssertNoThrow(try call(client, destination: SensorProxy.busName, SensorProxy.path, SensorProxy.interface, method), method)
        }
        XCTAssertEqual(try deviceOrientation(), 0)

        // Claims count once per client, as iio-sensor-proxy's do; and add to the manager's.
        try call(client, destination: SensorProxy.busName, SensorProxy.path, SensorProxy.interface, "ClaimAccelerometer")
        try call(client, destination: SensorProxy.busName, SensorProxy.path, SensorProxy.interface, "ClaimAccelerometer")
        try setDevice(3)
        XCTAssertEqual(try deviceOrientation(), 3)
        XCTAssertEqual(try get("AccelerometerTilt", destination: SensorProxy.busName, SensorProxy.path, SensorProxy.interface), .string("vertical"))
        try call(client, Orientation1.managerPath, Orientation1.managerInterface, "BeginGeneratingDeviceOrientationNotifications")
        try call(client, destination: SensorProxy.busName, SensorProxy.path, SensorProxy.interface, "ReleaseAccelerometer")
        XCTAssertEqual(try deviceOrientation(), 3, "the manager claim still holds")
        try call(client, Orientation1.managerPath, Orientation1.managerInterface, "EndGeneratingDeviceOrientationNotifications")
        XCTAssertEqual(try deviceOrientation(), 0, "one ReleaseAccelerometer ends any number of ClaimAccelerometer")

        // A claim held by a client that leaves ends with it.
        let leaver = try Connection(bus: .address(bus.address))
        try call(leaver, destination: SensorProxy.busName, SensorProxy.path, SensorProxy.interface, "ClaimAccelerometer")
        try setDevice(4)
        XCTAssertEqual(try deviceOrientation(), 4)
        leaver.close()
        XCTAssertTrue(waitUntil { (try? deviceOrientation()) == 0 })

        XCTAssertEqual(daemon.stop(SIGTERM), 0, daemon.log)
    }

    /// PropertiesChanged from /net/hadess/SensorProxy carries each change of AccelerometerOrientation
    /// once, with the new value, after the manager's WillChange.
    func testPropertiesChangedOnEveryChange() throws {
        let daemon = try startDaemon(["--sensor-proxy-compat"], waitFor: SensorProxy.busName)
        let listener = try newClient()
        var events: [String] = []
        try listener.addMatch("type='signal',sender='\(SensorProxy.busName)'")
        try listener.addMatch("type='signal',sender='\(Orientation1.busName)',member='WillChange'")
        listener.onSignal { message in
            if message.member == "WillChange" { events.append("WillChange"); return }
            guard message.path == SensorProxy.path, let change = PropertiesChanged(message),
                  change.interface == SensorProxy.interface else { return }
            for (name, value) in change.changed { events.append("\(name)=\(value.stringValue ?? "\(value)")") }
        }
        let client = try newClient()
        try call(client, destination: SensorProxy.busName, SensorProxy.path, SensorProxy.interface, "ClaimAccelerometer")
        try setDevice(3)
        XCTAssertTrue(waitUntil { events.contains("AccelerometerOrientation=right-up") }, "\(events)")
        try setDevice(1)
        XCTAssertTrue(waitUntil { events.contains("AccelerometerOrientation=normal") }, "\(events)")
        pause(0.1)
        let orientations = events.filter { $0 == "WillChange" || $0.hasPrefix("AccelerometerOrientation=") }
        XCTAssertEqual(orientations, ["WillChange", "AccelerometerOrientation=right-up",
                                      "WillChange", "AccelerometerOrientation=normal"])
        XCTAssertTrue(events.contains("AccelerometerTilt=vertical"), "\(events)")
        XCTAssertEqual(daemon.stop(SIGTERM), 0, daemon.log)
    }

    // MARK: Refusals

    /// Another process owns net.hadess.SensorProxy: the daemon says so, names it, and runs on
    /// without the compatibility interface (it never takes the name or exports the object).
    func testNameOwnedByAnotherProcessTurnsCompatOff() throws {
        let squatter = try newClient()
        XCTAssertTrue(try squatter.requestName(SensorProxy.busName, flags: .doNotQueue))
        let daemon = try startDaemon(["--sensor-proxy-compat"])
        XCTAssertTrue(waitUntil { daemon.log.contains("the compatibility interface is off") }, daemon.log)
        XCTAssertTrue(daemon.log.contains(
            "net.hadess.SensorProxy is owned by another process (\(squatter.uniqueName), pid \(getpid())"), daemon.log)
        XCTAssertTrue(daemon.isRunning, "the daemon keeps serving its own API")
        XCTAssertEqual(owner(SensorProxy.busName), squatter.uniqueName)
        XCTAssertEqual(try interfaceOrientation(), 1)
        let ours = owner(Orientation1.busName) ?? ""
        assertError("org.freedesktop.DBus.Error.UnknownObject") {
            _ = try self.get("AccelerometerOrientation", destination: ours, SensorProxy.path, SensorProxy.interface)
        }
        // The name freed later is not taken behind the upstream's back.
        _ = try squatter.releaseName(SensorProxy.busName)
        pause(0.2)
        XCTAssertFalse(hasOwner(SensorProxy.busName))
        XCTAssertEqual(daemon.stop(SIGTERM), 0, daemon.log)
    }

    /// A second orientationd with compat on the same bus exits 1 on the first name, and leaves
    /// the first one's net.hadess.SensorProxy alone.
    func testSecondDaemonIsRefused() throws {
        let first = try startDaemon(["--sensor-proxy-compat"], waitFor: SensorProxy.busName)
        let firstName = owner(Orientation1.busName)
        let second = try startDaemon(["--sensor-proxy-compat"], name: "second", waitFor: nil)
        XCTAssertEqual(second.wait(timeout: 5), 1, second.log)
        XCTAssertTrue(second.log.contains("org.orientationd.Orientation1 is already owned"), second.log)
        XCTAssertFalse(second.log.contains("serving net.hadess.SensorProxy"), second.log)
        XCTAssertEqual(owner(SensorProxy.busName), firstName)
        XCTAssertEqual(try proxyOrientation(), "normal")
        XCTAssertEqual(first.stop(SIGTERM), 0, first.log)
    }

    /// The sensor-proxy source reads net.hadess.SensorProxy from iio-sensor-proxy, so compat stays off.
    func testSensorProxySourceKeepsCompatOff() throws {
        // The source looks for iio-sensor-proxy on the "system" bus: the private one, where there is none.
        let daemon = try startDaemon(["--sensor", "sensor-proxy", "--sensor-proxy-compat"],
                                     environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        XCTAssertTrue(waitUntil { daemon.log.contains("the compatibility interface is off") }, daemon.log)
        XCTAssertTrue(daemon.log.contains("the sensor-proxy source reads net.hadess.SensorProxy"), daemon.log)
        XCTAssertFalse(hasOwner(SensorProxy.busName))
        XCTAssertEqual(daemon.stop(SIGTERM), 0, daemon.log)
    }
}
