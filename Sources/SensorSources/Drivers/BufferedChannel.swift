// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// The `iio-buffer-channel` driver: a light or compass sensor's frames from its buffer, in the kind's
/// one channel, which wake the daemon only when the device reports.
final class BufferedChannel: SensorDriver {
    private let support: IIOBufferSupport
    private let output: (DriverReading) -> Void
    private var reader: IIOBufferReader?

    init(_ support: IIOBufferSupport, _ output: @escaping (DriverReading) -> Void) {
        self.support = support
        self.output = output
    }

    var reading: String { "buffered (\(support.triggerDescription), \(support.node))" }

    func start() throws(IIOError) {
        reader = try IIOBufferReader(support, frame: { [unowned self] values in
            output(.value(Double(values[0])))
        }, failure: { [unowned self] problem in
            reader = nil
            output(.failed("\(problem)"))
        })
    }

    func stop() {
        reader?.close()
        reader = nil
    }
}
