// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import EventLoop

final class ChildWatchTests: XCTestCase {
    /// Starts `/bin/sh -c script` and returns its pid. Spawned here, not with TestSupport's
    /// ChildProcess: that one reaps its child itself, and reaping is what ChildWatch is tested for.
    private func spawnShell(_ script: String) throws -> pid_t {
        var pid: pid_t = 0
        let words: [String] = ["/bin/sh", "-c", script]
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        let rc = posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ)
        guard rc == 0 else { throw XCTSkip("cannot spawn /bin/sh: \(rc)") }
        return pid
    }

    func testTheHandlerGetsTheExitStatusOnceAndTheChildIsReaped() throws {
        let pid = try spawnShell("exit 3")
        var statuses: [Int32] = []
        let watch = ChildWatch(pid: pid) { statuses.append($0) }
        XCTAssertTrue(MainLoop.iterate(until: { !statuses.isEmpty }, timeoutMs: 5000))
        MainLoop.iterate(until: { false }, timeoutMs: 20)
        XCTAssertEqual(statuses.count, 1)
        XCTAssertEqual((statuses[0] >> 8) & 0xff, 3, "the exit status")
        XCTAssertFalse(watch.isActive)
        var status: Int32 = 0
        XCTAssertEqual(waitpid(pid, &status, WNOHANG), -1, "already reaped")
    }

    func testASignalledChildReportsTheSignal() throws {
        let pid = try spawnShell("sleep 30")
        var status: Int32?
        let watch = ChildWatch(pid: pid) { status = $0 }
        kill(pid, SIGKILL)
        XCTAssertTrue(MainLoop.iterate(until: { status != nil }, timeoutMs: 5000))
        XCTAssertEqual((status ?? 0) & 0x7f, SIGKILL)
        watch.cancel()  // after it ended: harmless
    }
}
