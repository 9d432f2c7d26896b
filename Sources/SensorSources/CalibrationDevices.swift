// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Sensors

/// An accelerometer as `orientationctl calibrate` sees it (Docs/sensors.md, "Calibration"): found as
/// the daemon finds it, read raw (its scale and offset applied, no mount matrix), with what udev's
/// hwdb match needs. For the tool only: the daemon reads through its drivers.
public struct CalibrationAccelerometer {
    /// `iio:device0`.
    public let sysname: String
    /// True for the one in a laptop's base, false for the display's.
    public let inBase: Bool
    /// The sysfs `label` (`accel-display`, `accel-base`), which puts the label form in the hwdb match.
    public let label: String?
    /// The matrix the daemon uses now (the configuration's, else udev's, else sysfs's) and where from.
    public let matrixInForce: MountMatrix
    public let matrixSource: String
    /// The `modalias` of the nearest parent that has one (udev's `$attr{modalias}`), nil when none does.
    public let parentModalias: String?
    /// `/dev/iio:device0`, for `udevadm trigger`.
    public let deviceNode: String
    private let path: String
    private let calibration: IIOCalibration

    /// The display's accelerometer and the base's, as the daemon would take them; `configMatrix` is
    /// `[Sensor] MountMatrix`, which goes before udev's for the display's. Throws why one cannot be read.
    public static func find(configMatrix: MountMatrix?) throws(CalibrationDeviceError) -> [CalibrationAccelerometer] {
        var found: [CalibrationAccelerometer] = []
        if let display = IIODevice.discover(configMatrix: configMatrix).device {
            guard display.inputNode == nil else {
                throw CalibrationDeviceError(message: "\(display.sysname) is an input device, whose axes its kernel driver sets: "
                                             + "calibrate reads IIO accelerometers only")
            }
            found.append(try CalibrationAccelerometer(display.path, display.sysname, inBase: false, configMatrix: configMatrix))
        }
        if let base = BaseAccelerometer.discover() {
            found.append(try CalibrationAccelerometer(base.path, base.sysname, inBase: true, configMatrix: nil))
        }
        return found
    }

    private init(_ path: String, _ sysname: String, inBase: Bool, configMatrix: MountMatrix?) throws(CalibrationDeviceError) {
        self.path = path
        self.sysname = sysname
        self.inBase = inBase
        let udev = UdevProperties(devicePath: path)
        label = Sysfs.attribute(path + "/label").flatMap { $0.isEmpty ? nil : $0 }
        (matrixInForce, matrixSource) = IIODevice.mountMatrix(path: path, sysname: sysname, udev: udev, config: configMatrix)
        deviceNode = udev.deviceNode(else: sysname)
        var parent = path + "/.."
        var modalias: String?
        for _ in 0..<8 {
            if let text = Sysfs.attribute(parent + "/modalias"), !text.isEmpty {
                modalias = text
                break
            }
            parent += "/.."
        }
        parentModalias = modalias
        do { calibration = try IIOCalibration.read(path) } catch { throw CalibrationDeviceError(message: error.description) }
    }

    /// One reading in g along the sensor's own axes, nil when an attribute cannot be read.
    public func readRaw() -> (x: Double, y: Double, z: Double)? {
        var values: [Double] = []
        for axis in IIODevice.axes {
            guard let value = Sysfs.attribute("\(path)/in_accel_\(axis)_raw").flatMap(SysfsNumber.parse) else { return nil }
            values.append(value)
        }
        let v = calibration.apply(values[0], values[1], values[2], .identity)
        return (v.x / ClassifierSettings.gravity, v.y / ClassifierSettings.gravity, v.z / ClassifierSettings.gravity)
    }

    /// The machine's DMI modalias, vendor and product name, as udev's match and the hwdb comment use them.
    public static func machine() -> (modalias: String?, vendor: String, product: String) {
        let dmi = Sysfs.root + "/class/dmi/id"
        return (Sysfs.attribute(dmi + "/modalias"), Sysfs.attribute(dmi + "/sys_vendor") ?? "",
                Sysfs.attribute(dmi + "/product_name") ?? "")
    }

    /// The `ACCEL_MOUNT_MATRIX` udev gives the device now, nil when none.
    public func udevMatrix() -> String? { UdevProperties(devicePath: path)["ACCEL_MOUNT_MATRIX"] }
}

/// Why a device cannot be calibrated.
public struct CalibrationDeviceError: Error {
    public let message: String
}
