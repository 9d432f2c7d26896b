// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import CSystemCalls

/// An open file, device node or socket, as swift-system's `FileDescriptor`: the calls on it, each
/// wrapped once, throwing `Errno`. A value type that does not close itself: its owner calls `close()`.
public struct FileDescriptor: Hashable, Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `open(path, flags | O_CLOEXEC, permissions)`: no descriptor of the daemon leaks into a child.
    public static func open(_ path: String, _ flags: Int32, permissions: mode_t = 0) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try valueOrErrno { Glibc.open(path, flags | O_CLOEXEC, permissions) })
    }

    /// `socket(domain, type | SOCK_CLOEXEC, protocol)`.
    public static func socket(_ domain: Int32, _ type: Int32, _ protocol: Int32) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try valueOrErrno { Glibc.socket(domain, type | Int32(SOCK_CLOEXEC.rawValue), `protocol`) })
    }

    /// Reads at most `buffer.count` bytes; the count read, 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads at most `buffer.count` bytes from `offset`, leaving the file position as it was (`pread`).
    public func read(fromAbsoluteOffset offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { Glibc.pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Reads into `bytes` from index `start` to its end; the count read, 0 at the end of the file.
    public func read(into bytes: inout [UInt8], from start: Int = 0) throws(Errno) -> Int {
        try bytes.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) in try read(into: UnsafeMutableRawBufferPointer(rebasing: raw[start...])) }
        }.get()
    }

    /// Reads into the whole of `bytes` from `offset` (`pread`).
    public func read(fromAbsoluteOffset offset: Int, into bytes: inout [UInt8]) throws(Errno) -> Int {
        try bytes.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) in try read(fromAbsoluteOffset: offset, into: raw) }
        }.get()
    }

    /// Reads until the end of the file or until `limit` bytes, whichever comes first.
    public func readAll(upTo limit: Int) throws(Errno) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: limit)
        var total = 0
        while total < limit {
            let n = try read(into: &bytes, from: total)
            if n == 0 { break }
            total += n
        }
        bytes.removeSubrange(total...)
        return bytes
    }

    /// Writes at most `bytes.count` bytes; the count written.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// Writes `bytes` from index `start`; the count written.
    public func write(_ bytes: [UInt8], from start: Int = 0) throws(Errno) -> Int {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) in try write(UnsafeRawBufferPointer(rebasing: raw[start...])) }
        }.get()
    }

    /// `send(…, MSG_NOSIGNAL)`: a peer that closed its end fails the call with EPIPE, never with SIGPIPE.
    public func send(_ bytes: [UInt8]) throws(Errno) -> Int {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) in try valueOrErrno { Glibc.send(rawValue, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL)) } }
        }.get()
    }

    /// `fstat`.
    public func status() throws(Errno) -> stat {
        var status = stat()
        _ = try valueOrErrno { fstat(rawValue, &status) }
        return status
    }

    /// `ioctl(fd, request, &argument)`, for the input devices' `EVIOCG*` requests, which fill `argument`.
    public func control<Argument>(_ request: UInt, _ argument: inout Argument) throws(Errno) {
        _ = try withUnsafeMutableBytes(of: &argument) { raw in
            Result { () throws(Errno) in try valueOrErrno { ioctl(rawValue, request, raw.baseAddress!) } }
        }.get()
    }

    /// `ioctl(fd, request, bytes)`, for requests that fill a buffer of the length they name.
    public func control(_ request: UInt, _ bytes: inout [UInt8]) throws(Errno) {
        _ = try bytes.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) in try valueOrErrno { ioctl(rawValue, request, raw.baseAddress!) } }
        }.get()
    }

    /// Closes it. Linux frees the descriptor even when close reports an error, so there is nothing to
    /// retry and nothing to throw.
    public func close() { _ = Glibc.close(rawValue) }

    /// Whether the descriptor is a terminal (`isatty`).
    public var isTerminal: Bool { isatty(rawValue) != 0 }

    /// Sets close-on-exec (`FD_CLOEXEC`), for a descriptor another call handed out without it.
    public func setCloseOnExec() throws(Errno) {
        _ = try valueOrErrno { fcntl(rawValue, F_SETFD, FD_CLOEXEC) }
    }
}

/// File-system calls that take a path rather than a descriptor.
public enum FileSystem {
    /// Whether `path` exists (`access(path, F_OK)`), following symbolic links.
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether the process may write `path`.
    public static func isWritable(_ path: String) -> Bool { access(path, W_OK) == 0 }

    /// Why the process may not run `path`, or nil when it may (`access(path, X_OK)`).
    public static func executionError(_ path: String) -> Errno? { access(path, X_OK) == 0 ? nil : Errno.current }

    /// `stat(path)`: what the file is, its size and times; nil when it cannot be reached.
    public static func status(_ path: String) -> stat? {
        var info = stat()
        return stat(path, &info) == 0 ? info : nil
    }

    /// Whether the directory `path` is the kernel's sysfs, where the kernel makes every attribute and
    /// never replaces one: the directory opened and the kernel asked with the `fstatfs` system call
    /// itself (a test bed that stands in for sysfs may wrap the C library's `statfs` and answer
    /// sysfs for its own files). False when it cannot be told.
    public static func isSysfs(_ path: String) -> Bool {
        guard let directory = try? FileDescriptor.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) else { return false }
        defer { directory.close() }
        var info = statfs()
        return kernel_fstatfs(directory.rawValue, &info) == 0 && info.f_type == 0x6265_6572  // SYSFS_MAGIC, linux/magic.h
    }

    /// The target of the symbolic link `path`, nil when it is none.
    public static func linkTarget(_ path: String) -> String? {
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &target, target.count - 1)
        return count > 0 ? String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    /// Why `path` cannot be reached, or nil when it can (`access(path, F_OK)`).
    public static func existenceError(_ path: String) -> Errno? { access(path, F_OK) == 0 ? nil : Errno.current }

    /// `mkdir(path, permissions)`.
    public static func makeDirectory(_ path: String, permissions: mode_t) throws(Errno) {
        _ = try valueOrErrno { mkdir(path, permissions) }
    }

    /// Names in a directory, sorted, without `.` and `..`; empty when it cannot be read.
    public static func list(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        return names(dir)
    }

    /// The names an open directory stream holds, sorted, without `.` and `..`; closes the stream.
    fileprivate static func names(_ dir: OpaquePointer) -> [String] {
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}

extension FileDescriptor {
    /// The names in this directory, sorted, without `.` and `..` (read through a copy of the
    /// descriptor, from the start); empty when it cannot be read.
    public func list() -> [String] {
        let copy = dup(rawValue)
        guard copy >= 0 else { return [] }
        guard let dir = fdopendir(copy) else {
            Glibc.close(copy)
            return []
        }
        rewinddir(dir)
        return FileSystem.names(dir)
    }

    /// `unlinkat(self, name, 0)`: removes the link `name` inside this directory, never what it points to.
    public func unlink(_ name: String) throws(Errno) {
        _ = try valueOrErrno { unlinkat(rawValue, name, 0) }
    }

    /// `openat(self, name, flags | O_CLOEXEC, permissions)`: `name` inside this directory, whatever its path is now.
    public func open(_ name: String, _ flags: Int32, permissions: mode_t = 0) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try valueOrErrno { openat(rawValue, name, flags | O_CLOEXEC, permissions) })
    }

    /// `fchmod`: the mode asked for, whatever the umask made of it.
    public func setPermissions(_ mode: mode_t) throws(Errno) {
        _ = try valueOrErrno { fchmod(rawValue, mode) }
    }
}

/// Processes: the one wait the daemon and its tools make for a child.
public enum ProcessCalls {
    /// `waitpid(pid, &status, 0)`, retried on EINTR: the child's raw wait status.
    public static func wait(_ pid: pid_t) throws(Errno) -> Int32 {
        var status: Int32 = 0
        _ = try valueOrErrno { waitpid(pid, &status, 0) }
        return status
    }

    /// This process's id (`getpid`).
    public static var ownID: pid_t { getpid() }

    /// The user this process runs as (`getuid`).
    public static var userID: uid_t { getuid() }

    /// The login name of the user this process runs as, "" when it has none.
    public static var userName: String { getpwuid(getuid()).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } ?? "" }

    /// Asks process `pid` to end (`SIGTERM`).
    public static func terminate(_ pid: pid_t) {
        kill(pid, SIGTERM)
    }

    /// The command name of process `pid` (`/proc/PID/comm`), nil when it cannot be read.
    public static func command(of pid: pid_t) -> String? {
        guard let fd = try? FileDescriptor.open("/proc/\(pid)/comm", O_RDONLY | O_CLOEXEC) else { return nil }
        defer { fd.close() }
        guard let bytes = try? fd.readAll(upTo: 256) else { return nil }
        let line = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        return line.isEmpty ? nil : line
    }
}

/// The calls on a socket.
extension FileDescriptor {
    /// `bind` to the address `address` points at, of `length` bytes.
    public func bind(_ address: UnsafeRawPointer, length: Int) throws(Errno) {
        _ = try valueOrErrno { Glibc.bind(rawValue, address.assumingMemoryBound(to: sockaddr.self), socklen_t(length)) }
    }

    /// `setsockopt(level, option)` with the `length` bytes at `value`.
    public func setOption(_ level: Int32, _ option: Int32, _ value: UnsafeRawPointer, length: Int) throws(Errno) {
        _ = try valueOrErrno { setsockopt(rawValue, level, option, value, socklen_t(length)) }
    }

    /// `recvmsg(message, 0)`: the bytes received, 0 when the peer closed.
    public func receive(_ message: UnsafeMutablePointer<msghdr>) throws(Errno) -> Int {
        try valueOrErrno { recvmsg(rawValue, message, 0) }
    }
}

extension FileDescriptor {
    /// `connect` to the address `address` points at, of `length` bytes.
    public func connect(_ address: UnsafeRawPointer, length: Int) throws(Errno) {
        _ = try valueOrErrno { Glibc.connect(rawValue, address.assumingMemoryBound(to: sockaddr.self), socklen_t(length)) }
    }

    /// Makes reads and writes fail with EAGAIN rather than wait (`O_NONBLOCK`).
    public func setNonBlocking() throws(Errno) {
        let flags = try valueOrErrno { fcntl(rawValue, F_GETFL) }
        _ = try valueOrErrno { fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Waits up to `timeoutMs` for it to become readable (`poll`, retried on EINTR); whether it did.
    public func waitReadable(timeoutMs: Int32) throws(Errno) -> Bool {
        var ready = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        return try valueOrErrno { poll(&ready, 1, timeoutMs) } > 0
    }
}
