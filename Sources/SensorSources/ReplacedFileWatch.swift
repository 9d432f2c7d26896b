// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc

/// Tells an open set of attribute files when one of them is replaced under its descriptor or its
/// device's directory is removed: an inotify watch on each directory the files live in, whose queue
/// is read (`refresh`, one non-blocking `read`) right before the files are.
///
/// The kernel's sysfs never replaces an attribute and sends inotify no event for a new value, so on
/// real hardware the queue is always empty: one system call per poll, and never a wake-up. A fake
/// sysfs (umockdev's `set_attribute` writes a new file and renames it over the old; its
/// `remove_device` deletes the directory) does send events, and the next read opens the file again
/// or finds the device gone. The queue is not watched by the main loop: a fake device written while
/// it is not polled (a device lying still whose motion events wake the reader) wakes nobody.
final class ReplacedFileWatch {
    private let fd: Int32
    /// Base names of the files watched, with their places in `paths`, by the directory watch they live under.
    private var names: [Int32: [(name: String, index: Int)]] = [:]
    /// The files replaced since they were last taken (places in `paths`), and whether a file watched or
    /// its directory went away (a directory whose files are held open tells only of its files' deletion).
    private var replaced: Set<Int> = []
    private(set) var directoryRemoved = false
    /// Room for the events of one wake-up.
    private var events = [UInt8](repeating: 0, count: 4096)

    /// `IN_CREATE`, `IN_MOVED_TO`, `IN_DELETE`, `IN_DELETE_SELF`, `IN_MOVE_SELF` and `IN_IGNORED` (`sys/inotify.h`).
    private static let created: UInt32 = 0x100, movedTo: UInt32 = 0x80, deleted: UInt32 = 0x200, deletedSelf: UInt32 = 0x400,
                        movedSelf: UInt32 = 0x800, ignored: UInt32 = 0x8000

    /// Watches the directories of `paths`; nil when inotify is unavailable (the files are then read as
    /// they are, which is all the kernel's sysfs needs).
    init?(paths: [String]) {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        for (index, path) in paths.enumerated() {
            guard let slash = path.lastIndex(of: "/") else { continue }
            let directory = String(path[..<slash]), name = String(path[path.index(after: slash)...])
            let wd = inotify_add_watch(fd, directory, Self.created | Self.movedTo | Self.deleted | Self.deletedSelf | Self.movedSelf)
            guard wd >= 0 else { continue }
            names[wd, default: []].append((name, index))
        }
    }

    deinit { close(fd) }

    /// Reads what the watch has seen since the last call: the files replaced and the directory removed.
    func refresh() { drain() }

    /// Whether the file at `index` of the paths watched was replaced since the last call for it; the mark is taken.
    func takeReplaced(_ index: Int) -> Bool {
        replaced.remove(index) != nil
    }

    /// Whether any file has been replaced since the marks were last taken.
    var anyReplaced: Bool { !replaced.isEmpty }

    private func drain() {
        while true {
            let n = events.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return }
            // `struct inotify_event`: wd, mask, cookie, len (32 bits each), then `len` bytes of name.
            var offset = 0
            events.withUnsafeBytes { raw in
                while offset + 16 <= n {
                    let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    if mask & (Self.deletedSelf | Self.movedSelf | Self.ignored) != 0 {
                        directoryRemoved = true
                    } else if length > 0, offset + 16 + length <= n {
                        let bytes = UnsafeRawBufferPointer(rebasing: raw[(offset + 16)..<(offset + 16 + length)])
                        let name = String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
                        for file in names[wd] ?? [] where file.name == name {
                            if mask & Self.deleted != 0 { directoryRemoved = true } else { replaced.insert(file.index) }
                        }
                    }
                    offset += 16 + length
                }
            }
        }
    }
}
