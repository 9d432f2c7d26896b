@preconcurrency import Glibc
import Foundation
import DBus
import OrientationAPI
import TestSupport

let orientationctl = productsDirectory() + "/orientationctl"
let orientationd = productsDirectory() + "/orientationd"

/// A private bus with orientationd (simulated sensor) serving it.
final class DaemonFixture {
    let bus: PrivateBus
    let directory: String
    let daemon: Background
    let connection: Connection

    init() throws {
        bus = try PrivateBus()
        directory = makeTempDirectory("orientationctl-test")
        mkdir(directory + "/state", 0o755)
        daemon = try Background([orientationd, "--address", bus.address, "--sensor", "simulated",
                                 "--state-dir", directory + "/state"], in: directory, name: "orientationd")
        connection = try Connection(bus: .address(bus.address))
        let up = waitUntil(10) { [connection, daemon] in
            guard daemon.isRunning else { return true }
            let reply = try? connection.callBusDriverBlocking("NameHasOwner", [.string(Orientation1.busName)])
            return reply?.first?.boolValue == true
        }
        guard up, daemon.isRunning else {
            daemon.kill9()
            throw DBusError.failed("orientationd did not come up: \(daemon.stderr)")
        }
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
