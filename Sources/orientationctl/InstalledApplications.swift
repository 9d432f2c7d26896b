// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls
import Orientation

/// The applications installed where desktop files are looked for by default (`XDG_DATA_DIRS`, then
/// Flatpak's exports), for the completions. What an application declares, and why, the daemon says
/// (`ExplainApplicationDeclaration`): it reads the files, from directories that need not be these.
enum InstalledApplications {
    /// The application ids of every desktop file found, sorted.
    static func ids() -> [String] {
        let directories = ApplicationDeclaration.dataDirectories(xdgDataDirs: getenv("XDG_DATA_DIRS").map { String(cString: $0) })
        var ids: Set<String> = []
        for directory in directories {
            for name in FileSystem.list(directory + "/applications") where name.hasSuffix(".desktop") && name.count > 8 {
                ids.insert(String(name.dropLast(8)))
            }
        }
        return ids.sorted()
    }
}
