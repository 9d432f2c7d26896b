// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls
import EventLoop
import Configuration
import Orientation
import Log

/// The orientations installed applications declare in their desktop files (applications.md, "The
/// declaration in force"): `<id>.desktop` in `applications/` under each data directory, first found,
/// its `X-Orientationd-SupportedOrientations`, else Lomiri's `X-Ubuntu-Supported-Orientations`. A
/// file is read when its application is first asked about and again only when its modification time
/// or size changes; at most `limit` applications are remembered. A file that is not a regular file,
/// is larger than 64 KiB or is no key file is passed over for the next directory's; one whose keys
/// hold nothing valid declares nothing. Each is logged once per file and change.
package final class DesktopFileDeclarations {
    /// What was read from one file, and how to tell that it changed.
    private struct Entry {
        let path: String
        let stamp: Stamp
        let mask: OrientationMask?
        var used: UInt64
    }

    /// A file's modification time and size, as `stat` gives them.
    private struct Stamp: Equatable, Hashable {
        let seconds: Int
        let nanoseconds: Int
        let size: Int
    }

    package let directories: [String]
    package let limit: Int
    private var cache: [ApplicationID: Entry] = [:]
    private var clock: UInt64 = 0
    /// Files already logged, with the stamp they had.
    private var logged: Set<String> = []

    /// How many applications are remembered now.
    package var cachedCount: Int { cache.count }

    /// The largest desktop file read.
    package static let maxFileBytes = 64 * 1024

    package init(directories: [String], limit: Int = 256) {
        self.directories = directories
        self.limit = max(1, limit)
    }

    /// `XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`), then Flatpak's exports.
    package static func defaultDirectories(xdgDataDirs: String?) -> [String] {
        ApplicationDeclaration.dataDirectories(xdgDataDirs: xdgDataDirs)
    }

    /// The mask `id`'s desktop file declares; nil when it has no file or declares nothing valid.
    package func mask(for id: ApplicationID) -> OrientationMask? {
        clock += 1
        for directory in directories {
            let path = "\(directory)/applications/\(id.rawValue).desktop"
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            let stamp = Stamp(seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec), size: Int(info.st_size))
            if var entry = cache[id], entry.path == path, entry.stamp == stamp {
                entry.used = clock
                cache[id] = entry
                return entry.mask
            }
            guard (info.st_mode & S_IFMT) == S_IFREG, stamp.size <= Self.maxFileBytes else {
                logOnce(path, stamp, "not a regular file of at most \(Self.maxFileBytes / 1024) KiB; passed over")
                continue
            }
            // A file that is no desktop file is passed over, like one too large.
            guard let mask = read(path, stamp) else { continue }
            remember(id, Entry(path: path, stamp: stamp, mask: mask, used: clock))
            return mask
        }
        cache[id] = nil
        return nil
    }

    private func remember(_ id: ApplicationID, _ entry: Entry) {
        if cache[id] == nil, cache.count >= limit, let oldest = cache.min(by: { $0.value.used < $1.value.used })?.key {
            cache[oldest] = nil
        }
        cache[id] = entry
    }

    /// The file's declaration, from the first of the two keys that holds a valid one (`.some(nil)`
    /// when it declares nothing valid); nil when it cannot be read or is no desktop file.
    private func read(_ path: String, _ stamp: Stamp) -> OrientationMask?? {
        guard let bytes = Self.contents(path) else {
            logOnce(path, stamp, "cannot be read; passed over")
            return nil
        }
        let file = KeyFile()
        do { try file.load(data: bytes) } catch {
            logOnce(path, stamp, "is not a desktop file (\(error.message)); passed over")
            return nil
        }
        let group = "Desktop Entry"
        if let value = file.string(group, ApplicationDeclaration.key) {
            do { return try ApplicationDeclaration.mask(orientationd: value) } catch {
                logOnce(path, stamp, "\(ApplicationDeclaration.key): \(error.message); trying \(ApplicationDeclaration.lomiriKey)")
            }
        }
        if let value = file.string(group, ApplicationDeclaration.lomiriKey) {
            do { return try ApplicationDeclaration.mask(lomiri: value) } catch {
                logOnce(path, stamp, "\(ApplicationDeclaration.lomiriKey): \(error.message)")
            }
        }
        return .some(nil)
    }

    /// The whole file, at most `maxFileBytes`; nil when it cannot be read or is longer.
    private static func contents(_ path: String) -> [UInt8]? {
        guard let fd = try? FileDescriptor.open(path, O_RDONLY | O_NONBLOCK) else { return nil }
        defer { fd.close() }
        guard let bytes = try? fd.readAll(upTo: maxFileBytes + 1), bytes.count <= maxFileBytes else { return nil }
        return bytes
    }

    private func logOnce(_ path: String, _ stamp: Stamp, _ what: String) {
        guard logged.insert("\(path)@\(stamp.seconds).\(stamp.nanoseconds)/\(stamp.size)").inserted else { return }
        Log.warning("\(path): \(what)")
    }
}
