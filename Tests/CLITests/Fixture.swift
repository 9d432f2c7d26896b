@preconcurrency import Glibc
import Foundation
import DBus
import OrientationAPI
import TestSupport

let orientationctl = programsDirectory() + "/orientationctl"
let orientationd = programsDirectory() + "/orientationd"

/// A private bus with orientationd (simulated sensor) serving it.
final class DaemonFixture {
    let bus: PrivateBus
    let directory: String
    private(set) var daemon: Background
    let connection: Connection
    private var starts = 0
    /// The config file the daemon reads, when one was given.
    private let configPath: String?

    /// With `systemBus`, the bus is configured as the system bus is, with the shipped policy for
    /// org.orientationd.Orientation1 and a socket every user reaches; the daemon must then run as root.
    /// With `config`, the daemon reads that text as its config file.
    init(systemBus: Bool = false, config: String? = nil) throws {
        bus = systemBus ? try PrivateBus(systemPolicyFiles: [packageRoot + "/dbus/org.orientationd.Orientation1.conf"])
                        : try PrivateBus()
        directory = makeTempDirectory("orientationctl-test")
        mkdir(directory + "/state", 0o755)
        let path = directory + "/orientationd.conf"
        if let config { writeText(path, config) }
        configPath = config == nil ? nil : path
        connection = try Connection(bus: .address(bus.address))
        daemon = try Self.startDaemon(bus: bus, directory: directory, connection: connection, config: configPath, name: "orientationd")
    }

    /// Stops the daemon and starts another on the same bus and state directory, as a restart would.
    func restartDaemon() throws {
        stopDaemon()
        try startDaemonAgain()
    }

    /// Stops the daemon with SIGTERM; `startDaemonAgain()` brings one back.
    func stopDaemon() {
        daemon.signal(SIGTERM)
        _ = daemon.waitForExit(timeout: 5)
    }

    /// Starts a daemon on the same bus and state directory.
    func startDaemonAgain() throws {
        starts += 1
        daemon = try Self.startDaemon(bus: bus, directory: directory, connection: connection, config: configPath,
                                      name: "orientationd-\(starts)")
    }

    private static func startDaemon(bus: PrivateBus, directory: String, connection: Connection, config: String?,
                                    name: String) throws -> Background {
        let daemon = try Background([orientationd, "--address", bus.address, "--sensor", "simulated",
                                     "--state-dir", directory + "/state"] + (config.map { ["--config", $0] } ?? []),
                                    in: directory, name: name)
        let up = waitUntil(10) {
            guard daemon.isRunning else { return true }
            let reply = try? connection.callBusDriverBlocking("NameHasOwner", [.string(Orientation1.busName)])
            return reply?.first?.boolValue == true
        }
        guard up, daemon.isRunning else {
            daemon.kill9()
            throw DBusError.failed("orientationd did not come up: \(daemon.stderr)")
        }
        return daemon
    }

    /// Runs orientationctl on this bus with `arguments` after the bus option.
    func ctl(_ arguments: String...) -> ToolResult { ctl(arguments) }

    func ctl(_ arguments: [String]) -> ToolResult {
        runTool([orientationctl, "--address", bus.address] + arguments)
    }

    /// Starts orientationctl in the background on this bus.
    func background(_ name: String, _ arguments: [String]) throws -> Background {
        try Background([orientationctl, "--address", bus.address] + arguments, in: directory, name: name)
    }

    /// Stops the daemon with SIGTERM and returns its exit code (nil when it did not stop).
    func stop() -> Int32? {
        daemon.signal(SIGTERM)
        let code = daemon.waitForExit(timeout: 5)
        connection.close()
        bus.stop()
        try? FileManager.default.removeItem(atPath: directory)
        return code
    }
}
