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

    /// `app-mask MASK` sets ApplicationMask; `app-mask reset` gives the config's back (ResetApplicationMask).
    static func applicationMask(_ invocation: Invocation) throws(Failure) {
        let text = try invocation.expectOperands(["MASK"])[0]
        if text == "reset" {
            try Manager(bus: invocation.bus).call("ResetApplicationMask")
            return
        }
        let mask: OrientationMask
        do { mask = try OrientationMask(parsing: text) } catch { throw .usage("app-mask: \(error.message)") }
        try Manager(bus: invocation.bus).set("ApplicationMask", .uint32(mask.rawValue))
    }

    static func attempt(_ invocation: Invocation) throws(Failure) {
        _ = try invocation.expectOperands([])
        try Manager(bus: invocation.bus).call("AttemptRotationToDeviceOrientation")
    }
}

extension Command {
    static let lock = Command(
        name: "lock", synopsis: "lock", summary: "lock rotation (RotationLocked = true)",
        help: """
            Usage: orientationctl lock

            Locks rotation: sets RotationLocked to true (privileged). The interface stays
            in its orientation until 'orientationctl unlock'.
            """,
        run: { invocation throws(Failure) in try ChangeCommands.lock(invocation, locked: true) })

    static let unlock = Command(
        name: "unlock", synopsis: "unlock", summary: "unlock rotation (RotationLocked = false)",
        help: """
            Usage: orientationctl unlock

            Unlocks rotation: sets RotationLocked to false (privileged); the interface
            catches up with the device.
            """,
        run: { invocation throws(Failure) in try ChangeCommands.lock(invocation, locked: false) })

    static let setDevice = Command(
        name: "set-device", synopsis: "set-device ORIENTATION",
        summary: "force the device orientation (SetDeviceOrientation)",
        help: """
            Usage: orientationctl set-device ORIENTATION

            Forces the device orientation (SetDeviceOrientation, privileged): the device is
            taken to be in ORIENTATION until the sensor classifies a different one.
            ORIENTATION: \(Help.orientations).
            Numbers are passed to the daemon as they are, so it judges them.
            """,
        operands: .words(DeviceOrientation.allCases.filter { $0 != .unknown }.map(\.name)), run: ChangeCommands.setDevice)

    static let inject = Command(
        name: "inject", synopsis: "inject X Y Z", summary: "feed one accelerometer sample in m/s² (simulated sensor only)",
        help: """
            Usage: orientationctl inject X Y Z

            Feeds one accelerometer sample X Y Z, in m/s², into the daemon's classifier
            (InjectAcceleration, privileged; only with the simulated sensor).
            X, Y and Z are decimal numbers, e.g. 'inject -- 9.81 0 0' or 'inject 0 -9.81 0'.
            """,
        run: ChangeCommands.inject)

    static let appMask = Command(
        name: "app-mask", synopsis: "app-mask MASK | reset",
        summary: "set the application's supported orientations (ApplicationMask), or put the config's back",
        help: """
            Usage: orientationctl app-mask MASK
                   orientationctl app-mask reset

            Sets the application's supported orientations (ApplicationMask, privileged).
            A mask set this way is kept across restarts and overrides the configuration's
            [Application] SupportedOrientations until 'app-mask reset', which calls
            ResetApplicationMask (privileged): the configuration's mask (or the idiom's
            default) is in force again and the saved one is forgotten.
            \(Help.masks)
            """,
        operands: .words(Commands.maskWords + ["reset"]), run: ChangeCommands.applicationMask)

    static let attempt = Command(
        name: "attempt", synopsis: "attempt", summary: "AttemptRotationToDeviceOrientation",
        help: """
            Usage: orientationctl attempt

            Calls AttemptRotationToDeviceOrientation: the interface turns to the device's
            orientation when the rules in force allow it.
            """,
        run: ChangeCommands.attempt)
}
