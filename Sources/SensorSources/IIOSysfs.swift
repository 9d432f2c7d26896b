@preconcurrency import Glibc

/// Small, synchronous file access for sysfs attributes and the udev database.
///
/// These run on the main loop on purpose: a sysfs attribute read or write is a few hundred bytes served by
/// the kernel from memory (or, for a raw value, one register read by the driver), so it never blocks for
/// long. The character device `/dev/iio:deviceN`, which can block, is only ever read with O_NONBLOCK.
enum Sysfs {
    /// The contents of a small file; wraps open/read/close. The error is the errno name and message.
    static func read(_ path: String) -> Result<String, SysfsError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(SysfsError(path: path, errno: errno)) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while total < buffer.count {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + total, $0.count - total) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(SysfsError(path: path, errno: errno))
            }
            if n == 0 { break }
            total += n
        }
        return .success(String(decoding: buffer[0..<total], as: UTF8.self))
    }

    /// The contents with the trailing newline and blanks removed, or nil when unreadable.
    static func attribute(_ path: String) -> String? {
        guard case .success(let text) = read(path) else { return nil }
        return text.trimmedBlanks
    }

    /// Writes `value` to an attribute; wraps open/write/close. Returns the errno on failure.
    @discardableResult
    static func write(_ path: String, _ value: String) -> SysfsError? {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return SysfsError(path: path, errno: errno) }
        defer { close(fd) }
        let bytes = Array(value.utf8)
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        return n == bytes.count ? nil : SysfsError(path: path, errno: n < 0 ? errno : EIO)
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func isWritable(_ path: String) -> Bool { access(path, W_OK) == 0 }

    /// Names in a directory, sorted, without `.` and `..`; empty when it cannot be read.
    static func list(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
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

/// A failed file operation: which file and the errno.
struct SysfsError: Error, CustomStringConvertible {
    let path: String
    let errno: Int32
    var description: String { "\(path): \(String(cString: strerror(errno)))" }
}

extension String {
    /// Without leading and trailing blanks and newlines.
    var trimmedBlanks: String {
        let blanks: Set<Character> = [" ", "\t", "\n", "\r"]
        var s = Substring(self)
        while let c = s.first, blanks.contains(c) { s = s.dropFirst() }
        while let c = s.last, blanks.contains(c) { s = s.dropLast() }
        return String(s)
    }
}
