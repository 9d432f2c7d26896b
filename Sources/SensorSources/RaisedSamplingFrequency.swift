import Sensors

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
        let available = Sysfs.attribute("\(devicePath)/\(name)_available")
            .map { $0.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { SysfsNumber.parse($0) } }
        guard let target = SamplingFrequencyChoice.raise(current: current, wanted: Double(hz), available: available) else {
            return nil
        }
        let path = "\(devicePath)/\(name)"
        let raised = SamplingFrequencyChoice.text(target)
        try Sysfs.write(path, raised)
        return RaisedSamplingFrequency(path: path, previous: previous, raised: raised)
    }

    /// Puts the old value back; a device that went away meanwhile has nothing to restore.
    func restore() {
        try? Sysfs.write(path, previous)
    }
}
