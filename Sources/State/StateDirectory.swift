// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import CGLib
import EventLoop
import SystemCalls

/// The daemon's state directory (dbus-api.md, "State directory"; Docs/security.md, "The state file").
///
/// It is checked once and then used only through a descriptor, so replacing its path later changes
/// nothing. Files are read only when regular and small, and replaced atomically and durably by a
/// short-lived child process, so neither a caller nor the main loop ever waits for the disk.
package final class StateDirectory {
    package let path: String
    private let fd: FileDescriptor

    /// Opens `path`, creating it (mode 0755, with missing parents) when it does not exist. Throws when it is
    /// not a directory, is not owned by the daemon's user, or is writable by others: anyone who may
    /// add files there could plant or swap the state.
    package init(path: String) throws(StateDirectoryError) {
        self.path = path
        var made: Errno? = nil
        do {
            try FileSystem.makeDirectory(path, permissions: 0o755)
        } catch .noSuchFileOrDirectory {
            made = g_mkdir_with_parents(path, 0o755) == 0 ? nil : Errno.current
        } catch {
            made = error
        }
        let created = made == nil
        let directory: FileDescriptor
        do {
            directory = try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY)
        } catch {
            // A directory that is not there because it could not be made (a read-only file system,
            // a parent the daemon may not write) is reported with why it could not be made.
            if error == .noSuchFileOrDirectory, let made, made != .fileExists {
                throw StateDirectoryError("cannot create the state directory \(path): \(made)")
            }
            throw StateDirectoryError("cannot open the state directory \(path): \(error)")
        }
        fd = directory
        let info: stat
        do {
            info = try directory.status()
        } catch {
            directory.close()
            throw StateDirectoryError("cannot check the state directory \(path): \(error)")
        }
        let owner = geteuid()
        guard info.st_uid == owner else {
            directory.close()
            throw StateDirectoryError("the state directory \(path) is owned by uid \(info.st_uid), not by the daemon's user (uid \(owner))")
        }
        guard info.st_mode & 0o022 == 0 else {
            directory.close()
            throw StateDirectoryError("the state directory \(path) is writable by others (mode \(String(info.st_mode & 0o7777, radix: 8))); "
                + "it must be writable by the daemon's user only, e.g. mode 0755")
        }
        // mkdir's mode goes through the umask (0077 under the unit).
        if created { try? directory.setPermissions(0o755) }
    }

    deinit { fd.close() }

    /// What `read` found.
    package enum Contents {
        case missing
        case bytes([UInt8])
        /// Not used, and why (not a regular file, too big, unreadable).
        case refused(String)
    }

    /// Reads `name` when it is a regular file of at most `limit` bytes; meant for the start only.
    /// A symbolic link is not followed and a FIFO does not block the open.
    package func read(_ name: String, limit: Int) -> Contents {
        let file: FileDescriptor
        do {
            file = try fd.open(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        } catch .noSuchFileOrDirectory {
            return .missing
        } catch {
            return .refused(error.rawValue == ELOOP ? "it is a symbolic link" : error.description)
        }
        defer { file.close() }
        do {
            let info = try file.status()
            guard info.st_mode & S_IFMT == S_IFREG else { return .refused("it is \(Self.kind(info.st_mode)), not a regular file") }
            guard info.st_size <= limit else { return .refused("it is \(info.st_size) bytes, more than a state file's \(limit)") }
            // One byte more than allowed tells a file that grew since fstat.
            let bytes = try file.readAll(upTo: limit + 1)
            guard bytes.count <= limit else { return .refused("it is more than a state file's \(limit) bytes") }
            return .bytes(bytes)
        } catch {
            return .refused(error.description)
        }
    }

    /// Removes temporaries of `name` that a crash or power cut left behind.
    package func removeTemporaries(of name: String) {
        let prefix = Self.temporaryPrefix(name)
        // unlinkat removes a link itself, never what it points to.
        for entryName in fd.list() where entryName.utf8.starts(with: prefix.utf8) { try? fd.unlink(entryName) }
    }

    /// A write under way in a child process.
    package final class Writing {
        fileprivate let pid: pid_t
        fileprivate let resultFD: FileDescriptor?
        fileprivate let describe: (DurableWrite.Failure) -> String
        fileprivate var watch: ChildWatch?
        fileprivate var done: ((String?) -> Void)?

        fileprivate init(pid: pid_t, resultFD: FileDescriptor?, describe: @escaping (DurableWrite.Failure) -> String) {
            self.pid = pid
            self.resultFD = resultFD
            self.describe = describe
        }

        /// Waits for the child to end and reports as the loop would have: for shutdown only, when the
        /// last acknowledged state must reach the disk before the process ends.
        func wait() {
            guard let watch, watch.isActive else { return }
            watch.cancel()
            ended((try? ProcessCalls.wait(pid)) ?? -1)
        }

        fileprivate func ended(_ status: Int32) {
            watch = nil
            var failure = DurableWrite.Failure(step: 0, error: 0)
            let n = (try? withUnsafeMutableBytes(of: &failure) { raw throws(Errno) in try resultFD?.read(into: raw) }) ?? 0
            resultFD?.close()
            let outcome: String?
            if status == 0 {
                outcome = nil
            } else if n == MemoryLayout<DurableWrite.Failure>.size {
                outcome = describe(failure)
            } else {
                outcome = "the writer process ended with status \(status)"
            }
            let done = self.done
            self.done = nil
            done?(outcome)
        }
    }

    /// Replaces `name` with `bytes` atomically and durably, in a child process: a fresh temporary opened
    /// with `O_CREAT | O_EXCL | O_NOFOLLOW`, mode 0644, fsync, rename over `name`, fsync of the directory.
    /// `done` runs from the main loop with nil, or with what failed.
    package func replace(_ name: String, with bytes: [UInt8], _ done: @escaping (String?) -> Void) -> Writing {
        let temporary = Self.temporaryPrefix(name) + Self.randomSuffix()
        let describe = describer(name, temporary)
        let result: (read: FileDescriptor, write: FileDescriptor)
        do {
            result = try Subprocess.pipe()
            try result.read.setNonBlocking()
        } catch {
            let writing = Writing(pid: 0, resultFD: nil, describe: describe)
            Idle.schedule { done("cannot start the writer: \(error)") }
            return writing
        }
        let pid: pid_t
        do {
            pid = try DurableWrite.inChild(directory: fd, temporary: temporary, name: name, data: bytes, reportingTo: result.write)
        } catch {
            result.write.close()
            result.read.close()
            Idle.schedule { done("cannot start the writer: \(error)") }
            return Writing(pid: 0, resultFD: nil, describe: describe)
        }
        result.write.close()
        let writing = Writing(pid: pid, resultFD: result.read, describe: describe)
        writing.done = done
        writing.watch = ChildWatch(pid: pid) { [writing] status in writing.ended(status) }
        return writing
    }

    /// As `replace`, in this process, waiting for the disk: for shutdown only.
    package func replaceNow(_ name: String, with bytes: [UInt8]) -> String? {
        let temporary = Self.temporaryPrefix(name) + Self.randomSuffix()
        let failure = DurableWrite.now(directory: fd, temporary: temporary, name: name, data: bytes)
        return failure.step == 0 ? nil : describer(name, temporary)(failure)
    }

    private func describer(_ name: String, _ temporary: String) -> (DurableWrite.Failure) -> String {
        let path = self.path
        return { failure in
            let why = Errno(rawValue: failure.error).description
            switch failure.step {
            case DurableWrite.Step.create: return "cannot create \(path)/\(temporary): \(why)"
            case DurableWrite.Step.rename: return "cannot rename \(path)/\(temporary) to \(name): \(why)"
            case DurableWrite.Step.syncDirectory: return "cannot flush \(path) to the disk: \(why)"
            default: return "cannot write \(path)/\(temporary): \(why)"
            }
        }
    }

    package static func temporaryPrefix(_ name: String) -> String { "." + name + "-" }

    /// 64 random bits, so no other process can guess the next temporary's name.
    private static func randomSuffix() -> String {
        String(UInt64(g_random_int()) << 32 | UInt64(g_random_int()), radix: 16)
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "of an unknown kind"
        }
    }
}

/// Why the state directory cannot be used.
package struct StateDirectoryError: Error {
    package let message: String
    package init(_ message: String) { self.message = message }
}
