@preconcurrency import Glibc
import EventLoop
import Sensors

/// Small, synchronous file access for sysfs attributes and the udev database.
///
/// These run on the main loop on purpose: a sysfs attribute read or write is a few hundred bytes served by
/// the kernel from memory (or, for a raw value, one register read by the driver), so it never blocks for
/// long. The character device `/dev/iio:deviceN`, which can block, is only ever read with O_NONBLOCK.
enum Sysfs {
    /// Where sysfs is mounted, given once: every directory below is read from it.
    static let root = "/sys"
    /// IIO devices (accelerometers, light, proximity, compass sensors, triggers).
    static let iioDevices = root + "/bus/iio/devices"
    /// Input devices (evdev accelerometers, proximity switches).
    static let inputClass = root + "/class/input"
    /// Platform devices (Apple's SMC light sensor).
    static let platformDevices = root + "/bus/platform/devices"
    /// hwmon devices (the SMC's light sensor, where it is registered so).
    static let hwmonClass = root + "/class/hwmon"

    /// The contents of a small file; wraps open/read/close.
    static func read(_ path: String) throws(IIOError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw IIOError(path: path, errno: errno) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while total < buffer.count {
            let n = retryingOnInterrupt { buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + total, $0.count - total) } }
            if n < 0 { throw IIOError(path: path, errno: errno) }
            if n == 0 { break }
            total += n
        }
        return String(decoding: buffer[0..<total], as: UTF8.self)
    }

    /// The contents with the trailing newline and blanks removed, or nil when unreadable.
    static func attribute(_ path: String) -> String? {
        (try? read(path))?.trimmedBlanks
    }

    /// Writes `value` to an attribute; wraps open/write/close. O_TRUNC, as a shell's `echo >` does:
    /// sysfs ignores it, and a regular file standing in for an attribute (umockdev) needs it when
    /// the new value is shorter than the old.
    static func write(_ path: String, _ value: String) throws(IIOError) {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw IIOError(path: path, errno: errno) }
        defer { close(fd) }
        let bytes = Array(value.utf8)
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        if n != bytes.count { throw IIOError(path: path, errno: n < 0 ? errno : EIO) }
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

extension String {
    /// Without leading and trailing blanks and newlines, byte by byte (`SysfsNumber.unblanked`).
    var trimmedBlanks: String {
        var copy = self
        return copy.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[SysfsNumber.unblanked($0)]), as: UTF8.self) }
    }
}
