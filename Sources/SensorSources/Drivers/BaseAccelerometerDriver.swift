// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import EventLoop
import Sensors

/// The `base-accel` driver: the base accelerometer's readings (`BaseAccelerometer`) in m/s² after its
/// own mount matrix, four times a second while claimed; its three raw attributes stay open meanwhile.
final class BaseAccelerometerDriver: SensorDriver {
    private let base: BaseAccelerometer
    private let output: (DriverReading) -> Void
    private var files: IIORawFiles?
    private var timer: EventLoop.Timer?

    init(_ base: BaseAccelerometer, _ output: @escaping (DriverReading) -> Void) {
        self.base = base
        self.output = output
    }

    var reading: String { "reading the base accelerometer every \(HingeDriver.intervalMs) ms" }

    func start() throws(IIOError) {
        files = try IIORawFiles(devicePath: base.path)
        timer = EventLoop.Timer(everyMs: HingeDriver.intervalMs) { [unowned self] in read() }
        read()
    }

    func stop() {
        timer?.cancel()
        timer = nil
        files = nil
    }

    /// One reading; the driver fails when the device cannot be read (it went).
    private func read() {
        guard let files, let (rx, ry, rz) = try? files.read() else {
            stop()
            return output(.failed("the base accelerometer \(base.sysname) cannot be read"))
        }
        let v = base.calibration.apply(rx, ry, rz, base.matrix)
        output(.acceleration(Sample(t: SampleFeed.now, x: v.x, y: v.y, z: v.z)))
    }
}
