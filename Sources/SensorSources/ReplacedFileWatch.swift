// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import SystemCalls

/// Tells an open set of attribute files when one of them is replaced under its descriptor or its
/// device's directory is removed: an inotify watch on each directory the files live in, whose queue
/// is read (`refresh`, one non-blocking `read`) right before the files are.
///
/// The kernel's sysfs never replaces an attribute and sends inotify no event for a new value, so a
/// directory on sysfs (`FileSystem.isSysfs`) is not watched at all, and on a real machine the watch
/// is never made: no system call for it. A fake sysfs (umockdev's `set_attribute` writes a new file
/// and renames it over the old; its `remove_device` deletes the directory) lives elsewhere and does
/// send events, and the next read opens the file again or finds the device gone. The queue is not
/// watched by the main loop: a fake device written while it is not polled (a device lying still
/// whose motion events wake the reader) wakes nobody.
final class ReplacedFileWatch {
    private let inotify: Inotify
    /// Base names of the files watched, with their places in `paths`, by the directory watch they live under.
    private var names: [Int32: [(name: String, index: Int)]] = [:]
    /// The files replaced since they were last taken (places in `paths`), and whether a file watched or
    /// its directory went away (a directory whose files are held open tells only of its files' deletion).
    private var replaced: Set<Int> = []
    private(set) var directoryRemoved = false

    /// Watches the directories of `paths` that are not on sysfs; nil when all are (or inotify is
    /// unavailable: the files are then read as they are, which is all the kernel's sysfs needs).
    init?(paths: [String]) {
        var directories: [(directory: String, name: String, index: Int)] = []
        for (index, path) in paths.enumerated() {
            guard let slash = path.lastIndex(of: "/") else { continue }
            let directory = String(path[..<slash])
            guard !FileSystem.isSysfs(directory) else { continue }
            directories.append((directory, String(path[path.index(after: slash)...]), index))
        }
        guard !directories.isEmpty, let inotify = try? Inotify() else { return nil }
        self.inotify = inotify
        for (directory, name, index) in directories {
            guard let wd = try? inotify.watch(directory, Inotify.created | Inotify.movedTo | Inotify.deleted | Inotify.deletedSelf
                                              | Inotify.movedSelf) else { continue }
            names[wd, default: []].append((name, index))
        }
    }

    /// Reads what the watch has seen since the last call: the files replaced and the directory removed.
    func refresh() {
        for event in inotify.events() {
            if event.mask & (Inotify.deletedSelf | Inotify.movedSelf | Inotify.ignored) != 0 {
                directoryRemoved = true
            } else if !event.name.isEmpty {
                for file in names[event.watch] ?? [] where file.name == event.name {
                    if event.mask & Inotify.deleted != 0 { directoryRemoved = true } else { replaced.insert(file.index) }
                }
            }
        }
    }

    /// Whether the file at `index` of the paths watched was replaced since the last call for it; the mark is taken.
    func takeReplaced(_ index: Int) -> Bool {
        replaced.remove(index) != nil
    }

    /// Whether any file has been replaced since the marks were last taken.
    var anyReplaced: Bool { !replaced.isEmpty }
}
