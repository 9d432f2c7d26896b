// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls
import Sensors

/// An evdev accelerometer (`ID_INPUT_ACCELEROMETER=1`, e.g. the lis3lv02d of HP laptops): its
/// `/dev/input/eventN` node, read with `EVIOCGABS` for `ABS_X`, `ABS_Y` and `ABS_Z`, open while polled.
/// Such drivers report about 256 counts per g, as iio-sensor-proxy takes them.
final class InputAccelerometerFiles {
    let node: String
    private let fd: FileDescriptor

    /// Counts per g the input drivers use, turned into m/s² per count.
    static let scale = 9.81 / 256

    /// Where input devices live in sysfs.
    static let classDirectory = Sysfs.inputClass

    init(node: String) throws(IIOError) {
        self.node = node
        do { fd = try FileDescriptor.open(node, O_RDONLY | O_NONBLOCK) } catch { throw IIOError(path: node, error).prefixed("cannot open ") }
    }

    deinit { fd.close() }

    /// `struct input_absinfo`: value, minimum, maximum, fuzz, flat, resolution.
    private struct AbsInfo {
        var value: Int32 = 0, minimum: Int32 = 0, maximum: Int32 = 0, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0
    }

    /// `EVIOCGABS(axis)`: `_IOR('E', 0x40 + axis, struct input_absinfo)`.
    private static func request(_ axis: UInt) -> UInt {
        InputEventNode.request(0x40 + axis, length: MemoryLayout<AbsInfo>.size)
    }

    /// The raw x, y and z (`ABS_X`, `ABS_Y`, `ABS_Z`): three ioctls, nothing allocated.
    func read() throws(IIOError) -> (Double, Double, Double) {
        (try value(0), try value(1), try value(2))
    }

    private func value(_ axis: UInt) throws(IIOError) -> Double {
        var info = AbsInfo()
        do {
            try fd.control(Self.request(axis), &info)
        } catch {
            throw IIOError(path: node, error).prefixed("EVIOCGABS(\(axis)) on ")
        }
        return Double(info.value)
    }

    /// The first input accelerometer by name, as (sysname, sysfs path, node, udev properties), skipping `excluded`.
    static func discover(excluded: String? = nil) -> [(sysname: String, path: String, node: String, udev: UdevProperties)] {
        var found: [(String, String, String, UdevProperties)] = []
        for sysname in Sysfs.list(classDirectory) where sysname.hasPrefix("event") && sysname != excluded {
            let path = classDirectory + "/" + sysname
            let udev = UdevProperties(devicePath: path)
            guard udev["ID_INPUT_ACCELEROMETER"] == "1" else { continue }
            let node = udev.deviceNode(else: "input/" + sysname)
            guard Sysfs.exists(node) else { continue }
            found.append((sysname, path, node, udev))
        }
        return found
    }
}
