// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls
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

    /// The contents of a small file (at most a page, as sysfs gives).
    static func read(_ path: String) throws(IIOError) -> String {
        do {
            let fd = try FileDescriptor.open(path, O_RDONLY)
            defer { fd.close() }
            return String(decoding: try fd.readAll(upTo: 4096), as: UTF8.self)
        } catch {
            throw IIOError(path: path, error)
        }
    }

    /// The contents with the trailing newline and blanks removed, or nil when unreadable.
    static func attribute(_ path: String) -> String? {
        (try? read(path))?.trimmedBlanks
    }

    /// Writes `value` to an attribute; wraps open/write/close. O_TRUNC, as a shell's `echo >` does:
    /// sysfs ignores it, and a regular file standing in for an attribute (umockdev) needs it when
    /// the new value is shorter than the old.
    static func write(_ path: String, _ value: String) throws(IIOError) {
        do throws(Errno) {
            let fd = try FileDescriptor.open(path, O_WRONLY | O_TRUNC)
            defer { fd.close() }
            // An attribute takes its value in one write: a short one is the driver refusing the rest.
            let bytes = Array(value.utf8)
            let n = try fd.write(bytes)
            if n != bytes.count { throw Errno.ioError }
        } catch {
            throw IIOError(path: path, error)
        }
    }

    static func exists(_ path: String) -> Bool { FileSystem.exists(path) }

    static func isWritable(_ path: String) -> Bool { FileSystem.isWritable(path) }

    /// Names in a directory, sorted, without `.` and `..`; empty when it cannot be read.
    static func list(_ path: String) -> [String] { FileSystem.list(path) }
}

extension String {
    /// Without leading and trailing blanks and newlines, byte by byte (`SysfsNumber.unblanked`).
    var trimmedBlanks: String {
        var copy = self
        return copy.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[SysfsNumber.unblanked($0)]), as: UTF8.self) }
    }
}
