// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc

/// The daemon's one log: lines on stderr, each with a level, which the journal files as its priority.
///
/// On a terminal or in a file a line reads `orientationd: TEXT` (`orientationd: warning: TEXT` for a
/// warning, `… error: …` for an error). When stderr is the journal (`JOURNAL_STREAM`, set by systemd, names
/// stderr's device and inode) a line starts with the syslog priority instead, `<4>TEXT`, which journald
/// reads as the message's priority, so `journalctl -p warning -u orientationd` shows what went wrong.
/// Debug lines are written only with `--verbose` (`Log.showsDebug`).
public enum Log {
    /// How much a line matters, by syslog's numbers (journald's priorities).
    public enum Level: Int, Sendable {
        case error = 3
        case warning = 4
        case info = 6
        case debug = 7
    }

    /// Whether debug lines are written (`--verbose`).
    nonisolated(unsafe) public static var showsDebug = false

    /// Whether stderr is the journal: set once, from `JOURNAL_STREAM` and stderr's own device and inode.
    nonisolated(unsafe) public static var toJournal: Bool = stderrIsTheJournal()

    public static func error(_ text: @autoclosure () -> String) { write(.error, text()) }
    public static func warning(_ text: @autoclosure () -> String) { write(.warning, text()) }
    public static func info(_ text: @autoclosure () -> String) { write(.info, text()) }
    /// Built only when debug lines are shown, so a busy path pays nothing for them otherwise.
    public static func debug(_ text: @autoclosure () -> String) {
        guard showsDebug else { return }
        write(.debug, text())
    }

    private static func write(_ level: Level, _ text: String) {
        fputs(line(level, text, journal: toJournal), stderr)
    }

    /// One line as written: a priority prefix for the journal, else the program's name and, for a
    /// warning or an error, the level's name.
    public static func line(_ level: Level, _ text: String, journal: Bool) -> String {
        if journal { return "<\(level.rawValue)>\(text)\n" }
        switch level {
        case .error: return "orientationd: error: \(text)\n"
        case .warning: return "orientationd: warning: \(text)\n"
        case .info, .debug: return "orientationd: \(text)\n"
        }
    }

    /// `JOURNAL_STREAM` is `DEVICE:INODE` of the stream systemd connected to the journal; stderr is that
    /// stream only when its own device and inode are those (a child that redirected stderr is not).
    public static func stderrIsTheJournal(_ environment: String? = getenv("JOURNAL_STREAM").map { String(cString: $0) }) -> Bool {
        guard let value = environment else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(2, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}
