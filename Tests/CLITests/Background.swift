@preconcurrency import Glibc
import Foundation
import TestSupport

/// A process started in the background with stdout and stderr going to files,
/// so a test can read what it has printed so far, signal it and collect its exit status.
final class Background {
    let pid: pid_t
    let stdoutPath: String
    let stderrPath: String
    private var exitStatus: Int32?

    init(_ argv: [String], in directory: String, name: String) throws {
        stdoutPath = "\(directory)/\(name).out"
        stderrPath = "\(directory)/\(name).err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        var child: pid_t = 0
        let rc = posix_spawn(&child, argv[0], &actions, nil, &cArgs, environ)
        guard rc == 0 else {
            throw NSError(domain: "Background", code: Int(rc),
                          userInfo: [NSLocalizedDescriptionKey: "cannot spawn \(argv[0]): \(String(cString: strerror(rc)))"])
        }
        pid = child
    }

    /// Everything printed on stdout so far.
    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    /// Everything printed on stderr so far.
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Whether the process is still running (reaps it when it has ended).
    var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            exitStatus = status
            return false
        }
        return true
    }

    func signal(_ number: Int32) { if isRunning { kill(pid, number) } }

    /// The exit code after waiting up to `timeout` seconds; nil when it is still running
    /// (then it is killed) or -signal when a signal ended it.
    func waitForExit(timeout: Double = 5) -> Int32? {
        guard waitUntil(timeout, { !self.isRunning }) else {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            exitStatus = status
            return nil
        }
        let status = exitStatus!
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
    }

    /// Makes sure nothing outlives the test.
    func kill9() {
        if isRunning {
            kill(pid, SIGKILL)
            _ = waitForExit(timeout: 2)
        }
    }

    deinit { kill9() }
}

