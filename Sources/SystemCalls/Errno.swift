// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc

// The SystemCalls module: the one layer that makes system calls on files, devices and sockets for
// the daemon and its tools, each wrapped once, with one error type. Modelled on swift-system: a
// failed call throws its `Errno`, a descriptor is a `FileDescriptor`, and EINTR is retried here so
// no caller reads `errno` or loops on it. Errors with more to say (which path, what was being
// done) are the callers', built around the `Errno` they caught.

/// The error number a failed system call left, as swift-system's `Errno`: its text is strerror's.
public struct Errno: Error, Hashable, CustomStringConvertible, Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno` now: read it right after the call that failed.
    public static var current: Errno { Errno(rawValue: errno) }

    /// strerror's words, e.g. `No such file or directory`.
    public var description: String { String(cString: strerror(rawValue)) }

    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let interrupted = Errno(rawValue: EINTR)
    public static let ioError = Errno(rawValue: EIO)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let noBufferSpace = Errno(rawValue: ENOBUFS)
}

/// The result of `call`, a system call that answers -1 and sets errno on failure, called again while
/// it fails with EINTR (a signal arrived before it did anything), as swift-system's
/// `valueOrErrno(retryOnInterrupt:)` does; any other failure throws its `Errno`.
@inlinable
public func valueOrErrno<Result: BinaryInteger>(_ call: () -> Result) throws(Errno) -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        let error = Errno.current
        if error != .interrupted { throw error }
    }
}
