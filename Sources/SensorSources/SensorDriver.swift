// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Sensors
import Log

/// A way of reading one device, as iio-sensor-proxy's drivers are: made for a device it recognises
/// (`SensorDrivers.table`), reading it between `start` and `stop` only, and handing every reading to
/// its source as a `DriverReading`. A driver decides nothing: what a reading means, faults counted,
/// devices coming and going are its source's business.
protocol SensorDriver: AnyObject {
    /// How it reads, for the log: `polling at 20 Hz`, `polling in_illuminance_raw every 800 ms`.
    var reading: String { get }
    /// Starts reading; throws when the device cannot be read this way (the source then tries the next
    /// driver of the table), with everything it did undone.
    func start() throws(IIOError)
    /// Stops reading and puts back what `start` changed on the device; safe twice.
    func stop()
    /// The device's attributes changed (a `change` event): what was read of them once is read again.
    func deviceChanged()
}

extension SensorDriver {
    func deviceChanged() {}
}

/// What a driver hands its source.
enum DriverReading {
    /// An acceleration in m/s², after the device's calibration and mount matrix.
    case acceleration(Sample)
    /// One channel's value as the device gives it (the source scales or classifies it).
    case value(Double)
    /// The hinge's angle and, when the sensor has one, the keyboard's, in degrees.
    case angles(hinge: Double, keyboard: Double?)
    /// An input device's switch, on or off; a touchscreen touched or not.
    case switched(Bool)
    /// One reading failed; the next may work.
    case fault(String)
    /// This way of reading cannot go on (a buffer that failed, a switch whose node went away): the
    /// source takes the next driver of the table, or reports nothing more from the device.
    case failed(String)
}

/// A device a source found, as the drivers see it.
enum FoundDevice {
    /// An IIO or evdev accelerometer in the display.
    case accelerometer(IIODevice)
    /// A light, proximity or compass sensor.
    case channel(ScalarDevice)
    /// A hinge sensor.
    case hinge(HingeSensor)
    /// An accelerometer in a convertible's base.
    case baseAccelerometer(BaseAccelerometer)
    /// An input device's switch (`SW_TABLET_MODE`).
    case inputSwitch(InputSwitchDevice)
    /// A touchscreen or pen (the touch hold, P20).
    case touchscreen(InputDevice)

    var sysname: String {
        switch self {
        case .accelerometer(let device): device.sysname
        case .channel(let device): device.sysname
        case .hinge(let device): device.sysname
        case .baseAccelerometer(let device): device.sysname
        case .inputSwitch(let device): device.sysname
        case .touchscreen(let device): device.sysname
        }
    }
}

/// What a source lends its drivers for as long as it lives: the pace of polling, the feed whose
/// settling the motion-event pacer waits for, and the log lines already written (each once per device).
final class DriverContext {
    let pace: PollPace
    let feed: SampleFeed?
    private var logged: Set<String> = []

    init(pace: PollPace = PollPace(pollHz: 20, stillPollHz: 20), feed: SampleFeed? = nil) {
        self.pace = pace
        self.feed = feed
    }

    /// True the first time `topic` is asked about for `sysname`.
    func firstTime(_ sysname: String, _ topic: String) -> Bool {
        logged.insert(sysname + "\u{0}" + topic).inserted
    }

    /// Forgets what was logged of `sysname` (the device went away).
    func forget(_ sysname: String) {
        logged = logged.filter { !$0.hasPrefix(sysname + "\u{0}") }
    }
}

/// One entry of the driver table.
struct DriverEntry: Sendable {
    /// The driver's name, as the peer's udev rule names its drivers (`iio-buffer-accel`).
    let name: String
    /// What it does, for the log when it cannot: `buffered reading`.
    let way: String
    /// The driver for `device`, nil when it does not read such a device. Nothing is opened yet.
    let probe: @Sendable (FoundDevice, DriverContext, @escaping (DriverReading) -> Void) -> SensorDriver?
}

/// Every way the daemon reads a device, in the order they are preferred: the first that reads a device
/// found, and starts, is used (Docs/sensors.md, "Drivers").
enum SensorDrivers {
    static let table: [DriverEntry] = [
        DriverEntry(name: "iio-buffer-accel", way: "buffered reading") { device, context, output in
            guard case .accelerometer(let accelerometer) = device, accelerometer.inputNode == nil,
                  let support = accelerometer.buffer else { return nil }
            return BufferedAccelerometer(accelerometer, support, context, output)
        },
        DriverEntry(name: "input-accel", way: "evdev reading") { device, context, output in
            guard case .accelerometer(let accelerometer) = device, let node = accelerometer.inputNode else { return nil }
            return PolledAccelerometer(accelerometer, .evdev(node: node), context, output)
        },
        DriverEntry(name: "iio-poll-accel", way: "polling") { device, context, output in
            guard case .accelerometer(let accelerometer) = device, accelerometer.inputNode == nil else { return nil }
            return PolledAccelerometer(accelerometer, .iio, context, output)
        },
        DriverEntry(name: "iio-buffer-channel", way: "buffered reading") { device, _, output in
            guard case .channel(let channel) = device, case .buffered(let support, _, _) = channel.mode else { return nil }
            return BufferedChannel(support, output)
        },
        DriverEntry(name: "iio-poll-channel", way: "polling") { device, _, output in
            guard case .channel(let channel) = device else { return nil }
            switch channel.mode {
            case .polled(let attribute, let intervalMs): return PolledChannel(channel.path, attribute, every: intervalMs, pair: false, output)
            case .appleSMC(let attribute, let intervalMs): return PolledChannel(channel.path, attribute, every: intervalMs, pair: true, output)
            case .buffered(_, let fallback?, let intervalMs): return PolledChannel(channel.path, fallback, every: intervalMs, pair: false, output)
            case .buffered, .inputSwitch: return nil
            }
        },
        DriverEntry(name: "input-switch", way: "switch events") { device, _, output in
            switch device {
            case .inputSwitch(let found): return InputSwitchDriver(found, output)
            case .channel(let channel):
                guard case .inputSwitch(let node) = channel.mode else { return nil }
                return InputSwitchDriver(InputSwitchDevice(sysname: channel.sysname, path: channel.path, node: node,
                                                           code: InputSwitch.frontProximity), output)
            default: return nil
            }
        },
        DriverEntry(name: "input-touch", way: "touch reading") { device, _, output in
            guard case .touchscreen(let found) = device else { return nil }
            return TouchscreenDriver(found, output)
        },
        DriverEntry(name: "iio-hinge", way: "hinge reading") { device, _, output in
            guard case .hinge(let hinge) = device else { return nil }
            return HingeDriver(hinge, output)
        },
        DriverEntry(name: "base-accel", way: "base accelerometer reading") { device, _, output in
            guard case .baseAccelerometer(let base) = device else { return nil }
            return BaseAccelerometerDriver(base, output)
        },
    ]

    /// Starts the first driver of the table that reads `device` and is not among `refused`. One that
    /// cannot start joins `refused`, is logged (once per device) with what reads the device instead,
    /// and the next is tried; nil when none starts.
    static func start(_ device: FoundDevice, _ context: DriverContext, refused: inout Set<String>,
                      output: @escaping (DriverReading) -> Void) -> (entry: DriverEntry, driver: SensorDriver)? {
        var failure: String?
        for entry in table where !refused.contains(entry.name) {
            guard let driver = entry.probe(device, context, output) else { continue }
            do {
                try driver.start()
                if let failure, context.firstTime(device.sysname, failure) {
                    Log.warning("\(device.sysname): \(failure); \(driver.reading) instead")
                }
                return (entry, driver)
            } catch {
                refused.insert(entry.name)
                failure = failure ?? "\(entry.way) unavailable (\(error))"
            }
        }
        if let failure, context.firstTime(device.sysname, failure) {
            Log.warning("\(device.sysname): \(failure); nothing else reads it until it is claimed again")
        }
        return nil
    }
}
