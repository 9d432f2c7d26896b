// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// A bus set up from the installed files alone starts the installed daemon when a client calls it:
/// no test starts the daemon. The bus is a private dbus-daemon configured as the system bus is
/// (deny by default, then the installed system.d policy) with the installed system-services
/// directory; like every bus not run by systemd it ignores SystemdService= and runs Exec=.
final class BusActivationTests: XCTestCase {
    func testACallActivatesTheInstalledDaemonWithTheInstalledConfig() throws {
        guard getuid() == 0 else { throw unavailable("the installed bus policy lets only root own the name") }
        let install = try Installation()
        defer { install.remove() }
        let prefix = install.prefix
        // The administrator's way to choose a source: the installed config file. The simulated
        // sensor has an accelerometer where this machine may have none, which shows the file was read.
        let config = "\(prefix)/etc/orientationd/orientationd.conf"
        let edited = readText(config).replacingOccurrences(of: "\n#Source=auto\n", with: "\nSource=simulated\n")
        XCTAssertTrue(edited.contains("\nSource=simulated\n"), "the installed file shows the Source key commented out")
        writeText(config, edited)

        let policies = ["org.orientationd.Orientation1.conf"]
            .map { "\(prefix)/share/dbus-1/system.d/\($0)" }
        let bus = try PrivateBus(systemPolicyFiles: policies, serviceDirectories: ["\(prefix)/share/dbus-1/system-services"])
        defer { bus.stop() }
        let client = try Connection(bus: .address(bus.address))
        defer { client.close() }

        func ownerPID() throws -> UInt32? {
            try client.callBlocking(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                    interface: "org.freedesktop.DBus", method: "GetConnectionUnixProcessID",
                                    values: [.string(Orientation1.busName)]).first?.uint32Value
        }
        XCTAssertThrowsError(try ownerPID(), "nothing owns the name before the call")

        let reply = try client.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath,
                                            interface: "org.freedesktop.DBus.Properties", method: "Get",
                                            values: [.string(Orientation1.managerInterface), .string("HasAccelerometer")],
                                            timeoutMs: 10_000)
        XCTAssertEqual(reply.first?.variantValue?.boolValue, true, "the simulated sensor of the installed config")

        let pid = try XCTUnwrap(try ownerPID())
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"),
                       "\(prefix)/libexec/orientationd", "the bus ran the installed daemon")
        let commandLine = readText("/proc/\(pid)/cmdline").split(separator: "\0").map(String.init)
        XCTAssertEqual(commandLine, ["\(prefix)/libexec/orientationd", "--system", "--config", config,
                                     "--state-dir", "\(prefix)/var/lib/orientationd"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(prefix)/var/lib/orientationd"), "its state directory is the install's")

        // The daemon leaves with its bus.
        bus.stop()
        XCTAssertTrue(waitUntil(5) { kill(pid_t(pid), 0) != 0 || readText("/proc/\(pid)/stat").contains(") Z ") },
                      "orientationd \(pid) still runs after its bus stopped")
    }

    /// With the switch from iio-sensor-proxy installed (`make install-sensor-proxy`, the orientationd-sensor-proxy
    /// package's files), a desktop's claim on net.hadess.SensorProxy starts orientationd, which serves it
    /// because the switch's drop-in says so: no config file was edited.
    func testAClaimOnSensorProxyActivatesOrientationdThroughTheSwitch() throws {
        guard getuid() == 0 else { throw unavailable("the installed bus policy lets only root own the name") }
        let install = try Installation()
        defer { install.remove() }
        let switched = install.make("install-sensor-proxy")
        XCTAssertEqual(switched.status, 0, switched.stderr)
        let prefix = install.prefix
        let config = "\(prefix)/etc/orientationd/orientationd.conf"
        writeText(config, readText(config).replacingOccurrences(of: "\n#Source=auto\n", with: "\nSource=simulated\n"))
        XCTAssertFalse(readText(config).contains("\nSensorProxy=true"), "the main file leaves the interface off")
        let policies = ["org.orientationd.Orientation1.conf", "net.hadess.SensorProxy.conf"].map { "\(prefix)/share/dbus-1/system.d/\($0)" }
        let bus = try PrivateBus(systemPolicyFiles: policies, serviceDirectories: ["\(prefix)/share/dbus-1/system-services"])
        defer { bus.stop() }
        let client = try Connection(bus: .address(bus.address))
        defer { client.close() }
        _ = try client.callBlocking(destination: SensorProxy.busName, path: SensorProxy.path, interface: SensorProxy.interface,
                                    method: "ClaimAccelerometer", timeoutMs: 10_000)
        let has = try client.callBlocking(destination: SensorProxy.busName, path: SensorProxy.path, interface: "org.freedesktop.DBus.Properties",
                                          method: "Get", values: [.string(SensorProxy.interface), .string("HasAccelerometer")])
        XCTAssertEqual(has.first?.variantValue?.boolValue, true)
        let pid = try XCTUnwrap(try client.callBlocking(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                        interface: "org.freedesktop.DBus", method: "GetConnectionUnixProcessID",
                                                        values: [.string(SensorProxy.busName)]).first?.uint32Value)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"), "\(prefix)/libexec/orientationd")
        bus.stop()
        XCTAssertTrue(waitUntil(5) { kill(pid_t(pid), 0) != 0 || readText("/proc/\(pid)/stat").contains(") Z ") })
    }
}
