// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// dbus/net.hadess.SensorProxy.conf loaded by a real dbus-daemon as a system bus
/// would (deny by default, then the package's files): the root daemon owns the name, any user's
/// monitor-sensor works against it, other interfaces are refused by the bus, and nobody else may
/// own the name.
final class BusPolicyTests: CompatTestCase {
    func testPolicyLetsRootOwnTheNameAndAnyUserMonitor() throws {
        let conf = packageRoot + "/dbus/net.hadess.SensorProxy.conf"
        XCTAssertEqual(access(conf, R_OK), 0, "missing \(conf)")
        let text = readText(conf)
        XCTAssertTrue(text.contains("<policy user=\"root\">\n    <allow own=\"net.hadess.SensorProxy\"/>"), text)

        chmod(scratch, 0o755)  // so that 'nobody' can reach what the daemon writes there
        let systemBus = try PrivateBus(systemPolicyFiles: [packageRoot + "/dbus/org.orientationd.Orientation1.conf", conf])
        defer { systemBus.stop() }
        let address = systemBus.address

        // The daemon as this (root) user: owns both names.
        let daemon = try world.startDaemon(["--sensor-proxy-compat"], stateDirectory: scratch + "/state", address: address,
                                           waitFor: nil, checked: false)
        let probe = try Connection(bus: .address(address))
        defer { probe.close() }
        func owned(_ name: String) -> Bool {
            (try? probe.callBusDriverBlocking("NameHasOwner", [.string(name)]).first?.boolValue) == true
        }
        XCTAssertTrue(waitUntil { !daemon.isRunning || owned(SensorProxy.busName) }, daemon.log)
        // The name is owned a moment before the daemon says so.
        XCTAssertTrue(waitUntil { daemon.log.contains("serving net.hadess.SensorProxy") }, daemon.log)

        let value = try probe.callBlocking(destination: SensorProxy.busName, path: SensorProxy.path, interface: StandardInterface.properties, method: "Get",
                                           values: [.string(SensorProxy.interface), .string("AccelerometerOrientation")], timeoutMs: 5000)
        XCTAssertEqual(value.first?.variantValue, .string("normal"), "the simulated sensor's pose is always defined")
        XCTAssertThrowsError(try probe.callBlocking(destination: SensorProxy.busName, path: SensorProxy.path, interface: "org.example.NotOurs",
                                                    method: "Anything", timeoutMs: 5000)) {
            XCTAssertEqual(($0 as? DBusError)?.name, "org.freedesktop.DBus.Error.AccessDenied", "the bus, not the daemon, refuses")
        }

        guard getuid() == 0, toolExists("setpriv") else { return }
        let asNobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        let own = runTool(asNobody + ["dbus-send", "--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus",
                                      "/org/freedesktop/DBus", "org.freedesktop.DBus.RequestName",
                                      "string:\(SensorProxy.busName)", "uint32:4"])
        XCTAssertNotEqual(own.status, 0)
        XCTAssertTrue(own.stderr.contains("AccessDenied"), own.stderr)
        // The compass is open to every user, as the peer's is since 3.6: no privilege is asked.
        let compass = runTool(asNobody + ["dbus-send", "--bus=\(address)", "--print-reply", "--dest=\(SensorProxy.busName)",
                                          SensorProxy.compassPath, "\(SensorProxy.compassInterface).ClaimCompass"])
        XCTAssertEqual(compass.status, 0, compass.stderr)

        guard toolExists("monitor-sensor") else { return }
        let monitor = try world.start(asNobody + ["monitor-sensor"], name: "monitor-sensor", environment: ["DBUS_SYSTEM_BUS_ADDRESS": address])
        XCTAssertTrue(waitUntil { monitor.log.contains("=== Has accelerometer (orientation: normal)") }, monitor.log)
        XCTAssertTrue(waitUntil { monitor.log.contains("=== No proximity sensor") }, monitor.log)
        _ = try probe.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: Orientation1.managerInterface,
                                   method: "SetDeviceOrientation", values: [.uint32(3)], timeoutMs: 5000)
        XCTAssertTrue(waitUntil { monitor.log.contains("    Accelerometer orientation changed: right-up") }, monitor.log)
        monitor.stop(SIGTERM)
        XCTAssertEqual(daemon.stop(SIGTERM), 0, daemon.log)
    }

    /// Every member the interface files offer, on every interface the daemon serves, the object
    /// manager's and the standard ones included, passes the shipped policy on a bus configured as a
    /// system bus, as root and as an ordinary user: what answers is the daemon (its own errors for
    /// arguments left out), never the bus's refusal.
    func testTheShippedPolicyLetsRootAndAnyUserCallEveryMember() throws {
        let policy = packageRoot + "/dbus/org.orientationd.Orientation1.conf"
        chmod(scratch, 0o755)
        let systemBus = try PrivateBus(systemPolicyFiles: [policy])
        defer { systemBus.stop() }
        let address = systemBus.address
        let daemon = try world.startDaemon(stateDirectory: scratch + "/state", address: address, waitFor: nil, checked: false)
        let probe = try Connection(bus: .address(address))
        defer { probe.close() }
        XCTAssertTrue(waitUntil {
            (try? probe.callBusDriverBlocking("NameHasOwner", [.string(Orientation1.busName)]).first?.boolValue) == true
        }, daemon.log)

        var members: [(interface: String, member: String)] = [
            ("org.freedesktop.DBus.ObjectManager", "GetManagedObjects"),
            ("org.freedesktop.DBus.Properties", "Get"), ("org.freedesktop.DBus.Properties", "GetAll"),
            ("org.freedesktop.DBus.Properties", "Set"),
            ("org.freedesktop.DBus.Introspectable", "Introspect"),
            ("org.freedesktop.DBus.Peer", "Ping"), ("org.freedesktop.DBus.Peer", "GetMachineId"),
        ]
        for file in ["org.orientationd.Orientation1.xml", "org.orientationd.Orientation1.Window.xml",
                     "org.orientationd.Orientation1.Controller.xml"] {
            let xml = readText(packageRoot + "/dbus/" + file)
            let interface = try XCTUnwrap(xml.firstMatch(of: /<interface name="([^"]+)"/)?.output.1, file)
            for match in xml.matches(of: /<method name="([^"]+)"/) { members.append((String(interface), String(match.output.1))) }
        }
        XCTAssertGreaterThan(members.count, 30, "the interface files list the members")
        var users: [(String, [String])] = [("root", [])]
        if getuid() == 0, toolExists("setpriv") {
            users.append(("nobody", ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]))
        } else if getenv("CI") != nil {
            XCTFail("calling as another user needs root and setpriv")
        }
        for (user, prefix) in users {
            for (interface, member) in members {
                let result = runTool(prefix + ["dbus-send", "--bus=\(address)", "--print-reply", "--reply-timeout=5000",
                                               "--dest=\(Orientation1.busName)", Orientation1.managerPath, "\(interface).\(member)"])
                XCTAssertFalse(result.stderr.contains("Rejected send message"), "\(user): \(interface).\(member): \(result.stderr)")
                XCTAssertFalse(result.stderr.contains("NoReply"), "\(user): \(interface).\(member): \(result.stderr)")
            }
        }
        // The object manager answers an ordinary user in full.
        if users.count > 1 {
            let managed = runTool(users[1].1 + ["dbus-send", "--bus=\(address)", "--print-reply", "--dest=\(Orientation1.busName)",
                                               Orientation1.managerPath, "org.freedesktop.DBus.ObjectManager.GetManagedObjects"])
            XCTAssertEqual(managed.status, 0, managed.stderr)
        }
    }
}
