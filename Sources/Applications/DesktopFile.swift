// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls
import Configuration
import Orientation

/// A desktop file as orientationd reads one, the daemon and the session's reporter alike: a regular
/// file of at most 64 KiB, parsed as a GLib key file, of which only the two orientation keys of
/// `[Desktop Entry]` are taken.
package enum DesktopFile {
    /// The largest desktop file read.
    package static let maxFileBytes = 64 * 1024

    /// The orientation keys of the file at `path` (`ApplicationDeclaration.key` and `lomiriKey`, those
    /// it has), or why it is passed over: not a regular file of at most `maxFileBytes`, unreadable, or
    /// no desktop file.
    package static func orientationKeys(_ path: String) -> Result<[String: String], PassedOver> {
        guard let info = FileSystem.status(path) else { return .failure(PassedOver("cannot be read")) }
        return orientationKeys(path, status: info)
    }

    /// As `orientationKeys(_:)`, for a file whose `stat` the caller has already made.
    package static func orientationKeys(_ path: String, status info: stat) -> Result<[String: String], PassedOver> {
        guard (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= maxFileBytes else {
            return .failure(PassedOver("is not a regular file of at most \(maxFileBytes / 1024) KiB"))
        }
        guard let fd = try? FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) else {
            return .failure(PassedOver("cannot be read"))
        }
        defer { fd.close() }
        guard let bytes = try? fd.readAll(upTo: maxFileBytes + 1), bytes.count <= maxFileBytes else {
            return .failure(PassedOver("cannot be read"))
        }
        let file = KeyFile()
        do { try file.load(data: bytes) } catch { return .failure(PassedOver("is not a desktop file (\(error.message))")) }
        var keys: [String: String] = [:]
        for key in [ApplicationDeclaration.key, ApplicationDeclaration.lomiriKey] {
            if let value = file.string("Desktop Entry", key) { keys[key] = value }
        }
        return .success(keys)
    }

    /// Why a file is passed over, in words that follow its path.
    package struct PassedOver: Error {
        package let why: String
        init(_ why: String) { self.why = why }
    }
}
