// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Orientation
import SystemCalls
import Applications

/// The user's own desktop files (Docs/applications.md, "The application in front"), read on the session
/// side because the system daemon reads no home directory: `applications/` under `$XDG_DATA_HOME`
/// (default `~/.local/share`) and under the user's Flatpak exports
/// (`~/.local/share/flatpak/exports/share`), first found, as the desktop finds them. Only the two
/// orientation keys of `[Desktop Entry]` are taken (`DesktopFile`); the daemon checks their values as
/// it checks any desktop file's.
public struct UserDesktopFiles: Sendable {
    /// The directories searched, in order.
    public let directories: [String]

    public init(directories: [String]) {
        self.directories = directories
    }

    /// The user's directories, from this process's environment; none without a home.
    public static func fromEnvironment() -> UserDesktopFiles {
        let home = getenv("HOME").map { String(cString: $0) } ?? ""
        let dataHome = getenv("XDG_DATA_HOME").map { String(cString: $0) }.flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (home.hasPrefix("/") ? home + "/.local/share" : nil)
        guard let dataHome else { return UserDesktopFiles(directories: []) }
        var directories = [dataHome + "/applications"]
        if home.hasPrefix("/") { directories.append(home + "/.local/share/flatpak/exports/share/applications") }
        return UserDesktopFiles(directories: directories)
    }

    /// The orientation keys of `id`'s desktop file in the first directory that has one, read as the
    /// daemon reads a desktop file (`DesktopFile`); empty when none has, or the file has neither key
    /// or is passed over.
    public func orientationKeys(of id: String) -> [String: String] {
        guard ApplicationID(rawValue: id) != nil else { return [:] }
        for directory in directories {
            let path = "\(directory)/\(id).desktop"
            guard FileSystem.exists(path) else { continue }
            return (try? DesktopFile.orientationKeys(path).get()) ?? [:]
        }
        return [:]
    }
}
