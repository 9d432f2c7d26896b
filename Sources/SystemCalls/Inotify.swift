// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import CSystemCalls

/// An inotify instance (`inotify_init1`, non-blocking, close-on-exec) and the events it has queued.
public final class Inotify {
    private let fd: FileDescriptor
    /// Room for the events of one read.
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// One event: the watch it came from, what happened (`IN_*`), and the name of the file in a watched directory.
    public struct Event: Sendable {
        public let watch: Int32
        public let mask: UInt32
        public let name: String
    }

    public static let created: UInt32 = 0x100, movedTo: UInt32 = 0x80, deleted: UInt32 = 0x200, deletedSelf: UInt32 = 0x400,
                      movedSelf: UInt32 = 0x800, ignored: UInt32 = 0x8000

    public init() throws(Errno) {
        fd = FileDescriptor(rawValue: try valueOrErrno { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) })
    }

    deinit { fd.close() }

    /// Watches `path` for `mask`; the watch's number.
    public func watch(_ path: String, _ mask: UInt32) throws(Errno) -> Int32 {
        try valueOrErrno { inotify_add_watch(fd.rawValue, path, mask) }
    }

    /// Every event queued now; none when the queue is empty.
    public func events() -> [Event] {
        var out: [Event] = []
        while true {
            // Read by the system call itself: the queue is this process's own, and a preload that wraps
            // `read` for the devices it fakes (umockdev's, where such a queue is watched at all) has
            // nothing to do with it. The empty queue of most calls makes no error value.
            let n = buffer.withUnsafeMutableBytes { raw in
                kernel_read(fd.rawValue, raw.baseAddress, UInt(raw.count))
            }
            guard n > 0 else { break }
            // `struct inotify_event`: wd, mask, cookie, len (32 bits each), then `len` bytes of name.
            buffer.withUnsafeBytes { raw in
                var offset = 0
                while offset + 16 <= n {
                    let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    var name = ""
                    if length > 0, offset + 16 + length <= n {
                        let bytes = UnsafeRawBufferPointer(rebasing: raw[(offset + 16)..<(offset + 16 + length)])
                        name = String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
                    }
                    out.append(Event(watch: wd, mask: mask, name: name))
                    offset += 16 + length
                }
            }
        }
        return out
    }
}
