// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// The `input-touch` driver: whether a touchscreen or pen is touched (`Touchscreen`: masked to
/// `BTN_TOUCH` and `ABS_MT_TRACKING_ID` before the first read, never grabbed), as `.switched`: on
/// while touched.
final class TouchscreenDriver: SensorDriver {
    private let device: InputDevice
    private let output: (DriverReading) -> Void
    private var screen: Touchscreen?

    init(_ device: InputDevice, _ output: @escaping (DriverReading) -> Void) {
        self.device = device
        self.output = output
    }

    var reading: String { "whether \(device.node) is touched, and nothing else" }

    func start() throws(IIOError) {
        screen = try Touchscreen(node: device.node, changed: { [unowned self] touched in
            output(.switched(touched))
        }, failure: { [unowned self] problem in
            screen = nil
            output(.failed("\(problem)"))
        })
    }

    func stop() {
        screen?.close()
        screen = nil
    }
}
