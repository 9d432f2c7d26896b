// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import CPageOut

/// The pages of this process's program (the executable's text and read-only data, and its
/// libraries'), handed back to the kernel once they are not needed: `madvise(MADV_PAGEOUT)` (Linux
/// 5.4) reclaims each page that only this process maps, so what starting touched and idling never
/// touches again stops counting against it; a page another process maps too (libc's, say) is left
/// alone, and so is one this process wrote (relocated data). A page needed later is read back on its
/// first touch. The kernel pages out only a page-cache folio that the range maps whole, so the one
/// that reaches past the end of the program's code stays; that code is unmapped instead
/// (`MADV_DONTNEED`, safe for code, which is never written).
///
/// The advice is given by the main loop's poll function (`pollFunction`, CPageOut) just before the
/// loop sleeps, not here: given from Swift, the code that ran after it (the rest of the caller, the
/// loop's next round of source checks) touched the program again and each touch mapped back the
/// 64 KB around it, 450 KB of a measured 490 in the daemon.
public enum ProgramPages {
    /// The mappings of files, as (address, length), from `/proc/self/maps`.
    static func mappings() -> [(start: UInt, length: Int)] {
        guard let maps = try? FileDescriptor.open("/proc/self/maps", O_RDONLY | O_CLOEXEC) else { return [] }
        defer { maps.close() }
        guard let bytes = try? maps.readAll(upTo: 1 << 16) else { return [] }
        var found: [(UInt, Int)] = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            // start-end perms offset dev inode path
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, fields[5].drop(while: { $0 == " " }).first == "/" else { continue }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16), end > start else { continue }
            found.append((start, Int(end - start)))
        }
        return found
    }

    /// The poll function that gives the armed advice as the loop goes to sleep for a second or more
    /// (`g_main_context_set_poll_func`'s `GPollFunc`: GPollFD is `struct pollfd` on Linux).
    public static let pollFunction: @convention(c) (UnsafeMutableRawPointer?, UInt32, Int32) -> Int32 = page_out_poll

    /// Arms a page-out of the program's file mappings, given when the loop next sleeps for a second or
    /// more (`pollFunction` must be the loop's poll function), and again before the sleep after each of
    /// the next `wakeUps` wake-ups (nil: every wake-up), for what their work touched. Returns the bytes
    /// armed, or nil when the mappings cannot be read.
    @discardableResult
    public static func pageOutWhenAsleep(againAfter wakeUps: Int? = 2) -> Int? {
        let found = mappings().prefix(64)
        guard !found.isEmpty else { return nil }
        let starts = found.map { UInt($0.start) }, lengths = found.map { $0.length }
        guard page_out_arm(starts, lengths, Int32(starts.count), Int32(wakeUps ?? -1)) == 0 else { return nil }
        return lengths.reduce(0, +)
    }

    /// Forgets an armed page-out (the loop is about to work again).
    public static func cancel() { page_out_disarm() }

    /// How many page-outs were given so far, and the bytes the last one advised (nil: refused by the
    /// kernel, before Linux 5.4, or none given yet).
    public static var given: (count: UInt, lastBytes: Int?) {
        let count = page_out_count()
        let bytes = page_out_last_bytes()
        return (count, count > 0 && bytes >= 0 ? bytes : nil)
    }
}
