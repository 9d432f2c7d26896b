// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls

/// The files the configuration is read from, in the order they are applied, as systemd's own daemons
/// read theirs (`logind.conf.d`): the main file, then the `*.conf` drop-ins of three directories sorted
/// by file name across them; a drop-in in `/etc` hides one of the same name in `/run` or `/usr/lib`,
/// one in `/run` hides `/usr/lib`'s, and one that is empty or a link to `/dev/null` is masked.
/// With `--config FILE`, the drop-ins come from `FILE.d/` only (Docs/dbus-api.md, "Configuration file").
package enum ConfigFiles {
    /// The drop-in directories read with the default main file, lowest precedence first.
    package static let dropInDirectories = [
        "/usr/lib/orientationd/orientationd.conf.d",
        "/run/orientationd/orientationd.conf.d",
        "/etc/orientationd/orientationd.conf.d",
    ]

    /// The drop-in directories for a main file: the three above for the default one, `FILE.d` for another.
    package static func directories(forMainFile configPath: String?) -> [String] {
        guard let configPath else { return dropInDirectories }
        return [configPath + ".d"]
    }

    /// The drop-ins in force, in the order they apply: by file name, each name from the directory of
    /// highest precedence that has it; masked ones (empty, or a link to /dev/null) left out.
    package static func dropIns(in directories: [String]) -> [String] {
        var chosen: [String: String] = [:]
        for directory in directories {
            for name in FileSystem.list(directory) where name.hasSuffix(".conf") && !name.hasPrefix(".") {
                chosen[name] = directory + "/" + name
            }
        }
        return chosen.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { name in
            let path = chosen[name]!
            return isMasked(path) ? nil : path
        }
    }

    /// A drop-in that is a link to /dev/null (a character device when opened), or empty, masks the ones of
    /// its name.
    package static func isMasked(_ path: String) -> Bool {
        guard let fd = try? FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY) else { return false }
        defer { fd.close() }
        guard let status = try? fd.status() else { return false }
        return status.st_mode & S_IFMT == S_IFCHR || (status.st_mode & S_IFMT == S_IFREG && status.st_size == 0)
    }
}
