@preconcurrency import Glibc
import DBus
import EventLoop

// Helpers every test that runs the built daemon needs: where the products are, temporary
// files, time, and the daemon as a child process.

/// The package's root directory, found from this file's path (Tests/TestSupport/DaemonProcess.swift).
public let packageRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

/// The directory holding the programs the tests run, `orientationd` and `orientationctl`: the one named by
/// `ORIENTATIOND_PROGRAMS` when it is set (`make test-release` names the release build, the programs the
/// package ships), else the build the tests were built with (the test bundle runs from there).
public func programsDirectory() -> String {
    if let named = getenv("ORIENTATIOND_PROGRAMS"), named.pointee != 0 { return String(cString: named) }
    return productsDirectory()
}

/// The directory holding the built products (the test bundle runs from there).
func productsDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    var exe = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    // With `swift test` on Linux the bundle itself is the executable; fall back to argv[0]
    // when /proc/self/exe is a runner (e.g. an xctest tool) in another directory.
    if access(dirname(exe) + "/orientationd", X_OK) != 0 { exe = CommandLine.arguments[0] }
    return dirname(exe)
}

public func dirname(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return String(path[..<slash])
}

public func makeTempDirectory(_ prefix: String = "orientationd-e2e") -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    guard let dir = mkdtemp(&template) else { fatalError("mkdtemp failed") }
    return String(cString: dir)
}

public func writeText(_ path: String, _ text: String) {
    guard let f = fopen(path, "w") else { fatalError("cannot write \(path)") }
    fputs(text, f)
    fclose(f)
}

/// The text of the regular file at `path`; "" when there is none. Never blocks: a FIFO planted where
/// a test looks (an attack on the state file) reads as "", not as a wait for a writer that never comes.
public func readText(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, let f = fdopen(fd, "r") else {
        close(fd)
        return ""
    }
    defer { fclose(f) }
    var out = [UInt8]()
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n <= 0 { break }
        out.append(contentsOf: buf[0..<n])
    }
    return String(decoding: out, as: UTF8.self)
}

/// Seconds on the monotonic clock.
public func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Iterates the main loop until `condition` holds or `timeout` seconds pass.
@discardableResult
public func waitUntil(_ timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    MainLoop.iterate(until: condition, timeoutMs: Int(timeout * 1000))
}


/// One daemon process on a private bus (orientationd, or a peer it talks to); stderr goes to a log file.
public final class DaemonProcess {
    public let pid: pid_t
    public let logPath: String
    public private(set) var exitStatus: Int32?

    /// Spawns `orientationd ARGS` with stdout and stderr in `logPath`.
    public convenience init(arguments: [String], logPath: String) throws {
        try self.init(command: [programsDirectory() + "/orientationd"] + arguments, logPath: logPath)
    }

    /// Spawns `command` (the program looked up in PATH) with stdout and stderr in `logPath`,
    /// e.g. a peer such as a mock polkit authority.
    public init(command argv: [String], logPath: String) throws {
        self.logPath = logPath
        let binary = argv[0]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        var p: pid_t = 0
        let rc = posix_spawnp(&p, binary, &actions, nil, &cArgs, environ)
        guard rc == 0 else { throw DBusError.failed("cannot spawn \(binary): \(String(cString: strerror(rc)))") }
        pid = p
    }

    /// Whether it is still running (reaps it when it is not).
    public var isRunning: Bool {
        if exitStatus != nil { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status; return false }
        return true
    }

    /// Sends `signal` and waits up to `timeout` s; returns the exit code, or -signal when killed by a signal.
    @discardableResult
    public func stop(_ signal: Int32 = SIGTERM, timeout: Double = 5) -> Int32 {
        if isRunning { kill(pid, signal) }
        let deadline = now() + timeout
        while isRunning && now() < deadline { usleep(5_000) }
        if isRunning {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            exitStatus = status
            return -999
        }
        return DaemonProcess.code(exitStatus!)
    }

    public static func code(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
    }

    public var log: String { readText(logPath) }
}


/// `voluntary_ctxt_switches + nonvoluntary_ctxt_switches` of every thread of `pid`, from /proc:
/// unchanged over an interval means the process did not wake up. 0 when it is gone.
public func contextSwitches(of pid: pid_t) -> Int {
    guard let dir = opendir("/proc/\(pid)/task") else { return 0 }
    defer { closedir(dir) }
    var total = 0
    while let entry = readdir(dir) {
        let task = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard task.first?.isNumber == true else { continue }
        for line in readText("/proc/\(pid)/task/\(task)/status").split(separator: "\n") where line.contains("ctxt_switches:") {
            total += line.split(separator: ":").last.flatMap { Int($0.drop { $0 == " " || $0 == "\t" }) } ?? 0
        }
    }
    return total
}
