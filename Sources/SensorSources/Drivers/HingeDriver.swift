// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import EventLoop
import Sensors

/// The `iio-hinge` driver: a hinge sensor's angles (`HingeSensor`), read four times a second while claimed.
final class HingeDriver: SensorDriver {
    private let hinge: HingeSensor
    private let output: (DriverReading) -> Void
    private var timer: EventLoop.Timer?

    /// How often the hinge is read while claimed: a fold takes a second or more.
    static let intervalMs: UInt32 = 250

    init(_ hinge: HingeSensor, _ output: @escaping (DriverReading) -> Void) {
        self.hinge = hinge
        self.output = output
    }

    var reading: String { "reading the hinge every \(Self.intervalMs) ms" }

    func start() throws(IIOError) {
        read()
        timer = EventLoop.Timer(everyMs: Self.intervalMs) { [unowned self] in read() }
    }

    func stop() {
        timer?.cancel()
        timer = nil
    }

    /// The hinge angle (0–360) and, when the sensor has one, the keyboard's; a fault when the hinge cannot be read.
    private func read() {
        guard let angle = degrees(0, hinge.hinge) else { return output(.fault("the hinge sensor \(hinge.sysname) cannot be read")) }
        output(.angles(hinge: max(0, min(360, angle)), keyboard: hinge.keyboard.flatMap { degrees(2, $0) }))
    }

    /// Channel `index` in degrees with its calibration, nil when it cannot be read.
    private func degrees(_ index: Int, _ calibration: (scale: Double, offset: Double)) -> Double? {
        guard let raw = Sysfs.attribute(hinge.path + "/in_angl\(index)_raw").flatMap(SysfsNumber.parse) else { return nil }
        let value = (raw + calibration.offset) * calibration.scale
        return value.isFinite ? value : nil
    }
}
