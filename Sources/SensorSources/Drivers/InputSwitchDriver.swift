// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// The `input-switch` driver: an input device's switch (`SW_TABLET_MODE` for the posture,
/// `SW_FRONT_PROXIMITY` for a phone's proximity sensor behind gpio-keys), its state read with
/// `EVIOCGSW` when reading starts, then its switch events as they come.
final class InputSwitchDriver: SensorDriver {
    private let device: InputSwitchDevice
    private let output: (DriverReading) -> Void
    private var input: InputSwitch?

    init(_ device: InputSwitchDevice, _ output: @escaping (DriverReading) -> Void) {
        self.device = device
        self.output = output
    }

    var reading: String { "\(InputSwitch.name(device.code)) of \(device.node)" }

    func start() throws(IIOError) {
        let input = try InputSwitch(node: device.node, code: device.code, changed: { [unowned self] on in
            output(.switched(on))
        }, failure: { [unowned self] problem in
            self.input = nil
            output(.failed("\(problem)"))
        })
        self.input = input
        let on: Bool
        do { on = try input.state() } catch {
            stop()
            throw error
        }
        output(.switched(on))
    }

    func stop() {
        input?.close()
        input = nil
    }
}
