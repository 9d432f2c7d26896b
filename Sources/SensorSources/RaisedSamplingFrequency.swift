// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Sensors
import Log

/// A device's sampling frequency, raised for as long as it is read and put back afterwards, so a
/// sensor left slow (to save power, or by its driver's default) answers every poll with a fresh value.
struct RaisedSamplingFrequency {
    /// The attribute written, and what it held before.
    let path: String
    let previous: String
    let raised: String

    /// The attributes, in the order looked for: the device's, then the accelerometer channel's.
    private static let names = ["sampling_frequency", "in_accel_sampling_frequency"]

    /// Raises the device's frequency when it is below `hz` (the nearest listed value at or above,
    /// when the device lists them). Nil when nothing was changed; throws when the device refused.
    static func raise(devicePath: String, to hz: Int) throws(IIOError) -> RaisedSamplingFrequency? {
        guard let name = names.first(where: { Sysfs.exists("\(devicePath)/\($0)") }),
              let previous = Sysfs.attribute("\(devicePath)/\(name)"),
              let current = SysfsNumber.parse(previous) else { return nil }
        guard let target = SamplingFrequencyChoice.raise(current: current, wanted: Double(hz), available: available(devicePath, name)) else {
            return nil
        }
        let path = "\(devicePath)/\(name)"
        let raised = SamplingFrequencyChoice.text(target)
        try Sysfs.write(path, raised)
        return RaisedSamplingFrequency(path: path, previous: previous, raised: raised)
    }

    /// A device slower than the poll rate would answer most polls with a stale value: it is sped up
    /// while claimed, logged once per device. One that refuses is read as it is.
    static func whileClaimed(_ device: IIODevice, to hz: Int, _ context: DriverContext) -> RaisedSamplingFrequency? {
        let first = context.firstTime(device.sysname, "sampling frequency")
        do {
            let raised = try raise(devicePath: device.path, to: hz)
            if let raised, first {
                Log.info("\(device.sysname): sampling frequency raised from \(raised.previous) to \(raised.raised) Hz while claimed")
            }
            return raised
        } catch {
            if first { Log.warning("\(device.sysname): cannot raise the sampling frequency (\(error)); reading it as it is") }
            return nil
        }
    }

    /// The lowest rate a device is left at once found, as the peer leaves it: a buffered device at 0 Hz
    /// never pushes a frame, and a polled one at 1 Hz may hold every read of a raw value for a second.
    static let floorHz = 10

    /// Raises each of the device's sampling frequencies that is below `floorHz` to the nearest listed
    /// value (`SamplingFrequencyChoice.raise`), for good: not only while claimed. The attributes
    /// written, with their new values; a refusal is logged by the caller through `failed`.
    static func raiseToFloor(devicePath: String, failed: (String, IIOError) -> Void) -> [(name: String, value: String)] {
        var written: [(String, String)] = []
        for name in names where Sysfs.exists("\(devicePath)/\(name)") {
            guard let current = Sysfs.attribute("\(devicePath)/\(name)").flatMap({ SysfsNumber.parse($0) }),
                  let target = SamplingFrequencyChoice.raise(current: current, wanted: Double(floorHz),
                                                             available: available(devicePath, name)) else { continue }
            let text = SamplingFrequencyChoice.text(target)
            do {
                try Sysfs.write("\(devicePath)/\(name)", text)
                written.append((name, text))
            } catch {
                failed(name, error)
            }
        }
        return written
    }

    /// The values `<name>_available` lists, integers or decimals in any order; nil when there is no list.
    private static func available(_ devicePath: String, _ name: String) -> [Double]? {
        Sysfs.attribute("\(devicePath)/\(name)_available")
            .map { $0.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { SysfsNumber.parse($0) }.filter { $0 > 0 } }
    }

    /// Puts the old value back; a device that went away meanwhile has nothing to restore.
    func restore() {
        try? Sysfs.write(path, previous)
    }
}
