// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import DBus
import EventLoop

/// A throwaway `dbus-daemon` for tests: its own config and socket in a temporary
/// directory, so the machine's buses are never touched. `stop()` kills it.
public final class PrivateBus {
    public let address: String
    private let process: ChildProcess
    /// Where its config and socket live; another bus started in it later has the same address.
    public let directory: String
    private var stopped = false

    /// A permissive session-like bus, or, with `systemPolicyFiles`, a bus configured as the system
    /// bus is: deny by default, then the given policy files included, so a test can check what a
    /// shipped policy lets each user do. Its socket is reachable by every user. Either way it has the
    /// system bus's limits (messages up to 32 MiB, 128 replies pending per connection, 256
    /// connections per user), which is what the daemon faces in production. The bus activates the
    /// services described in `serviceDirectories` itself, as any bus not run by systemd does.
    /// `directory`: that of a bus stopped before, to restart the bus at the same address.
    public init(systemPolicyFiles: [String]? = nil, serviceDirectories: [String] = [], directory reused: String? = nil) throws {
        if let reused {
            guard mkdir(reused, 0o700) == 0 || errno == EEXIST else { throw DBusError.failed("cannot create \(reused)") }
            directory = reused
        } else {
            var template = Array("/tmp/dbus-test-XXXXXX".utf8CString)
            guard let dir = mkdtemp(&template) else { throw DBusError.failed("mkdtemp failed") }
            directory = String(cString: dir)
        }
        // Reachable by every user, so a test can connect as another uid.
        chmod(directory, 0o755)
        let services = serviceDirectories.map { "  <servicedir>\($0)</servicedir>\n" }.joined()
        let config: String
        if let files = systemPolicyFiles {
            config = """
                <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
                 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
                <busconfig>
                  <type>system</type>
                  <listen>unix:path=\(directory)/bus</listen>
                  <auth>EXTERNAL</auth>
                  <policy context="default">
                    <allow user="*"/>
                    <deny own="*"/>
                    <deny send_type="method_call"/>
                    <allow send_type="signal"/>
                    <allow send_requested_reply="true" send_type="method_return"/>
                    <allow send_requested_reply="true" send_type="error"/>
                    <allow receive_type="method_call"/>
                    <allow receive_type="method_return"/>
                    <allow receive_type="error"/>
                    <allow receive_type="signal"/>
                    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
                    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
                  </policy>
                \(files.map { "  <include>\($0)</include>\n" }.joined())\(services)
                  <limit name="max_message_size">33554432</limit>
                  <limit name="max_replies_per_connection">128</limit>
                  <limit name="max_connections_per_user">256</limit>
                </busconfig>
                """
        } else {
            config = PrivateBus.permissiveConfig(socket: "\(directory)/bus", extra: services)
        }
        try writeFile("\(directory)/bus.conf", config)
        // dbus-daemon warns about descriptor limits it may not raise: its stderr is dropped.
        process = try ChildProcess(["dbus-daemon", "--config-file=\(directory)/bus.conf", "--nofork", "--print-address=1"],
                                   output: .pipe(stderr: "/dev/null"))
        // It prints its address once it listens.
        guard let line = try? process.readLine(timeout: 10), !line.isEmpty else {
            process.stop(SIGKILL)
            throw DBusError.failed("dbus-daemon printed no address (a policy it refused?)")
        }
        address = line
    }

    /// The permissive configuration every test and benchmark bus shares (`Harness/private-bus.conf`),
    /// listening at `socket`, with `extra` elements.
    public static func permissiveConfig(socket: String, extra: String = "") -> String {
        readText(packageRoot + "/Harness/private-bus.conf")
            .split(separator: "@SOCKET@", omittingEmptySubsequences: false).joined(separator: socket)
            .split(separator: "@EXTRA@", omittingEmptySubsequences: false).joined(separator: extra)
    }

    /// Kills the daemon and removes its directory.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        process.stop(SIGTERM)
        unlink("\(directory)/bus.conf")
        unlink("\(directory)/bus")
        rmdir(directory)
    }

    deinit { stop() }
}

/// What an external tool printed and how it exited.
public struct ToolResult {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs a command (looked up in PATH) to its end while iterating the GLib default main context,
/// so objects exported in this process can answer it; no threads. Its stdout and stderr are caught in
/// files (no pipe to fill), returned, and removed; after `timeoutMs` it is killed and its status is -1.
public func runTool(_ argv: [String], timeoutMs: Int = 10_000) -> ToolResult {
    var template = Array("/tmp/orientationd-tool-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { return ToolResult(status: -1, stdout: "", stderr: "mkdtemp failed") }
    let directory = String(cString: made)
    defer {
        unlink(directory + "/stdout")
        unlink(directory + "/stderr")
        rmdir(directory)
    }
    let child: ChildProcess
    do {
        child = try ChildProcess(argv, output: .files(stdout: directory + "/stdout", stderr: directory + "/stderr"))
    } catch {
        return ToolResult(status: -1, stdout: "", stderr: "cannot spawn \(argv[0])")
    }
    let status = child.wait(timeout: Double(timeoutMs) / 1000) ?? -1
    if status == -1 { child.stop(SIGKILL, timeout: 2) }
    return ToolResult(status: status < 0 ? -1 : status, stdout: child.log, stderr: child.errors)
}

/// Whether an executable is in PATH.
public func toolExists(_ name: String) -> Bool {
    let path = String(cString: getenv("PATH") ?? strdup("/usr/bin:/bin"))
    return path.split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
}

private func writeFile(_ path: String, _ text: String) throws {
    guard let f = fopen(path, "w") else { throw DBusError.failed("cannot write \(path)") }
    fputs(text, f)
    fclose(f)
}
