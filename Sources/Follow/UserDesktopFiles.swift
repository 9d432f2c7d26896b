// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Orientation
import SystemCalls

/// The user's own desktop files (Docs/applications.md, "The application in front"), read on the session
/// side because the system daemon reads no home directory: `applications/` under `$XDG_DATA_HOME`
/// (default `~/.local/share`) and under the user's Flatpak exports
/// (`~/.local/share/flatpak/exports/share`), first found, as the desktop finds them. Only the two
/// orientation keys of `[Desktop Entry]` are taken; the daemon checks their values as it checks any
/// desktop file's.
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

    /// The orientation keys of `id`'s desktop file in the first directory that has one; empty when
    /// none has, or the file has neither key.
    public func orientationKeys(of id: String) -> [String: String] {
        guard ApplicationID(rawValue: id) != nil else { return [:] }
        for directory in directories {
            let path = "\(directory)/\(id).desktop"
            guard FileSystem.exists(path) else { continue }
            let entries = Self.desktopEntry(path)
            return entries.filter { $0.key == ApplicationDeclaration.key || $0.key == ApplicationDeclaration.lomiriKey }
        }
        return [:]
    }

    /// The largest desktop file read, as the daemon's limit.
    public static let maxFileBytes = 64 * 1024

    /// The keys of the file's `[Desktop Entry]` group, first of each (at most its first 64 KiB).
    public static func desktopEntry(_ path: String) -> [String: String] {
        guard let fd = try? FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) else { return [:] }
        defer { fd.close() }
        guard let bytes = try? fd.readAll(upTo: maxFileBytes) else { return [:] }
        var group = "", keys: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix("[") { group = String(line); continue }
            guard group == "[Desktop Entry]", !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = Self.trimmed(line[..<equals]), value = Self.trimmed(line[line.index(after: equals)...])
            if keys[key] == nil { keys[key] = value }
        }
        return keys
    }

    private static func trimmed(_ text: Substring) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(text.drop(while: blank).reversed().drop(while: blank).reversed())
    }
}
