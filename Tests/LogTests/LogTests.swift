// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import Log

final class LogTests: XCTestCase {
    func testLinesForATerminalNameTheProgramAndWhatWentWrong() {
        XCTAssertEqual(Log.line(.info, "serving", journal: false), "orientationd: serving\n")
        XCTAssertEqual(Log.line(.debug, "rotating", journal: false), "orientationd: rotating\n")
        XCTAssertEqual(Log.line(.warning, "no hotplug", journal: false), "orientationd: warning: no hotplug\n")
        XCTAssertEqual(Log.line(.error, "cannot save", journal: false), "orientationd: error: cannot save\n")
    }

    func testLinesForTheJournalCarryTheirPriority() {
        XCTAssertEqual(Log.line(.error, "cannot save", journal: true), "<3>cannot save\n")
        XCTAssertEqual(Log.line(.warning, "no hotplug", journal: true), "<4>no hotplug\n")
        XCTAssertEqual(Log.line(.info, "serving", journal: true), "<6>serving\n")
        XCTAssertEqual(Log.line(.debug, "rotating", journal: true), "<7>rotating\n")
    }

    /// Only a JOURNAL_STREAM naming stderr's own device and inode means the journal.
    func testTheJournalIsStderrOnlyWhenJournalStreamNamesIt() {
        var status = stat()
        XCTAssertEqual(fstat(2, &status), 0)
        XCTAssertTrue(Log.stderrIsTheJournal("\(status.st_dev):\(status.st_ino)"))
        XCTAssertFalse(Log.stderrIsTheJournal("\(status.st_dev):\(status.st_ino + 1)"))
        XCTAssertFalse(Log.stderrIsTheJournal(nil))
        XCTAssertFalse(Log.stderrIsTheJournal("garbage"))
        XCTAssertFalse(Log.stderrIsTheJournal("1:2:3"))
    }

    func testDebugLinesAreAskedForOnTheCommandLineOnly() {
        XCTAssertTrue(Log.verboseRequested(["orientationd", "--sensor", "simulated", "--verbose"]))
        XCTAssertTrue(Log.verboseRequested(["orientationd", "-v"]))
        XCTAssertFalse(Log.verboseRequested(["orientationd", "--sensor", "simulated"]))
        XCTAssertFalse(Log.verboseRequested(["--verbose"]), "the program's own name is not an argument")
        XCTAssertFalse(Log.verboseRequested(["orientationd", "--", "--verbose"]), "nothing after -- is an option")
    }
}
