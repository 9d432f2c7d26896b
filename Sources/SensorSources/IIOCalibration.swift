// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Sensors

/// Per-axis scale and offset of an accelerometer.
struct IIOCalibration {
    var scale: [Double]
    var offset: [Double]

    /// Scale from `in_accel_{x,y,z}_scale`, `in_accel_scale` or `scale` (1 when none), offset from
    /// `in_accel_{x,y,z}_offset` or `in_accel_offset` (0 when none); a message for a garbage or zero value.
    static func read(_ path: String) throws(IIOError) -> IIOCalibration {
        var result = IIOCalibration(scale: [], offset: [])
        for axis in IIODevice.axes {
            for (names, fallback, isScale) in [(["in_accel_\(axis)_scale", "in_accel_scale", "scale"], 1.0, true),
                                               (["in_accel_\(axis)_offset", "in_accel_offset"], 0.0, false)] {
                var value = fallback
                for name in names {
                    guard let text = try? Sysfs.read("\(path)/\(name)") else { continue }
                    guard let number = SysfsNumber.parse(text), !isScale || number != 0 else {
                        throw IIOError("\(path)/\(name) holds '\(text.trimmedBlanks.prefix(40))', not a usable number")
                    }
                    value = number
                    break
                }
                if isScale { result.scale.append(value) } else { result.offset.append(value) }
            }
        }
        return result
    }

    /// A raw reading in m/s² in the display's frame: (raw + offset) × scale per axis, then `matrix`.
    func apply(_ rx: Double, _ ry: Double, _ rz: Double, _ matrix: MountMatrix) -> (x: Double, y: Double, z: Double) {
        matrix.apply(x: (rx + offset[0]) * scale[0], y: (ry + offset[1]) * scale[1], z: (rz + offset[2]) * scale[2])
    }
}
