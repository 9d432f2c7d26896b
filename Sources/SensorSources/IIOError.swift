// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls

/// What went wrong with an IIO device or one of its files, as a line for the log: a failed system
/// call's `Errno` with the path it was made on, or what a file holds.
struct IIOError: Error, CustomStringConvertible {
    let description: String
    /// The failed system call's error; nil when the problem is what a file holds.
    let errno: Errno?

    init(_ description: String) {
        self.description = description
        errno = nil
    }

    /// A system call on `path` failed with `errno`: `path: <strerror>`.
    init(path: String, _ errno: Errno) {
        description = "\(path): \(errno)"
        self.errno = errno
    }

    private init(description: String, errno: Errno?) {
        self.description = description
        self.errno = errno
    }

    /// The same failure with what was being done in front, e.g. `cannot enable ` + `path: reason`.
    func prefixed(_ doing: String) -> IIOError { IIOError(description: doing + description, errno: errno) }
}
