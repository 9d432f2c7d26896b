@preconcurrency import Glibc
import XCTest
import DBus
import EventLoop
import TestSupport

/// A child process with optional pipes to its stdin and from its stdout; stderr (and stdout
/// when not piped) go to `logPath`.
final class Child {
    let pid: pid_t
    let logPath: String
    private var stdinFD: Int32 = -1
    private var stdoutFD: Int32 = -1
    private var buffer: [UInt8] = []
    private(set) var exitStatus: Int32?

    init(_ argv: [String], logPath: String, pipes: Bool) throws {
        self.logPath = logPath
        var inPipe: [Int32] = [-1, -1], outPipe: [Int32] = [-1, -1]
        if pipes {
            guard pipe(&inPipe) == 0, pipe(&outPipe) == 0 else { throw DBusError.failed("pipe failed") }
            for fd in inPipe + outPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if pipes {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        var p: pid_t = 0
        let rc = posix_spawnp(&p, argv[0], &actions, nil, &cArgs, environ)
        if pipes {
            close(inPipe[0])
            close(outPipe[1])
        }
        guard rc == 0 else {
            if pipes { close(inPipe[1]); close(outPipe[0]) }
            throw DBusError.failed("cannot spawn \(argv[0]): \(String(cString: strerror(rc)))")
        }
        pid = p
        if pipes {
            stdinFD = inPipe[1]
            stdoutFD = outPipe[0]
        }
    }

    /// Sends one command line and waits for its one-line answer.
    func command(_ line: String, timeout: Double = 20) throws -> String {
        let bytes = Array((line + "\n").utf8)
        guard write(stdinFD, bytes, bytes.count) == bytes.count else {
            throw DBusError.failed("driver gone; log:\n\(log)")
        }
        return try readLine(timeout: timeout)
    }

    /// One line from the child's stdout (main loop iterated while waiting, so in-process objects answer).
    func readLine(timeout: Double = 20) throws -> String {
        let deadline = now() + timeout
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            guard now() < deadline else { throw DBusError.failed("no answer from the driver in \(timeout) s; log:\n\(log)") }
            var pfd = pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 20) > 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = read(stdoutFD, &chunk, chunk.count)
                if n <= 0 { throw DBusError.failed("driver exited; log:\n\(log)") }
                buffer.append(contentsOf: chunk[0..<n])
            }
            MainLoop.iterate(until: { false }, timeoutMs: 0)
        }
    }

    var isRunning: Bool {
        if exitStatus != nil { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status; return false }
        return true
    }

    /// Closes the pipes, signals and waits (SIGKILL after `timeout`); returns the exit code or -signal.
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM, timeout: Double = 10) -> Int32 {
        if stdinFD >= 0 { close(stdinFD); stdinFD = -1 }
        if isRunning && signal != 0 { kill(pid, signal) }
        let deadline = now() + timeout
        while isRunning && now() < deadline { usleep(5_000) }
        if isRunning {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            exitStatus = status
        }
        if stdoutFD >= 0 { close(stdoutFD); stdoutFD = -1 }
        let status = exitStatus ?? 0
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
    }

    var log: String { readText(logPath) }
}

/// Whether the real peer can be run here: iio-sensor-proxy, umockdev-wrapper, dbus-monitor and
/// a /usr/bin/python3 with gi's UMockdev and Gio.
func peerMissing() -> String? {
    for tool in ["/usr/sbin/iio-sensor-proxy", "/usr/bin/umockdev-wrapper", "/usr/bin/dbus-monitor", "/usr/bin/python3"]
    where access(tool, X_OK) != 0 {
        return "\(tool) is not installed (apt: iio-sensor-proxy umockdev dbus-bin python3-gi gir1.2-umockdev-1.0)"
    }
    let check = runTool(["/usr/bin/python3", "-c",
                         "import gi; gi.require_version('UMockdev', '1.0'); from gi.repository import UMockdev, Gio"])
    if check.status != 0 { return "/usr/bin/python3 cannot import gi's UMockdev and Gio: \(check.stderr)" }
    return nil
}

/// Skips the test when the peer cannot run here, but fails it under CI, where a missing package is a bug.
func requirePeer() throws {
    if let missing = peerMissing() { throw unavailable(missing) }
}
