// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import Orientation

/// The commands that change the daemon's state with one call: lock, unlock,
/// set-device, inject, app-mask, attempt. They print nothing on success.
enum ChangeCommands {
    static func lock(_ invocation: Invocation, locked: Bool) throws(Failure) {
        _ = try invocation.expectOperands([])
        try Manager(invocation).set("RotationLocked", .bool(locked))
    }

    /// `accept-suggestion`: turns to the orientation offered while rotation is locked (P19); the lock stays on.
    static func acceptSuggestion(_ invocation: Invocation) throws(Failure) {
        _ = try invocation.expectOperands([])
        try Manager(invocation).call("AcceptSuggestedOrientation")
    }

    /// The orientations `set-device` accepts by name: every pose but unknown.
    static let poses = DeviceOrientation.allCases.filter { $0 != .unknown }

    static func setDevice(_ invocation: Invocation) throws(Failure) {
        let text = try invocation.expectOperands(["ORIENTATION"])[0]
        let raw: UInt32
        if let number = UInt32(text) {
            raw = number  // the daemon judges numbers, so its message explains the range
        } else {
            guard let pose = poses.first(where: { $0.name == text.lowercased() }) else {
                throw .usage("set-device: '\(text)' is not a device orientation; accepted: "
                    + poses.map { "\($0.name) (\($0.rawValue))" }.joined(separator: ", "))
            }
            raw = pose.rawValue
        }
        let manager = try Manager(invocation)
        try manager.call("SetDeviceOrientation", [.uint32(raw)])
        if let note = outcome(of: raw, try manager.allProperties()) { complain("note: " + note) }
    }

    /// Why the forced orientation shows nowhere, when it does not: the rotation lock holds the device
    /// orientation and the interface (P11), nobody claims the device orientation, the supported
    /// orientations leave it out, or the pose (face up, face down) never turns it. Nil when the
    /// interface follows.
    static func outcome(of raw: UInt32, _ properties: [(String, Value)]) -> String? {
        let values = Dictionary(properties.map { ($0.0, $0.1.variantValue ?? $0.1) }, uniquingKeysWith: { _, last in last })
        guard let pose = DeviceOrientation(rawValue: raw), let device = values["DeviceOrientation"]?.uint32Value,
              let interface = values["InterfaceOrientation"]?.uint32Value else { return nil }
        let name = PropertyFormat.interfaceName(interface)
        if device != raw, values["RotationLocked"]?.boolValue == true {
            return "rotation is locked, so DeviceOrientation holds at \(PropertyFormat.deviceName(device)) (as UIKit's does "
                + "under the lock) and the interface stays \(name); the daemon takes the device to be \(pose.name) once "
                + "unlocked ('orientationctl unlock')"
        }
        guard device == raw else {
            return "nobody claims the device orientation, so DeviceOrientation reads "
                + "\(PropertyFormat.deviceName(device)) and the interface stays \(name); the daemon takes the device "
                + "to be \(pose.name) once a client claims it (e.g. 'orientationctl monitor' in another terminal)"
        }
        guard let wanted = pose.interfaceOrientation else {
            return "\(pose.name) never turns the interface; it stays \(name)"
        }
        guard interface != wanted.rawValue else { return nil }
        if values["RotationLocked"]?.boolValue == true {
            return "rotation is locked, so the interface stays \(name) ('orientationctl unlock' lets it follow)"
        }
        if let mask = values["SupportedMask"]?.uint32Value, !OrientationMask(rawValue: mask).contains(wanted) {
            return "the supported orientations (\(PropertyFormat.text("SupportedMask", .uint32(mask)))) leave out "
                + "\(wanted.name), so the interface stays \(name)"
        }
        return nil
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
        try Manager(invocation).call("InjectAcceleration", sample)
    }

    /// `app-mask MASK` sets ApplicationMask; `app-mask reset` gives the config's back (ResetApplicationMask).
    static func applicationMask(_ invocation: Invocation) throws(Failure) {
        let text = try invocation.expectOperands(["MASK"])[0]
        if text == "reset" {
            try Manager(invocation).call("ResetApplicationMask")
            return
        }
        let mask = try parseMask(text, "app-mask", zero: "'orientationctl app-mask reset' puts the config's mask back")
        try Manager(invocation).set("ApplicationMask", .uint32(mask.rawValue))
    }

    /// A mask from the command line; a 0 (or `none`) is refused saying what was likely meant.
    static func parseMask(_ text: String, _ command: String, zero: String) throws(Failure) -> OrientationMask {
        if UInt32(text) == 0 || text.lowercased() == "none" {
            throw .usage("\(command): a mask of 0 supports no orientation; \(zero)")
        }
        do { return try OrientationMask(parsing: text) } catch { throw .usage("\(command): \(error.message)") }
    }

    static func attempt(_ invocation: Invocation) throws(Failure) {
        _ = try invocation.expectOperands([])
        let manager = try Manager(invocation)
        let before = try manager.property("InterfaceOrientation").uint32Value
        try manager.call("AttemptRotationToDeviceOrientation")
        let properties = try manager.allProperties()
        let after = properties.first { $0.0 == "InterfaceOrientation" }.flatMap { ($0.1.variantValue ?? $0.1).uint32Value }
        guard let after, after == before else { return }
        let device = properties.first { $0.0 == "DeviceOrientation" }.flatMap { ($0.1.variantValue ?? $0.1).uint32Value } ?? 0
        if device == 0 {
            complain("note: the device orientation is unknown (nobody claims it, or the sensor has given no reading), "
                + "so the interface stays \(PropertyFormat.interfaceName(after))")
        } else if let reason = outcome(of: device, properties) {
            complain("note: " + reason)
        } else {
            complain("note: the interface stays \(PropertyFormat.interfaceName(after)): the device's orientation "
                + "(\(PropertyFormat.deviceName(device))) asks for no other")
        }
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

    static let acceptSuggestion = Command(
        name: "accept-suggestion", synopsis: "accept-suggestion",
        summary: "turn to the suggested orientation, keeping the lock (AcceptSuggestedOrientation)",
        help: """
            Usage: orientationctl accept-suggestion

            While rotation is locked, a turn of the device is offered instead of made:
            SuggestedOrientation reads it and 'orientationctl monitor' prints a 'suggested'
            line. This accepts it (AcceptSuggestedOrientation, privileged as 'lock' is): the
            interface turns there and the lock stays on, now held there. Fails with
            NoSuggestion, saying why, when nothing is suggested. The suggestion ends by itself
            after [Lock] SuggestionSeconds (20 by default), when the device comes back, or
            when rotation is unlocked.
            """,
        run: ChangeCommands.acceptSuggestion)

    static let setDevice = Command(
        name: "set-device", synopsis: "set-device ORIENTATION",
        summary: "force the device orientation (SetDeviceOrientation)",
        help: """
            Usage: orientationctl set-device ORIENTATION

            Forces the device orientation (SetDeviceOrientation, privileged): the device is
            taken to be in ORIENTATION until the sensor classifies a different one.
            ORIENTATION: \(Help.orientations).
            Numbers are passed to the daemon as they are, so it judges them.
            The device orientation shows only while some client claims it (UIKit's
            beginGeneratingDeviceOrientationNotifications; 'orientationctl monitor' does), and
            the lock holds both the device orientation and the interface (as UIKit's does),
            and the interface follows only where the supported orientations let it: when
            the interface does not follow, a note on stderr says why (exit status 0).
            """,
        operands: .words(ChangeCommands.poses.map(\.name)), run: ChangeCommands.setDevice)

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
            orientation when the rules in force allow it. When it does not turn, a note on
            stderr says why (exit status 0).
            """,
        run: ChangeCommands.attempt)
}
