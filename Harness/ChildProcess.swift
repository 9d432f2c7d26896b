// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import DBus
import EventLoop

/// A program the tests run beside the daemon (a peer, a driver script, a client, the daemon itself
/// run by hand): its output in files or a pipe, an optional stdin pipe, extra environment, and a stop
/// that always reaps it. The one process helper of the test targets and the benchmarks; `World` starts
/// the daemon and its peers as these.
public final class ChildProcess {
    /// Where the child's stdout and stderr go.
    public enum Output {
        /// Both, appended to one file.
        case file(String)
        /// Each to a file of its own, emptied first.
        case files(stdout: String, stderr: String)
        /// stdout to a pipe read line by line (`readLine`), stderr appended to a file.
        case pipe(stderr: String)
    }

    public let pid: pid_t
    public let destination: Output
    public private(set) var exitStatus: Int32?
    private var stdinFD: Int32 = -1
    private var stdoutFD: Int32 = -1
    private var buffer: [UInt8] = []

    /// Spawns `argv` (the program looked up in PATH) with `output`, `environment` added to this
    /// process's (replacing what it names) without the variables `unsetting` names, and a pipe to its
    /// stdin when `stdinPipe`, else /dev/null.
    public init(_ argv: [String], output: Output, environment: [String: String] = [:], unsetting: [String] = [],
                stdinPipe: Bool = false) throws {
        destination = output
        var inPipe: [Int32] = [-1, -1], outPipe: [Int32] = [-1, -1]
        if stdinPipe { guard pipe(&inPipe) == 0 else { throw DBusError.failed("pipe failed") } }
        if case .pipe = output { guard pipe(&outPipe) == 0 else { throw DBusError.failed("pipe failed") } }
        // Only the dup2'ed copies reach the child.
        for fd in inPipe + outPipe where fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if stdinPipe {
            posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        switch output {
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .files(let stdout, let stderr):
            posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        case .pipe(let stderr):
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
        var env: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            let key = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            if environment[key] == nil, !unsetting.contains(key) { env.append(text) }
            index += 1
        }
        env += environment.map { "\($0.key)=\($0.value)" }
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnv: [UnsafeMutablePointer<CChar>?] = env.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) }; for e in cEnv { free(e) } }
        var p: pid_t = 0
        let rc = posix_spawnp(&p, argv[0], &actions, nil, &cArgs, &cEnv)
        if inPipe[0] >= 0 { close(inPipe[0]) }
        if outPipe[1] >= 0 { close(outPipe[1]) }
        guard rc == 0 else {
            for fd in [inPipe[1], outPipe[0]] where fd >= 0 { close(fd) }
            throw DBusError.failed("cannot spawn \(argv[0]): \(String(cString: strerror(rc)))")
        }
        pid = p
        stdinFD = inPipe[1]
        stdoutFD = outPipe[0]
    }

    deinit {
        if isRunning { stop(SIGKILL) }
        closePipes()
    }

    /// Whether it still runs (reaps it when it does not).
    public var isRunning: Bool {
        if exitStatus != nil { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status; return false }
        return true
    }

    /// What it has written to its output file (stdout's, with `.files`; stderr's, with `.pipe`).
    public var log: String {
        switch destination {
        case .file(let path), .pipe(let path): readText(path)
        case .files(let stdout, _): readText(stdout)
        }
    }

    /// What it has written to stderr, with `.files`; else the same as `log`.
    public var errors: String {
        if case .files(_, let stderr) = destination { return readText(stderr) }
        return log
    }

    /// Writes a line to its stdin pipe.
    public func send(_ line: String) {
        guard stdinFD >= 0 else { return }
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(stdinFD, $0.baseAddress, $0.count) }
    }

    /// Sends one command line and waits for its one-line answer.
    public func command(_ line: String, timeout: Double = 20) throws -> String {
        let bytes = Array((line + "\n").utf8)
        guard stdinFD >= 0, bytes.withUnsafeBytes({ write(stdinFD, $0.baseAddress, $0.count) }) == bytes.count else {
            throw DBusError.failed("the child is gone; its output:\n\(log)")
        }
        return try readLine(timeout: timeout)
    }

    /// One line from its stdout pipe; the main loop runs while it waits, so in-process objects answer.
    public func readLine(timeout: Double = 20) throws -> String {
        let deadline = now() + timeout
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            guard now() < deadline else { throw DBusError.failed("no line from the child in \(timeout) s; its output:\n\(log)") }
            var pfd = pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 20) > 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = read(stdoutFD, &chunk, chunk.count)
                if n <= 0 { throw DBusError.failed("the child exited; its output:\n\(log)") }
                buffer.append(contentsOf: chunk[0..<n])
            }
            MainLoop.iterate(until: { false }, timeoutMs: 0)
        }
    }

    /// The file its output goes to (stdout's, with `.files`).
    public var logPath: String {
        switch destination {
        case .file(let path), .pipe(let path): path
        case .files(let stdout, _): stdout
        }
    }

    public func signal(_ number: Int32) { if isRunning { kill(pid, number) } }

    /// Closes its stdin (a driver reading commands ends there), sends `signal` (none when 0) and waits
    /// up to `timeout` s while the main loop runs; then SIGKILL. Returns the exit code, -signal when a
    /// signal ended it, -999 when it had to be killed.
    @discardableResult
    public func stop(_ signal: Int32 = SIGTERM, timeout: Double = 10) -> Int32 {
        if stdinFD >= 0 { close(stdinFD); stdinFD = -1 }
        if isRunning && signal != 0 { kill(pid, signal) }
        waitUntil(timeout) { !isRunning }
        var killed = false
        if isRunning {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            exitStatus = status
            killed = true
        }
        closePipes()
        return killed ? -999 : Self.code(exitStatus!)
    }

    /// Waits up to `timeout` s for it to end on its own; its exit code, nil while it still runs.
    public func wait(timeout: Double) -> Int32? {
        waitUntil(timeout) { !isRunning }
        return exitStatus.map(Self.code)
    }

    /// Waits up to `timeout` s for it to end on its own; its exit code, or nil when it did not, and then
    /// it is killed.
    public func waitForExit(timeout: Double = 5) -> Int32? {
        if let code = wait(timeout: timeout) { return code }
        stop(SIGKILL, timeout: 2)
        return nil
    }

    /// Kills it at once, if it still runs.
    public func kill9() {
        if isRunning { stop(SIGKILL, timeout: 2) }
    }

    /// The exit code in a wait status, or -signal when a signal ended the process.
    public static func code(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
    }

    private func closePipes() {
        if stdinFD >= 0 { close(stdinFD); stdinFD = -1 }
        if stdoutFD >= 0 { close(stdoutFD); stdoutFD = -1 }
    }
}
