// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import DBus
import OrientationAPI
import TestSupport

let orientationctl = programsDirectory() + "/orientationctl"
let orientationd = programsDirectory() + "/orientationd"

/// orientationd (simulated sensor) serving the private bus of a `World`, its stdout and stderr in
/// files of the world's scratch directory.
final class DaemonFixture {
    let world: World
    var bus: PrivateBus { world.bus }
    var directory: String { world.scratch }
    var connection: Connection { world.probe }
    private(set) var daemon: Background
    private var starts = 0
    /// The config file the daemon reads, when one was given.
    private let configPath: String?

    /// With `systemBus`, the bus is configured as the system bus is, with the shipped policy for
    /// org.orientationd.Orientation1 and a socket every user reaches; the daemon must then run as root.
    /// With `config`, the daemon reads that text as its config file.
    init(systemBus: Bool = false, config: String? = nil) throws {
        let world = try World(systemPolicyFiles: systemBus ? [packageRoot + "/dbus/org.orientationd.Orientation1.conf"] : nil)
        self.world = world
        mkdir(world.scratch + "/state", 0o755)
        let path = world.scratch + "/orientationd.conf"
        if let config { writeText(path, config) }
        configPath = config == nil ? nil : path
        do {
            daemon = try Self.startDaemon(in: world, config: configPath, name: "orientationd")
        } catch {
            _ = world.tearDown()
            throw error
        }
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
        daemon = try Self.startDaemon(in: world, config: configPath, name: "orientationd-\(starts)")
    }

    private static func startDaemon(in world: World, config: String?, name: String) throws -> Background {
        try world.startDaemon(config.map { ["--config", $0] } ?? [], name: name, stateDirectory: world.scratch + "/state",
                              output: .files(stdout: "\(world.scratch)/\(name).out", stderr: "\(world.scratch)/\(name).err"),
                              timeout: 10, checked: false)
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

    /// Stops the daemon with SIGTERM and returns its exit code (nil when it did not stop), then the
    /// rest of the world.
    func stop() -> Int32? {
        daemon.signal(SIGTERM)
        let code = daemon.waitForExit(timeout: 5)
        _ = world.tearDown()
        return code
    }
}
