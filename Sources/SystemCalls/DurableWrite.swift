// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import CSystemCalls

/// The durable replacement of one file: a fresh temporary opened with `O_CREAT | O_EXCL | O_NOFOLLOW`,
/// mode 0644, written, fsync, renamed over the name, fsync of the directory. It runs in a forked child
/// (`inChild`), where nothing that allocates or takes a lock may run: there it calls the C functions
/// themselves and hands its errno back raw through a pipe, for `Errno` to say in the parent.
public enum DurableWrite {
    /// The step that failed (0: none) and its errno.
    public struct Failure {
        public var step: Int32
        public var error: Int32

        public init(step: Int32, error: Int32) {
            self.step = step
            self.error = error
        }
    }

    public enum Step {
        public static let create: Int32 = 1
        public static let mode: Int32 = 2
        public static let write: Int32 = 3
        public static let syncFile: Int32 = 4
        public static let close: Int32 = 5
        public static let rename: Int32 = 6
        public static let syncDirectory: Int32 = 7
    }

    /// Forks a child that replaces `name` in `directory` with `data`, writes its `Failure` to
    /// `reportingTo` when a step fails, and exits with status 0 (done) or 1. Everything the child
    /// touches is prepared before the fork. The child's pid; throws when it cannot be forked.
    public static func inChild(directory: FileDescriptor, temporary: String, name: String, data: [UInt8],
                               reportingTo report: FileDescriptor) throws(Errno) -> pid_t {
        let pid = temporary.withCString { temporaryName in
            name.withCString { finalName in
                data.withUnsafeBytes { bytes in
                    let pid = fork()
                    if pid == 0 {
                        closeAllBut(directory.rawValue, report.rawValue)
                        var failure = run(directory: directory.rawValue, temporary: temporaryName, name: finalName, data: bytes)
                        if failure.step != 0 { _ = withUnsafeBytes(of: &failure) { Glibc.write(report.rawValue, $0.baseAddress!, $0.count) } }
                        _exit(failure.step == 0 ? 0 : 1)
                    }
                    return pid
                }
            }
        }
        guard pid > 0 else { throw Errno.current }
        return pid
    }

    /// As `inChild`, in this process, waiting for the disk: for shutdown only.
    public static func now(directory: FileDescriptor, temporary: String, name: String, data: [UInt8]) -> Failure {
        data.withUnsafeBytes { run(directory: directory.rawValue, temporary: temporary, name: name, data: $0) }
    }

    static func run(directory: Int32, temporary: UnsafePointer<CChar>, name: UnsafePointer<CChar>,
                    data: UnsafeRawBufferPointer) -> Failure {
        // O_EXCL with O_CREAT fails on any existing name, a symbolic link included; O_NOFOLLOW says so twice.
        let file = openat(directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard file >= 0 else { return Failure(step: Step.create, error: errno) }
        func fail(_ step: Int32) -> Failure {
            let error = errno
            Glibc.close(file)
            unlinkat(directory, temporary, 0)
            return Failure(step: step, error: error)
        }
        // The mode given to openat went through the umask.
        guard fchmod(file, 0o644) == 0 else { return fail(Step.mode) }
        var offset = 0
        while offset < data.count {
            let n = Glibc.write(file, data.baseAddress! + offset, data.count - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return fail(Step.write) }
            offset += n
        }
        guard fsync(file) == 0 else { return fail(Step.syncFile) }
        guard Glibc.close(file) == 0 else {
            let error = errno
            unlinkat(directory, temporary, 0)
            return Failure(step: Step.close, error: error)
        }
        // rename replaces a link at `name` itself; it never writes through it.
        guard renameat(directory, temporary, directory, name) == 0 else {
            let error = errno
            unlinkat(directory, temporary, 0)
            return Failure(step: Step.rename, error: error)
        }
        guard fsync(directory) == 0 else { return Failure(step: Step.syncDirectory, error: errno) }
        return Failure(step: 0, error: 0)
    }

    /// Closes every descriptor but `a` and `b` (and 0–2), so the child holds neither the bus
    /// connection nor a device open should it outlive the daemon.
    static func closeAllBut(_ a: Int32, _ b: Int32) {
        let low = UInt32(min(a, b)), high = UInt32(max(a, b))
        if low > 3 { close_range(3, low - 1, 0) }
        if high > low + 1 { close_range(low + 1, high - 1, 0) }
        close_range(high + 1, UInt32.max, 0)
    }
}
