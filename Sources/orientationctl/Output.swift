// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc

/// Writes one line on stdout and flushes it, so pipes see it at once.
func emit(_ line: String) {
    fputs(line + "\n", stdout)
    fflush(stdout)
}

/// Writes `orientationctl: message` on stderr.
func complain(_ message: String) {
    fputs("orientationctl: \(message)\n", stderr)
}

/// The wall-clock time of day with milliseconds, `12:03:04.512`, for monitor lines.
func timestamp() -> String {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var seconds = now.tv_sec
    var parts = tm()
    localtime_r(&seconds, &parts)
    func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let ms = Int(now.tv_nsec / 1_000_000)
    let millis = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
    return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(millis)"
}
