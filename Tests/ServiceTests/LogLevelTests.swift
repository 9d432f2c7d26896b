// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// The daemon's one log (Sources/Log): a level per line, the journal's priority prefix when stderr is
/// the journal (`JOURNAL_STREAM`), and debug lines only with `--verbose`.
final class LogLevelTests: DaemonTestCase {
    /// Restarts the daemon with stderr in a fresh file that `JOURNAL_STREAM` names (as systemd names
    /// the journal's stream), with `arguments`; returns the file's path.
    private func restartAsIfUnderTheJournal(_ arguments: [String]) throws -> String {
        stopDaemon()
        let path = scratch + "/journal-\(arguments.count).log"
        writeText(path, "")
        var status = stat()
        XCTAssertEqual(stat(path, &status), 0)
        daemon = try world.startDaemon(arguments, name: "journal-\(arguments.count)", stateDirectory: stateDir,
                                       environment: ["JOURNAL_STREAM": "\(status.st_dev):\(status.st_ino)"])
        XCTAssertTrue(waitUntil { readText(path).contains("serving") }, readText(path))
        return path
    }

    func testUnderTheJournalEachLineCarriesItsPriorityAndDebugLinesNeedVerbose() throws {
        var path = try restartAsIfUnderTheJournal([])
        try claim(try newClient())
        try setDevice(3)
        XCTAssertTrue(waitUntil { (try? self.u("InterfaceOrientation")) == 3 })
        var lines = readText(path).split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.hasPrefix("<6>serving \(Orientation1.busName) as :") }, "\(lines)")
        XCTAssertTrue(lines.allSatisfy { $0.first == "<" }, "every line has a priority: \(lines)")
        XCTAssertFalse(lines.contains { $0.hasPrefix("<7>") }, "debug lines without --verbose: \(lines)")

        path = try restartAsIfUnderTheJournal(["--verbose"])
        try claim(try newClient())
        try setDevice(4)
        XCTAssertTrue(waitUntil { readText(path).contains("<7>rotating from") }, readText(path))
        lines = readText(path).split(separator: "\n")
        XCTAssertTrue(lines.contains("<7>device orientation landscape-right"), "\(lines)")

        // A warning: a [Security] user that does not exist, at start.
        let config = scratch + "/warn.conf"
        writeText(config, "[Security]\nPrivilegedUsers=no-such-user-here\n")
        path = try restartAsIfUnderTheJournal(["--config", config])
        XCTAssertTrue(readText(path).split(separator: "\n").contains("<4>[Security] unknown user 'no-such-user-here' ignored"),
                      readText(path))
    }

    /// On a terminal or in a file: the program's name, and the level's for a warning.
    func testWithoutTheJournalLinesNameTheProgramAndTheLevel() throws {
        stopDaemon()
        let config = scratch + "/warn.conf"
        writeText(config, "[Security]\nPrivilegedUsers=no-such-user-here\n")
        try startDaemon(extra: ["--config", config])
        let log = daemon!.log
        XCTAssertTrue(log.contains("orientationd: warning: [Security] unknown user 'no-such-user-here' ignored\n"), log)
        XCTAssertTrue(log.contains("orientationd: serving \(Orientation1.busName)"), log)
    }
}
