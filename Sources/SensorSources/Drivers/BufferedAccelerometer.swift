// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Sensors

/// The `iio-buffer-accel` driver: an IIO accelerometer's frames from its buffer, which wake the daemon
/// only when the device reports; sped up while claimed when it samples slower than the poll rate.
final class BufferedAccelerometer: SensorDriver {
    private let device: IIODevice
    private let support: IIOBufferSupport
    private let context: DriverContext
    private let output: (DriverReading) -> Void
    private var conversion: AccelerometerConversion
    private var reader: IIOBufferReader?
    private var raised: RaisedSamplingFrequency?

    init(_ device: IIODevice, _ support: IIOBufferSupport, _ context: DriverContext, _ output: @escaping (DriverReading) -> Void) {
        self.device = device
        self.support = support
        self.context = context
        self.output = output
        conversion = AccelerometerConversion(device)
    }

    var reading: String { "buffered (\(support.triggerDescription), \(support.node))" }

    func start() throws(IIOError) {
        raised = RaisedSamplingFrequency.whileClaimed(device, to: context.pace.pollHz, context)
        do {
            reader = try IIOBufferReader(support, frame: { [unowned self] xyz in
                let reading = conversion.convert(Double(xyz[0]), Double(xyz[1]), Double(xyz[2]))
                if case .fault = reading { conversion.forget() }
                output(reading)
            }, failure: { [unowned self] problem in
                reader = nil
                output(.failed("\(problem)"))
            })
        } catch {
            stop()
            throw error
        }
    }

    func deviceChanged() { conversion.forget() }

    func stop() {
        reader?.close()
        reader = nil
        raised?.restore()
        raised = nil
    }
}
