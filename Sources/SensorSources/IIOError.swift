@preconcurrency import Glibc

/// What went wrong with an IIO device or one of its files, as a line for the log. A failed
/// system call keeps its errno, as swift-system's `Errno` does.
struct IIOError: Error, CustomStringConvertible {
    let description: String
    /// The errno of the failed system call; nil when the problem is what a file holds.
    let errno: Int32?

    init(_ description: String) {
        self.description = description
        errno = nil
    }

    /// A system call on `path` failed with `errno`: `path: <strerror>`.
    init(path: String, errno: Int32) {
        description = "\(path): \(String(cString: strerror(errno)))"
        self.errno = errno
    }

    private init(description: String, errno: Int32?) {
        self.description = description
        self.errno = errno
    }

    /// The same failure with what was being done in front, e.g. `cannot enable ` + `path: reason`.
    func prefixed(_ doing: String) -> IIOError { IIOError(description: doing + description, errno: errno) }
}
