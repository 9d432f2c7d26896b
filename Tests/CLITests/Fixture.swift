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

/// orientationd (simulated sensor) serving the private bus of a `World` the test owns (an
/// `EndToEndTestCase`'s), its stdout and stderr in files of the world's scratch directory, and the
/// tool run against it.
final class DaemonFixture {
    unowned let world: World
    var bus: PrivateBus { world.bus }
    var directory: String { world.scratch }
    var connection: Connection { world.probe }
    private(set) var daemon: Background
    private var starts = 0
    /// The config file the daemon reads, when one was given.
    private let configPath: String?

    /// With `config`, the daemon reads that text as its config file.
    init(in world: World, config: String? = nil) throws {
        self.world = world
        mkdir(world.scratch + "/state", 0o755)
        let path = world.scratch + "/orientationd.conf"
        if let config { writeText(path, config) }
        configPath = config == nil ? nil : path
        daemon = try Self.startDaemon(in: world, config: configPath, name: "orientationd")
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

    /// Stops the daemon with SIGTERM and returns its exit code (nil when it did not stop); the world
    /// is its owner's to end.
    func stop() -> Int32? {
        daemon.signal(SIGTERM)
        return daemon.waitForExit(timeout: 5)
    }
}
