// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Sensors

/// A hinge sensor (Docs/sensors.md, "Posture", source 1): an IIO device with angle channels, e.g. Intel sensor
/// hubs' `hid-sensor-custom-intel-hinge`, named `hinge`. Channel 0 is the hinge, 1 the screen, 2 the
/// keyboard; each is (raw + offset) × scale radians, with the channel's own scale and offset or the
/// shared `in_angl_scale` and `in_angl_offset`. Scales and offsets are read once, when it is found:
/// each reading then reads only the raw values.
struct HingeSensor {
    let sysname: String
    let path: String
    /// Degrees per raw count and the raw offset, of the hinge and (when the sensor has it) the keyboard.
    let hinge: (scale: Double, offset: Double)
    let keyboard: (scale: Double, offset: Double)?

    /// The first IIO device, by name, with `in_angl0_raw`, but `excluded`.
    static func discover(excluded: String? = nil) -> HingeSensor? {
        for sysname in Sysfs.list(Sysfs.iioDevices).sorted() where sysname != excluded {
            let path = Sysfs.iioDevices + "/" + sysname
            if Sysfs.exists(path + "/in_angl0_raw") { return HingeSensor(sysname: sysname, path: path) }
        }
        return nil
    }

    private init(sysname: String, path: String) {
        self.sysname = sysname
        self.path = path
        func calibration(_ index: Int) -> (scale: Double, offset: Double) {
            let scale = (Sysfs.attribute(path + "/in_angl\(index)_scale") ?? Sysfs.attribute(path + "/in_angl_scale"))
                .flatMap(SysfsNumber.parse) ?? 1
            let offset = (Sysfs.attribute(path + "/in_angl\(index)_offset") ?? Sysfs.attribute(path + "/in_angl_offset"))
                .flatMap(SysfsNumber.parse) ?? 0
            return (scale * 180 / Double.pi, offset)
        }
        hinge = calibration(0)
        keyboard = Sysfs.exists(path + "/in_angl2_raw") ? calibration(2) : nil
    }
}
