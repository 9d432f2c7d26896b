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
    struct Entry {
        let path: String
        let stamp: Stamp
        let mask: OrientationMask?
        var used: UInt64
    }

    /// A file's modification time and size, as `stat` gives them.
    struct Stamp: Equatable, Hashable {
        let seconds: Int
        let nanoseconds: Int
        let size: Int
    }

    package let directories: [String]
    package let limit: Int
    private(set) var cache: [ApplicationID: Entry] = [:]
    private var clock: UInt64 = 0
    /// Files already logged, with the stamp they had.
    private var logged: Set<String> = []



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
            guard let info = FileSystem.status(path) else { continue }
            let stamp = Stamp(seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec), size: Int(info.st_size))
            if var entry = cache[id], entry.path == path, entry.stamp == stamp {
                entry.used = clock
                cache[id] = entry
                return entry.mask
            }
            switch Self.read(path, info) {
            case .passedOver(let why):
                // A file that is no desktop file is passed over, like one too large.
                logOnce(path, stamp, why + "; passed over")
                continue
            case .read(let reading):
                for problem in reading.problems { logOnce(path, stamp, "\(problem.key)=\(problem.value): \(problem.why); ignored") }
                remember(id, Entry(path: path, stamp: stamp, mask: reading.mask, used: clock))
                return reading.mask
            }
        }
        cache[id] = nil
        return nil
    }

    /// Why `id` declares what it does, in one sentence for a person (`ExplainApplicationDeclaration`):
    /// the file and key its mask comes from, or why it declares nothing (no file in any directory, a
    /// file passed over, no key, a bad value and what is wrong with it).
    package func explain(_ id: ApplicationID) -> String {
        var passedOver: [String] = []
        for directory in directories {
            let path = "\(directory)/applications/\(id.rawValue).desktop"
            guard let info = FileSystem.status(path) else { continue }
            switch Self.read(path, info) {
            case .passedOver(let why):
                passedOver.append("\(path) \(why)")
            case .read(let reading):
                let problems = reading.problems.map { "\($0.key)=\($0.value): \($0.why)" }
                let before = passedOver.isEmpty ? "" : " (" + passedOver.joined(separator: "; ") + ", passed over)"
                if let mask = reading.mask, let key = reading.key {
                    return "\(path) declares \(mask) in \(key)" + (problems.isEmpty ? "" : ", after " + problems.joined(separator: "; "))
                        + before
                }
                if !problems.isEmpty { return "\(path): " + problems.joined(separator: "; ") + before }
                return "\(path) has neither \(ApplicationDeclaration.key) nor \(ApplicationDeclaration.lomiriKey)" + before
            }
        }
        if !passedOver.isEmpty { return passedOver.joined(separator: "; ") + ", passed over; no other \(id.rawValue).desktop" }
        return "no \(id.rawValue).desktop in " + directories.map { $0 + "/applications" }.joined(separator: ", ")
    }

    private func remember(_ id: ApplicationID, _ entry: Entry) {
        if cache[id] == nil, cache.count >= limit, let oldest = cache.min(by: { $0.value.used < $1.value.used })?.key {
            cache[oldest] = nil
        }
        cache[id] = entry
    }

    /// What one file gives: passed over (why), or its two keys read.
    private enum FileReading {
        case passedOver(String)
        case read(ApplicationDeclaration.Reading)
    }

    /// The file's declaration (`ApplicationDeclaration.read`), or why it is passed over (`DesktopFile`).
    private static func read(_ path: String, _ info: stat) -> FileReading {
        switch DesktopFile.orientationKeys(path, status: info) {
        case .failure(let passedOver): .passedOver(passedOver.why)
        case .success(let keys): .read(ApplicationDeclaration.read { keys[$0] })
        }
    }

    private func logOnce(_ path: String, _ stamp: Stamp, _ what: String) {
        guard logged.insert("\(path)@\(stamp.seconds).\(stamp.nanoseconds)/\(stamp.size)").inserted else { return }
        Log.warning("\(path): \(what)")
    }
}
