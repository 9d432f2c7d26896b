// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Follow
import Orientation

/// Why an application's desktop file declares nothing, found as the daemon looks (applications.md,
/// "The declaration in force"): `ID.desktop` under `applications/` of the daemon's default data
/// directories, first found; its `X-Orientationd-SupportedOrientations`, else Lomiri's key.
enum DesktopFileLookup {
    /// The directories searched: the daemon's defaults, read from this process's `XDG_DATA_DIRS`.
    static var directories: [String] {
        ApplicationDeclaration.dataDirectories(xdgDataDirs: getenv("XDG_DATA_DIRS").map { String(cString: $0) })
    }

    /// The path of `id`'s desktop file, nil when there is none.
    static func path(of id: String) -> String? {
        directories.map { "\($0)/applications/\(id).desktop" }.first { access($0, R_OK) == 0 }
    }

    /// The application ids of every desktop file found, sorted (for the completions).
    static func applicationIDs() -> [String] {
        var ids: Set<String> = []
        for directory in directories {
            guard let dir = opendir(directory + "/applications") else { continue }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard name.hasSuffix(".desktop"), name.count > 8 else { continue }
                ids.insert(String(name.dropLast(8)))
            }
        }
        return ids.sorted()
    }

    /// One sentence: no file, no key, or the key's value and what is wrong with it.
    static func explain(_ id: String) -> String {
        guard let path = path(of: id) else {
            return "no \(id).desktop in " + directories.map { $0 + "/applications" }.joined(separator: ", ")
        }
        let keys = UserDesktopFiles.desktopEntry(path)
        if let value = keys[ApplicationDeclaration.key] {
            do { _ = try ApplicationDeclaration.mask(orientationd: value) } catch {
                return "\(path): \(ApplicationDeclaration.key)=\(value): \(error.message)"
            }
        }
        if let value = keys[ApplicationDeclaration.lomiriKey] {
            do { _ = try ApplicationDeclaration.mask(lomiri: value) } catch {
                return "\(path): \(ApplicationDeclaration.lomiriKey)=\(value): \(error.message)"
            }
        }
        if keys[ApplicationDeclaration.key] == nil && keys[ApplicationDeclaration.lomiriKey] == nil {
            return "\(path) has no \(ApplicationDeclaration.key)"
        }
        return "\(path) declares orientations, yet the daemon read none: it reads other directories "
            + "([Applications] DataDirs in its config) or passed the file over (its log says why)"
    }
}
