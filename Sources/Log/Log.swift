// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls

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

    /// Whether debug lines are written: the program was started with `--verbose` (or `-v`) before any
    /// `--`; read once, at the first line, from the process's arguments.
    public static let showsDebug = verboseRequested(CommandLine.arguments)

    /// Whether stderr is the journal: read once, from `JOURNAL_STREAM` and stderr's own device and inode.
    public static let toJournal: Bool = stderrIsTheJournal()

    /// Whether `arguments` (the program's name first) ask for debug lines.
    public static func verboseRequested(_ arguments: [String]) -> Bool {
        arguments.dropFirst().prefix { $0 != "--" }.contains { $0 == "--verbose" || $0 == "-v" }
    }

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
        guard let status = try? FileDescriptor(rawValue: 2).status() else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}
