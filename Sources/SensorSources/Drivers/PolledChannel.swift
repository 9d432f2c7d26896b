// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import EventLoop
import Sensors

/// The `iio-poll-channel` driver: one attribute of a light, proximity or compass sensor read on a
/// timer (`in_illuminance_input`, `in_proximity_raw`, the raw channel of a sensor whose buffer cannot
/// be used), or Apple's SMC `light` pair (`AppleSMCLight`). The attribute stays open while polled:
/// one `pread` per poll.
final class PolledChannel: SensorDriver {
    private let path: String
    private let attribute: String
    private let intervalMs: Int
    /// Whether the attribute holds Apple's `(a,b)` pair rather than one number.
    private let pair: Bool
    private let output: (DriverReading) -> Void
    private var timer: EventLoop.Timer?
    private var file: IIORawFiles?

    init(_ devicePath: String, _ attribute: String, every intervalMs: Int, pair: Bool, _ output: @escaping (DriverReading) -> Void) {
        path = devicePath + "/" + attribute
        self.attribute = attribute
        self.intervalMs = intervalMs
        self.pair = pair
        self.output = output
    }

    var reading: String { "polling \(attribute) every \(intervalMs) ms" }

    func start() throws(IIOError) {
        timer = EventLoop.Timer(everyMs: UInt32(intervalMs)) { [unowned self] in poll() }
        poll()
    }

    func stop() {
        timer?.cancel()
        timer = nil
        file = nil
    }

    private func poll() {
        let text: String
        do {
            if file == nil { file = try IIORawFiles(paths: [path]) }
            text = try file!.text(0)
        } catch {
            file = nil
            return output(.fault(error.description))
        }
        if pair {
            guard let level = AppleSMCLight.level(text) else {
                return output(.fault("\(path) holds '\(text.trimmedBlanks.prefix(40))', not a pair of numbers"))
            }
            return output(.value(level))
        }
        guard let raw = SysfsNumber.parse(text), raw.isFinite else {
            return output(.fault("\(path) holds '\(text.trimmedBlanks.prefix(40))', not a number"))
        }
        output(.value(raw))
    }
}
