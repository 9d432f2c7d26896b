@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// The state file (dbus-api.md, "Configuration file"; Docs/security.md): written atomically and durably
/// by another process, never through a link an attacker planted, and read only when it is a small
/// regular file.
final class StateFileTests: DaemonTestCase {
    private var statePath: String { stateDir + "/state" }

    private func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode : nil
    }

    private func entries(_ directory: String) -> [String] {
        guard let listing = opendir(directory) else { return [] }
        defer { closedir(listing) }
        var names: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Restarts the daemon on a state directory prepared by `prepare` (created empty first, mode 0755).
    private func restart(preparing prepare: (String) throws -> Void) throws {
        stopDaemon()
        _ = runTool(["rm", "-rf", stateDir])
        mkdir(stateDir, 0o755)
        chmod(stateDir, 0o755)
        try prepare(stateDir)
        try startDaemon()
    }

    private func occurrences(_ text: String, in log: String) -> Int {
        log.components(separatedBy: text).count - 1
    }

    func testTheDaemonCreatesTheDirectoryAndWritesA0644RegularFileWithNoTemporaryLeft() throws {
        // The daemon made the directory itself (setUp does not create it).
        XCTAssertEqual(mode(stateDir).map { $0 & 0o7777 }, 0o755)
        try set("RotationLocked", .bool(true))
        XCTAssertTrue(waitUntil { readText(statePath).contains("RotationLocked=true") }, readText(statePath))
        let fileMode = try XCTUnwrap(mode(statePath))
        XCTAssertEqual(fileMode & S_IFMT, S_IFREG)
        XCTAssertEqual(fileMode & 0o7777, 0o644, "mode \(String(fileMode & 0o7777, radix: 8))")
        XCTAssertEqual(entries(stateDir), ["state"])
    }

    func testSymbolicLinksAtTheStateFileAndAtTheOldTemporaryNameAreNeverWrittenThrough() throws {
        let victim = scratch + "/victim", otherVictim = scratch + "/other-victim"
        writeText(victim, "precious\n")
        writeText(otherVictim, "also precious\n")
        // A locked state behind the link: following it would start locked.
        writeText(scratch + "/planted", "[State]\nRotationLocked=true\nApplicationMaskSetOverBus=2\nInterfaceOrientation=1\n")
        try restart { dir in
            XCTAssertEqual(symlink(victim, dir + "/state"), 0)
            XCTAssertEqual(symlink(otherVictim, dir + "/state.new"), 0)
            XCTAssertEqual(symlink(otherVictim, dir + "/.state.new"), 0)
        }
        XCTAssertEqual(try b("RotationLocked"), false, "a link at the state file is not read")
        XCTAssertEqual(occurrences("symbolic link", in: daemon!.log), 1, daemon!.log)
        // The link is replaced at start, not written through.
        XCTAssertTrue(waitUntil { (mode(statePath) ?? 0) & S_IFMT == S_IFREG }, "the link at the state file was not replaced")
        try set("RotationLocked", .bool(true))
        try set("ApplicationMask", .uint32(24))
        XCTAssertTrue(waitUntil { readText(statePath).contains("ApplicationMaskSetOverBus=24") }, readText(statePath))
        XCTAssertEqual(readText(victim), "precious\n")
        XCTAssertEqual(readText(otherVictim), "also precious\n")
        XCTAssertEqual(mode(stateDir + "/state.new").map { $0 & S_IFMT }, S_IFLNK, "a stranger's file is left alone")

        // The same with a link planted at the state file while the daemon runs.
        unlink(statePath)
        XCTAssertEqual(symlink(victim, statePath), 0)
        try set("RotationLocked", .bool(false))
        XCTAssertTrue(waitUntil { readText(statePath).contains("RotationLocked=false") }, readText(statePath))
        XCTAssertEqual(readText(victim), "precious\n")
        XCTAssertEqual((mode(statePath) ?? 0) & S_IFMT, S_IFREG)
    }

    func testAStateFileThatIsNotARegularFileIsCorruptOrHugeIsReportedOnceAndReplacedByDefaults() throws {
        let cases: [(String, String, (String) -> Void)] = [
            ("a FIFO", "FIFO", { XCTAssertEqual(mkfifo($0, 0o644), 0) }),
            ("huge", "more than a state file", { path in
                writeText(path, "[State]\nRotationLocked=true\n" + String(repeating: "# padding\n", count: 200_000))
            }),
            ("corrupt", "ignoring the state file", { writeText($0, "\u{1}\u{2}not a key file [[[\n") }),
            ("incomplete", "a value is missing", { writeText($0, "[State]\nRotationLocked=true\n") }),
        ]
        for (what, message, make) in cases {
            try restart { make($0 + "/state") }
            XCTAssertEqual(try b("RotationLocked"), false, what)
            XCTAssertEqual(try u("ApplicationMask"), 26, what)
            let log = daemon!.log
            XCTAssertEqual(occurrences("ignoring the state file", in: log), 1, "\(what): \(log)")
            XCTAssertTrue(log.contains(message), "\(what): \(log)")
            XCTAssertTrue(waitUntil { readText(statePath).contains("RotationLocked=false") && (mode(statePath) ?? 0) & S_IFMT == S_IFREG },
                          "\(what) was not replaced by the defaults")
            try set("RotationLocked", .bool(true))
            XCTAssertTrue(waitUntil { readText(statePath).contains("RotationLocked=true") }, what)
            XCTAssertEqual(occurrences("ignoring the state file", in: daemon!.log), 1, what)
            _ = runTool(["truncate", "-s", "0", daemon!.logPath])
        }
    }

    func testADirectoryAtTheStateFileIsReportedOnceAndSavingFailuresOnce() throws {
        try restart { XCTAssertEqual(mkdir($0 + "/state", 0o755), 0) }
        XCTAssertEqual(try b("RotationLocked"), false)
        for locked in [true, false, true] { try set("RotationLocked", .bool(locked)) }
        XCTAssertTrue(waitUntil { self.daemon!.log.contains("cannot save the state") }, daemon!.log)
        let log = daemon!.log
        XCTAssertEqual(occurrences("ignoring the state file", in: log), 1, log)
        XCTAssertTrue(log.contains("a directory"), log)
        XCTAssertEqual(occurrences("cannot save the state", in: log), 1, "a failing disk is reported once: \(log)")
        XCTAssertEqual(try b("RotationLocked"), true, "the daemon goes on")
        XCTAssertTrue(waitUntil { self.entries(self.stateDir) == ["state"] }, "temporaries left behind: \(entries(stateDir))")
    }

    func testAStateDirectoryOthersMayWriteToOrOwnIsNotUsed() throws {
        for (what, prepare) in [("writable by others", { (dir: String) in _ = chmod(dir, 0o777) }),
                                ("owned by another user", { (dir: String) in _ = chown(dir, 65534, 65534) })] {
            try restart { dir in
                writeText(dir + "/state", "[State]\nRotationLocked=true\nApplicationMaskSetOverBus=2\nInterfaceOrientation=1\n")
                prepare(dir)
            }
            XCTAssertEqual(try b("RotationLocked"), false, "\(what): a state planted there is not read")
            try set("ApplicationMask", .uint32(24))
            XCTAssertTrue(daemon!.log.contains("will not be kept"), "\(what): \(daemon!.log)")
            XCTAssertTrue(readText(statePath).contains("ApplicationMaskSetOverBus=2\n"), "\(what): nothing is written there")
        }
    }

    func testTheNewestOfManyQuickChangesIsWhatTheFileHolds() throws {
        for index in 0..<40 { try set("RotationLocked", .bool(index % 2 == 0)) }
        try set("ApplicationMask", .uint32(8))
        XCTAssertTrue(waitUntil { readText(statePath).contains("ApplicationMaskSetOverBus=8") }, readText(statePath))
        waitUntil(0.3) { false }
        XCTAssertTrue(readText(statePath).contains("RotationLocked=false"), readText(statePath))
        XCTAssertEqual(entries(stateDir), ["state"])
    }

    func testSIGTERMRightAfterAChangeStillSavesIt() throws {
        try set("RotationLocked", .bool(true))
        try set("ApplicationMask", .uint32(16))
        XCTAssertEqual(stopDaemon(SIGTERM), 0)
        XCTAssertTrue(readText(statePath).contains("ApplicationMaskSetOverBus=16"), readText(statePath))
        try startDaemon()
        XCTAssertEqual(try u("ApplicationMask"), 16)
        XCTAssertEqual(try b("RotationLocked"), true)
    }

    /// The main loop never waits for the disk: every fsync and rename is made by another process.
    func testTheDaemonItselfNeverSyncsOrRenames() throws {
        guard toolExists("strace") else { throw unavailable("strace is not installed (apt: strace)") }
        let pid = daemon!.pid
        let trace = scratch + "/strace.log"
        var tracer: pid_t = 0
        let argv = ["strace", "-f", "-qq", "-p", "\(pid)", "-e", "trace=fsync,fdatasync,rename,renameat,renameat2", "-o", trace]
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) } }
        XCTAssertEqual(posix_spawnp(&tracer, "strace", nil, nil, &cArgs, environ), 0)
        // strace attaches before it writes anything; give it a moment.
        waitUntil(0.5) { false }
        for locked in [true, false, true] { try set("RotationLocked", .bool(locked)) }
        XCTAssertTrue(waitUntil { readText(statePath).contains("RotationLocked=true") })
        waitUntil(0.3) { false }
        _ = kill(tracer, SIGINT)
        var status: Int32 = 0
        waitpid(tracer, &status, 0)
        let lines = readText(trace).split(separator: "\n")
        let syncs = lines.filter { $0.contains("fsync(") || $0.contains("rename") }
        XCTAssertGreaterThanOrEqual(syncs.filter { $0.contains("fsync(") }.count, 2, "file and directory are synced:\n\(lines.joined(separator: "\n"))")
        for line in syncs {
            XCTAssertFalse(line.hasPrefix("\(pid) "), "the daemon's own process waited for the disk: \(line)")
        }
    }
}
