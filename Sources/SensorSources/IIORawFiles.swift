// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls
import Sensors

/// Polled attributes of one device (an accelerometer's `in_accel_{x,y,z}_raw`, a light sensor's
/// `in_illuminance_input`), open while it is polled.
///
/// A poll is one `pread` at offset 0 per attribute and nothing else (sysfs produces the value afresh on every
/// read from the start), where open, read and close each time cost three system calls and a path walk
/// per axis. The kernel's sysfs never replaces an attribute under its descriptor; a fake sysfs
/// (umockdev), which is not sysfs, does, and removes a device's directory, which `ReplacedFileWatch`
/// tells with one non-blocking read of its inotify queue per poll: a replaced file is opened again
/// before its next read, and a removed directory fails the read as a vanished file does. On sysfs
/// there is no watch, and a poll is the `pread`s alone.
final class IIORawFiles {
    private let paths: [String]
    private var fds: [FileDescriptor] = []
    private let replacements: ReplacedFileWatch?
    /// One attribute's text: a number and a newline.
    private var buffer = [UInt8](repeating: 0, count: 64)

    /// Opens the three axes of the accelerometer at `devicePath`; throws the first that cannot be opened.
    convenience init(devicePath: String) throws(IIOError) {
        try self.init(paths: IIODevice.axes.map { "\(devicePath)/in_accel_\($0)_raw" })
    }

    /// Opens `paths`; throws the first that cannot be opened.
    init(paths: [String]) throws(IIOError) {
        self.paths = paths
        // Watched before opening, so a replacement made in between is seen.
        replacements = ReplacedFileWatch(paths: paths)
        for path in paths {
            do {
                fds.append(try FileDescriptor.open(path, O_RDONLY))
            } catch {
                close()
                throw IIOError(path: path, error)
            }
        }
    }

    deinit { close() }

    /// The raw x, y and z; a message naming the file that failed or holds no number.
    func read() throws(IIOError) -> (Double, Double, Double) {
        (try value(0), try value(1), try value(2))
    }

    /// The text of attribute `index`, read afresh.
    func text(_ index: Int) throws(IIOError) -> String {
        let n = try pread(index)
        return String(decoding: buffer[0..<n], as: UTF8.self)
    }

    func value(_ axis: Int) throws(IIOError) -> Double {
        let n = try pread(axis)
        guard let number = buffer.withUnsafeBufferPointer({ SysfsNumber.parse(bytes: UnsafeBufferPointer(rebasing: $0[0..<n])) }) else {
            let text = String(decoding: buffer[0..<n], as: UTF8.self)
            throw IIOError("\(paths[axis]) holds '\(text.trimmedBlanks.prefix(40))', not a number")
        }
        return number
    }

    /// Reads the attribute from its start; the byte count.
    private func pread(_ axis: Int) throws(IIOError) -> Int {
        if let replacements {
            // Once per poll: the first attribute is read first.
            if axis == 0 { replacements.refresh() }
            if replacements.anyReplaced || replacements.directoryRemoved { try reopen(axis, replacements) }
        }
        let fd = fds[axis]
        do {
            return try fd.read(fromAbsoluteOffset: 0, into: &buffer)
        } catch {
            throw IIOError(path: paths[axis], error)
        }
    }

    /// Opens attribute `axis` again when it was replaced; fails as a vanished file does when its
    /// directory was removed.
    private func reopen(_ axis: Int, _ replacements: ReplacedFileWatch) throws(IIOError) {
        let path = paths[axis]
        if replacements.directoryRemoved { throw IIOError(path: path, .noSuchFileOrDirectory) }
        guard replacements.takeReplaced(axis) else { return }
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, O_RDONLY) } catch { throw IIOError(path: path, error) }
        fds[axis].close()
        fds[axis] = fd
    }

    private func close() {
        for fd in fds { fd.close() }
        fds = []
    }
}
