@preconcurrency import Glibc
import DBus
import EventLoop

/// A throwaway `dbus-daemon` for tests: its own config and socket in a temporary
/// directory, so the machine's buses are never touched. `stop()` kills it.
public final class PrivateBus {
    public let address: String
    private let pid: pid_t
    /// Where its config and socket live; another bus started in it later has the same address.
    public let directory: String
    private var outputFD: Int32

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
        let policy: String
        if let files = systemPolicyFiles {
            policy = """
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
                """ + files.map { "  <include>\($0)</include>\n" }.joined()
        } else {
            policy = """
                  <type>session</type>
                  <listen>unix:path=\(directory)/bus</listen>
                  <auth>EXTERNAL</auth>
                  <policy context="default">
                    <allow send_destination="*" eavesdrop="true"/>
                    <allow eavesdrop="true"/>
                    <allow own="*"/>
                    <allow user="*"/>
                  </policy>
                """
        }
        let services = serviceDirectories.map { "  <servicedir>\($0)</servicedir>\n" }.joined()
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
            \(policy)
            \(services)
              <limit name="max_message_size">33554432</limit>
              <limit name="max_replies_per_connection">128</limit>
              <limit name="max_connections_per_user">256</limit>
            </busconfig>
            """
        try writeFile("\(directory)/bus.conf", config)
        let (p, fd) = try spawn(["dbus-daemon", "--config-file=\(directory)/bus.conf", "--nofork", "--print-address=1"],
                                captureStderr: false)
        pid = p
        outputFD = fd.stdout
        // The daemon prints its address once it listens; a blocking read is fine here.
        var line = [UInt8]()
        var byte: UInt8 = 0
        while read(outputFD, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        address = String(decoding: line, as: UTF8.self)
        if address.isEmpty {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            throw DBusError.failed("dbus-daemon printed no address (a policy it refused?)")
        }
    }

    /// Kills the daemon and removes its directory.
    public func stop() {
        guard outputFD >= 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(outputFD)
        outputFD = -1
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

/// Runs a command (looked up in PATH) while iterating the GLib default main context,
/// so objects exported in this process can answer it; no threads.
public func runTool(_ argv: [String], timeoutMs: Int = 10_000) -> ToolResult {
    guard let (pid, fds) = try? spawn(argv, captureStderr: true) else {
        return ToolResult(status: -1, stdout: "", stderr: "cannot spawn \(argv[0])")
    }
    var out = [UInt8](), err = [UInt8]()
    for fd in [fds.stdout, fds.stderr] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    func drain(_ fd: Int32, _ into: inout [UInt8]) {
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buf, buf.count)
            if n <= 0 { return }
            into.append(contentsOf: buf[0..<n])
        }
    }
    var status: Int32 = 0
    var exited = false
    let finished = MainLoop.iterate(until: {
        drain(fds.stdout, &out)
        drain(fds.stderr, &err)
        if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        return exited
    }, timeoutMs: timeoutMs)
    if !finished {
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }
    drain(fds.stdout, &out)
    drain(fds.stderr, &err)
    close(fds.stdout)
    close(fds.stderr)
    let code: Int32 = finished && (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    return ToolResult(status: code, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
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

/// posix_spawnp with stdout (and optionally stderr) on close-on-exec pipes.
private func spawn(_ argv: [String], captureStderr: Bool) throws -> (pid_t, (stdout: Int32, stderr: Int32)) {
    var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [-1, -1]
    guard makePipe(&outPipe) else { throw DBusError.failed("pipe failed") }
    if captureStderr { guard makePipe(&errPipe) else { throw DBusError.failed("pipe failed") } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
    if captureStderr {
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
    } else {
        // dbus-daemon warns about fd limits it may not raise; keep test logs quiet.
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for a in cArgs { free(a) } }
    var pid: pid_t = 0
    let rc = posix_spawnp(&pid, argv[0], &actions, nil, &cArgs, environ)
    close(outPipe[1])
    if captureStderr { close(errPipe[1]) }
    guard rc == 0 else {
        close(outPipe[0])
        if captureStderr { close(errPipe[0]) }
        throw DBusError.failed("cannot spawn \(argv[0]): \(String(cString: strerror(rc)))")
    }
    return (pid, (outPipe[0], errPipe[0]))
}

/// A pipe whose ends are not inherited by spawned children (only the dup2'ed copies are).
private func makePipe(_ fds: inout [Int32]) -> Bool {
    guard pipe(&fds) == 0 else { return false }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return true
}
