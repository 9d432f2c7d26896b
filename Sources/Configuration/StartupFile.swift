// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls

/// A file named on the command line or in the config (`--config`, `--replay`), read once at start:
/// opened without blocking, so a FIFO or a device node cannot hang the daemon before it serves;
/// refused unless it is a regular file; read up to `limit` bytes, so `/dev/zero` or a huge file
/// cannot grow it without bound.
package enum StartupFile {
    /// Why a file could not be read, in words for the message that stops the daemon.
    package enum Failure: Error {
        case missing
        case refused(String)

        package var message: String {
            switch self {
            case .missing: "no such file"
            case .refused(let why): why
            }
        }
    }

    /// The whole file; opened with `O_NONBLOCK`, checked with fstat, then read.
    package static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        } catch .noSuchFileOrDirectory {
            throw .missing
        } catch {
            throw .refused(error.description)
        }
        defer { fd.close() }
        do {
            let status = try fd.status()
            guard status.st_mode & S_IFMT == S_IFREG else { throw Failure.refused("not a regular file (\(kind(status.st_mode)))") }
            guard Int(status.st_size) <= limit else { throw Failure.refused("larger than \(limit / 1024) KiB (\(status.st_size / 1024) KiB)") }
            // Read to the end whatever st_size says (procfs says 0), one byte past the limit at most.
            var bytes = [UInt8](repeating: 0, count: min(limit, max(Int(status.st_size), 4096)) + 1)
            var total = 0
            while true {
                if total == bytes.count {
                    guard bytes.count <= limit else { throw Failure.refused("larger than \(limit / 1024) KiB") }
                    bytes += [UInt8](repeating: 0, count: min(bytes.count, limit + 1 - bytes.count))
                }
                let n = try fd.read(into: &bytes, from: total)
                if n == 0 { break }
                total += n
            }
            return Array(bytes[0..<total])
        } catch let error as Failure {
            throw error
        } catch {
            throw .refused("\(error)")
        }
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        default: "not a file"
        }
    }
}
