import DBus
import Orientation

/// The commands that change the daemon's state with one call: lock, unlock,
/// set-device, inject, app-mask, attempt. They print nothing on success.
enum ChangeCommands {
    static func lock(_ invocation: Invocation, locked: Bool) throws(Failure) {
        _ = try invocation.expectOperands([])
        try Manager(bus: invocation.bus).set("RotationLocked", .bool(locked))
    }

    static func setDevice(_ invocation: Invocation) throws(Failure) {
        let text = try invocation.expectOperands(["ORIENTATION"])[0]
        let raw: UInt32
        if let number = UInt32(text) {
            raw = number  // the daemon judges numbers, so its message explains the range
        } else {
            do { raw = try DeviceOrientation(parsing: text).rawValue } catch { throw .usage("set-device: \(error.message)") }
        }
        try Manager(bus: invocation.bus).call("SetDeviceOrientation", [.uint32(raw)])
    }

    static func inject(_ invocation: Invocation) throws(Failure) {
        let texts = try invocation.expectOperands(["X", "Y", "Z"])
        var sample: [Value] = []
        for (axis, text) in zip(["X", "Y", "Z"], texts) {
            guard let value = Double(text) else {
                throw .usage("inject: \(axis) '\(text)' is not a number; X, Y and Z are decimal numbers in m/s², e.g. 9.81")
            }
            sample.append(.double(value))
        }
        try Manager(bus: invocation.bus).call("InjectAcceleration", sample)
    }

    static func applicationMask(_ invocation: Invocation) throws(Failure) {
        let text = try invocation.expectOperands(["MASK"])[0]
        let mask: OrientationMask
        do { mask = try OrientationMask(parsing: text) } catch { throw .usage("app-mask: \(error.message)") }
        try Manager(bus: invocation.bus).set("ApplicationMask", .uint32(mask.rawValue))
    }

    static func attempt(_ invocation: Invocation) throws(Failure) {
        _ = try invocation.expectOperands([])
        try Manager(bus: invocation.bus).call("AttemptRotationToDeviceOrientation")
    }
}
