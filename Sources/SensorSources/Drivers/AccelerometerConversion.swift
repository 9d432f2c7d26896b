// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Sensors

/// An accelerometer's raw values turned into m/s² in the display's frame: (raw + offset) × scale per
/// axis, then the mount matrix. An IIO device's scale and offset are read at its first reading and
/// again after a fault; an evdev device's are the input drivers' fixed counts per g.
struct AccelerometerConversion {
    let device: IIODevice
    private var calibration: IIOCalibration?

    init(_ device: IIODevice) {
        self.device = device
        if device.inputNode != nil {
            calibration = IIOCalibration(scale: Array(repeating: InputAccelerometerFiles.scale, count: 3), offset: [0, 0, 0])
        }
    }

    /// The acceleration of a raw reading taken now, or the fault that keeps it from being one.
    mutating func convert(_ rx: Double, _ ry: Double, _ rz: Double) -> DriverReading {
        let c: IIOCalibration
        if let known = calibration {
            c = known
        } else {
            do { c = try IIOCalibration.read(device.path) } catch { return .fault(error.description) }
            calibration = c
        }
        let v = c.apply(rx, ry, rz, device.matrix)
        guard v.x.isFinite, v.y.isFinite, v.z.isFinite else { return .fault("a reading overflowed") }
        return .acceleration(Sample(t: SampleFeed.now, x: v.x, y: v.y, z: v.z))
    }

    /// A reading failed: an IIO device's scale and offset are read again before the next one.
    mutating func forget() {
        if device.inputNode == nil { calibration = nil }
    }
}
