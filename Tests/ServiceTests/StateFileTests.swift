// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import SystemCalls
import DBus
import OrientationAPI
import TestSupport

/// The state file (dbus-api.md, "State directory"; Docs/security.md): written atomically and durably
/// by another process, never through a link an attacker planted, and read only when it is a small
/// regular file.
final class StateFileTests: DaemonTestCase {
    private var statePath: String { stateDir + "/state" }

    private func mode(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode : nil
    }

    private func entries(_ directory: String) -> [String] { FileSystem.list(directory) }

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

    /// A state directory that cannot be made, on a read-only file system, is reported with the reason
    /// it could not be made, not with the missing directory that follows from it; the daemon serves.
    func testAStateDirectoryOnAReadOnlyFileSystemIsReportedWithItsReason() throws {
        guard getuid() == 0 else { throw unavailable("mounting a read-only file system needs root") }
        let readOnly = scratch + "/read-only"
        mkdir(readOnly, 0o755)
        let mounted = runTool(["mount", "-t", "tmpfs", "-o", "size=64k,ro", "tmpfs", readOnly])
        guard mounted.status == 0 else { throw unavailable("cannot mount a tmpfs here: \(mounted.stderr)") }
        defer { _ = runTool(["umount", readOnly]) }
        stopDaemon()
        stateDir = readOnly + "/orientationd"
        try startDaemon()
        XCTAssertTrue(daemon!.log.contains("cannot create the state directory \(stateDir!): Read-only file system"), "\(stateDir!): \(runTool(["findmnt", readOnly]).stdout) \(daemon!.log)")
        XCTAssertNoThrow(try set("RotationLocked", .bool(true)), "callers are answered at once when nothing can be kept")
    }

    func testADirectoryAtTheStateFileIsReportedOnceAndSavingFailuresOnce() throws {
        try restart { XCTAssertEqual(mkdir($0 + "/state", 0o755), 0) }
        XCTAssertEqual(try b("RotationLocked"), false)
        // A change the disk refuses is in effect, and its caller is told it will not survive a restart.
        for locked in [true, false, true] {
            let message = assertError(std("Failed")) { try self.set("RotationLocked", .bool(locked)) }
            XCTAssertTrue(message.contains("took effect but could not be saved") && message.contains("Is a directory"), message)
            XCTAssertEqual(try b("RotationLocked"), locked, "the change is in effect")
        }
        let log = daemon!.log
        XCTAssertEqual(occurrences("ignoring the state file", in: log), 1, log)
        XCTAssertTrue(log.contains("a directory"), log)
        XCTAssertEqual(occurrences("cannot save the state", in: log), 1, "a failing disk is reported once: \(log)")
        XCTAssertEqual(try b("RotationLocked"), true, "the daemon goes on")
        // A failed write is tried again at the next change, not at once: the daemon lies still.
        let pid = daemon!.pid
        let before = contextSwitches(of: pid)
        waitUntil(1) { false }
        XCTAssertLessThan(contextSwitches(of: pid) - before, 20, "the daemon keeps retrying the failed write")
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

    /// Attaches strace to the daemon and the processes it forks from now on (`-f`), with `options`, writing
    /// its trace to `output`; returns the tracer for `stopTracing`.
    private func startTracing(_ options: [String], into output: String) throws -> ChildProcess {
        guard toolExists("strace") else { throw unavailable("strace is not installed (apt: strace)") }
        let tracer = try ChildProcess(["strace", "-f", "-qq", "-p", "\(daemon!.pid)", "-o", output] + options,
                                      output: .file(scratch + "/strace.log"))
        // strace attaches before it writes anything; give it a moment.
        waitUntil(0.5) { false }
        return tracer
    }

    private func stopTracing(_ tracer: ChildProcess) {
        tracer.stop(SIGINT)
    }

    /// The main loop never waits for the disk: every fsync and rename is made by another process, in the
    /// order that makes the replacement atomic and durable: the temporary created (never through a link),
    /// written and synced, renamed over the state file, then the directory synced.
    func testTheDaemonItselfNeverSyncsOrRenamesAndTheWriterSyncsRenamesAndSyncsInOrder() throws {
        let pid = daemon!.pid
        let trace = scratch + "/strace.log"
        let tracer = try startTracing(["-e", "trace=openat,fsync,fdatasync,rename,renameat,renameat2"], into: trace)
        for locked in [true, false, true] { try set("RotationLocked", .bool(locked)) }
        XCTAssertTrue(waitUntil { readText(statePath).contains("RotationLocked=true") })
        waitUntil(0.3) { false }
        stopTracing(tracer)
        let lines = readText(trace).split(separator: "\n").map(String.init)
        let syncs = lines.filter { $0.contains("fsync(") || $0.contains("rename") }
        XCTAssertGreaterThanOrEqual(syncs.filter { $0.contains("fsync(") }.count, 2, "file and directory are synced:\n\(lines.joined(separator: "\n"))")
        for line in syncs {
            XCTAssertFalse(line.hasPrefix("\(pid) "), "the daemon's own process waited for the disk: \(line)")
        }
        // Each writer's own steps, in order.
        let writers = Set(lines.filter { $0.contains("renameat") }.compactMap { $0.split(separator: " ").first })
        XCTAssertFalse(writers.isEmpty, "no writer renamed anything:\n\(lines.joined(separator: "\n"))")
        for writer in writers {
            let steps = lines.filter { $0.hasPrefix(writer + " ") && !$0.contains("resumed>") }.map { line -> String in
                if line.contains("openat(") && line.contains("O_CREAT") {
                    return line.contains("O_EXCL") && line.contains("O_NOFOLLOW") && line.contains("\".state-") ? "create" : "bad create: " + line
                }
                if line.contains("fsync(") { return "fsync" }
                if line.contains("renameat") { return line.contains("\"state\"") ? "rename" : "bad rename: " + line }
                return "other"
            }.filter { $0 != "other" }
            XCTAssertEqual(steps, ["create", "fsync", "rename", "fsync"], "writer \(writer)")
        }
    }

    /// A lock or mask change is answered once it is on the disk, and the disk is waited for by the
    /// caller alone: with every fsync held for a second (strace's fault injection standing in for a
    /// stalled disk), the file already holds the change when its reply arrives, and another client is
    /// answered many times meanwhile.
    func testAPrivilegedChangeIsAnsweredOnceOnTheDiskAndAStalledDiskDelaysOnlyItsCaller() throws {
        let tracer = try startTracing(["-e", "trace=fsync", "-e", "inject=fsync:delay_enter=1000000"], into: "/dev/null")
        defer { stopTracing(tracer) }
        let caller = try newConnection(), other = try newClient()
        var answer: Result<[Value], DBusError>?
        var fileWhenAnswered = ""
        let start = now()
        caller.call(destination: Orientation1.busName, path: Orientation1.managerPath, interface: StandardInterface.properties,
                    method: "Set", values: [.string(Orientation1.managerInterface), .string("RotationLocked"), .variant(.bool(true))],
                    timeoutMs: 20_000) { [statePath] result in
            fileWhenAnswered = readText(statePath)
            answer = result
        }
        var servedMeanwhile = 0
        while answer == nil, now() - start < 20 {
            _ = try get("InterfaceOrientation", on: other)
            servedMeanwhile += 1
            waitUntil(0.01) { answer != nil }
        }
        let waited = now() - start
        guard case .success = try XCTUnwrap(answer, "no answer in 20 s") else { return XCTFail("\(String(describing: answer))") }
        XCTAssertTrue(fileWhenAnswered.contains("RotationLocked=true"), "answered before the change was on the disk: \(fileWhenAnswered)")
        XCTAssertGreaterThanOrEqual(waited, 1.0, "the caller did not wait for the held fsyncs")
        XCTAssertGreaterThanOrEqual(servedMeanwhile, 10, "another client waited behind the disk: \(servedMeanwhile) answers in \(waited) s")
        XCTAssertEqual(try b("RotationLocked"), true)
    }

    /// A change that was acknowledged survives a SIGKILL sent the moment its reply arrives, even when
    /// the disk is slow (every fsync held for 200 ms): the second of two quick changes used to wait,
    /// unwritten, behind the first's write.
    func testAChangeAcknowledgedSurvivesASIGKILLRightAfterItsReply() throws {
        for (round, (locked, mask)) in [(true, UInt32(8)), (false, 16), (true, 24)].enumerated() {
            let tracer = try startTracing(["-e", "trace=fsync", "-e", "inject=fsync:delay_enter=200000"], into: "/dev/null")
            try set("RotationLocked", .bool(locked))
            try set("ApplicationMask", .uint32(mask))
            stopDaemon(SIGKILL)
            stopTracing(tracer)
            try startDaemon()
            XCTAssertEqual(try b("RotationLocked"), locked, "round \(round)")
            XCTAssertEqual(try u("ApplicationMask"), mask, "round \(round)")
        }
    }

    /// The interface orientation alone is saved lazily: a rotation costs no write of its own, the
    /// newest orientation is written within the lazy interval, and a clean stop writes it at once.
    func testTheInterfaceOrientationIsSavedLazilyAndAtAStop() throws {
        // A first start leaves the file missing (a missing file means the defaults, which the
        // daemon starts in), and the lazy interval counts from the start.
        waitUntil(0.3) { false }
        XCTAssertEqual(access(statePath, F_OK), -1, "a first start wrote the defaults: \(readText(statePath))")
        let trace = scratch + "/strace.log"
        try claim(try newClient())
        let tracer = try startTracing(["-e", "trace=renameat,renameat2"], into: trace)
        try setDevice(3)
        try setDevice(1)
        try setDevice(4)
        waitUntil(0.5) { false }
        XCTAssertFalse(readText(statePath).contains("InterfaceOrientation="), "a rotation was written at once: \(readText(statePath))")
        XCTAssertEqual(try u("InterfaceOrientation"), 4)
        XCTAssertTrue(waitUntil(8) { readText(statePath).contains("InterfaceOrientation=4") }, readText(statePath))
        stopTracing(tracer)
        let writes = readText(trace).split(separator: "\n").filter { $0.contains("renameat") && !$0.contains("resumed>") }
        XCTAssertEqual(writes.count, 1, "three rotations, one lazy write: \(writes)")
        try setDevice(1)
        XCTAssertEqual(stopDaemon(SIGTERM), 0)
        XCTAssertTrue(readText(statePath).contains("InterfaceOrientation=1"), "a clean stop writes the newest orientation: \(readText(statePath))")
    }
}
