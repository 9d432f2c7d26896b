@preconcurrency import Glibc
import DBus
import TestSupport

/// The package's root directory, found from this file's path.
let packageRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/ApiFilesTests/RunningDaemon.swift
    return parts.joined(separator: "/")
}()

/// A file of the package as text; nil when it cannot be read.
func readPackageFile(_ relativePath: String) -> String? {
    readTextFile(packageRoot + "/" + relativePath)
}

func readTextFile(_ path: String) -> String? {
    guard let f = fopen(path, "r") else { return nil }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        bytes.append(contentsOf: buffer[0..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The names in a directory of the package, sorted.
func packageDirectory(_ relativePath: String) -> [String] {
    guard let dir = opendir(packageRoot + "/" + relativePath) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

/// Starts `argv` with stdin from /dev/null and stdout and stderr appended to `logPath`.
func spawnProcess(_ argv: [String], logPath: String) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for a in cArgs { free(a) } }
    var pid: pid_t = 0
    let rc = posix_spawnp(&pid, argv[0], &actions, nil, &cArgs, environ)
    guard rc == 0 else { throw DBusError.failed("cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
    return pid
}

/// SIGTERM, then SIGKILL after 2 s; reaps the process.
func stopProcess(_ pid: pid_t) {
    guard pid > 0 else { return }
    kill(pid, SIGTERM)
    var status: Int32 = 0
    for _ in 0..<200 {
        if waitpid(pid, &status, WNOHANG) != 0 { return }
        usleep(10_000)
    }
    kill(pid, SIGKILL)
    waitpid(pid, &status, 0)
}

/// A fresh temporary directory.
func makeTemporaryDirectory(_ prefix: String) throws -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    guard let dir = mkdtemp(&template) else { throw DBusError.failed("mkdtemp failed") }
    return String(cString: dir)
}

/// Removes a directory and the plain files in it.
func removeDirectory(_ path: String) {
    guard let dir = opendir(path) else { return }
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { unlink(path + "/" + name) }
    }
    closedir(dir)
    rmdir(path)
}

/// The built `orientationd` (it sits beside the test bundle) serving a private bus
/// (or the bus at `address`) with the simulated sensor and a fresh state directory.
/// `stop()` ends it, and the private bus if it made one.
final class RunningDaemon {
    static let busName = "org.orientationd.Orientation1"
    static let managerPath = "/org/orientationd/Orientation1"

    let address: String
    let stateDirectory: String
    private let privateBus: PrivateBus?
    private var pid: pid_t = 0

    /// The daemon's stderr so far; shown when something fails.
    var log: String { readTextFile(stateDirectory + "/daemon.log") ?? "" }

    static var binary: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return String(exe[..<(exe.lastIndex(of: "/") ?? exe.startIndex)]) + "/orientationd"
    }

    init(address: String? = nil) throws {
        guard access(Self.binary, X_OK) == 0 else {
            throw DBusError.failed("\(Self.binary) is missing: build the package with --build-tests first")
        }
        if let address {
            privateBus = nil
            self.address = address
        } else {
            let bus = try PrivateBus()
            privateBus = bus
            self.address = bus.address
        }
        stateDirectory = try makeTemporaryDirectory("orientationd-state")
        do {
            pid = try spawnProcess([Self.binary, "--address", self.address, "--sensor", "simulated",
                                    "--state-dir", stateDirectory], logPath: stateDirectory + "/daemon.log")
            try waitForName()
        } catch {
            stop()
            throw error
        }
    }

    /// Polls NameHasOwner until the daemon holds its name (5 s at most).
    private func waitForName() throws {
        let probe = try Connection(bus: .address(address))
        defer { probe.close() }
        for _ in 0..<500 {
            let owned = try probe.callBlocking(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                               interface: "org.freedesktop.DBus", method: "NameHasOwner",
                                               values: [.string(Self.busName)])
            if owned.first?.boolValue == true { return }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                pid = 0
                throw DBusError.failed("orientationd exited before owning its name: \(log)")
            }
            usleep(10_000)
        }
        throw DBusError.failed("orientationd did not own \(Self.busName) within 5 s: \(log)")
    }

    /// Ends the daemon, the private bus and the state directory.
    func stop() {
        stopProcess(pid)
        pid = 0
        privateBus?.stop()
        removeDirectory(stateDirectory)
    }

    deinit { stop() }
}
