// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc

/// The pages of this process's program (the executable's text and read-only data, and its
/// libraries'), handed back to the kernel once they are not needed: `madvise(MADV_PAGEOUT)` (Linux
/// 5.4) reclaims each page that only this process maps, so what starting touched and idling never
/// touches again stops counting against it; a page another process maps too (libc's, say) is left
/// alone, and so is one this process wrote (relocated data). A page needed later is read back on its
/// first touch.
public enum ProgramPages {
    /// `MADV_PAGEOUT` (`linux/mman.h`); older kernels refuse it with `EINVAL`.
    static let pageOutAdvice: Int32 = 21

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

    /// Advises the kernel to page out the program's mappings; returns the bytes advised, or nil when
    /// the kernel refuses the advice (before 5.4) or the mappings cannot be read.
    @discardableResult
    public static func pageOut() -> Int? {
        let found = mappings()
        guard !found.isEmpty else { return nil }
        var advised = 0
        for mapping in found {
            guard let address = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            if madvise(address, mapping.length, pageOutAdvice) != 0 { return advised == 0 ? nil : advised }
            advised += mapping.length
        }
        return advised
    }
}
