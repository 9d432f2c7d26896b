// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Sensors

/// An accelerometer in a convertible's base (Docs/sensors.md, "Posture", source 2): the first, by name, that
/// discovery passes over for being in the base and that can be polled, with its calibration and its
/// own mount matrix (systemd's hwdb frame: its readings agree with the display's when the lid is closed).
struct BaseAccelerometer {
    let sysname: String
    let path: String
    let calibration: IIOCalibration
    let matrix: MountMatrix

    static func discover(excluded: String? = nil) -> BaseAccelerometer? {
        for entry in IIODevice.discover(configMatrix: nil, excluded: excluded, loading: false).inBase {
            let path = IIODevice.busDirectory + "/" + entry.sysname
            guard IIODevice.axes.allSatisfy({ Sysfs.exists("\(path)/in_accel_\($0)_raw") }),
                  let calibration = try? IIOCalibration.read(path) else { continue }
            let matrix = IIODevice.mountMatrix(path: path, sysname: entry.sysname, udev: UdevProperties(devicePath: path),
                                               config: nil).0
            return BaseAccelerometer(sysname: entry.sysname, path: path, calibration: calibration, matrix: matrix)
        }
        return nil
    }
}
