// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import EventLoop
import Orientation
import OrientationAPI

/// Where `follow` shows the interface orientation: a compositor's output, or a command.
public protocol Screen: AnyObject {
    /// Shows `orientation`: at start, after every `DidChange`, and when the daemon comes back.
    func show(_ orientation: InterfaceOrientation)
}

/// The daemon's side of `follow`: holds a claim so the sensor runs, hands every `DidChange` to the
/// screen, and reports the focused application and process. It outlives the daemon: when
/// orientationd leaves the bus it waits, and when a daemon owns the name again it claims, reads the
/// orientation and reports the focus anew. All calls are asynchronous, so a slow daemon never stalls the loop.
public final class OrientationFollower {
    let connection: Connection
    let screen: Screen
    /// The daemon's unique name while it runs.
    private(set) var owner: String?
    /// Reports the focused view, when the screen knows it.
    private let focus: FocusReporter
    /// How many times a daemon was attached to, to say when it came back.
    private var attachments = 0
    /// Called when following cannot go on (the bus went away).
    public var onFatal: (FollowError) -> Void = { _ in }
    /// Whether a device-orientation claim is held while the daemon runs (`setClaiming`).
    private var claiming: Bool

    /// `claiming` false holds no claim until `setClaiming(true)`: the session agent claims only
    /// while it has a screen to turn.
    public init(connection: Connection, screen: Screen, claiming: Bool = true) {
        self.connection = connection
        self.screen = screen
        self.claiming = claiming
        focus = FocusReporter(connection: connection, say: say)
    }

    /// Holds the claim, or ends it, from now on.
    public func setClaiming(_ on: Bool) {
        guard on != claiming else { return }
        claiming = on
        guard owner != nil else { return }
        call(on ? "BeginGeneratingDeviceOrientationNotifications" : "EndGeneratingDeviceOrientationNotifications") { error in
            if let error { say("cannot \(on ? "claim" : "end the claim on") the device orientation: \(error.message)") }
        }
    }

    /// Subscribes to the daemon's rotations and presence, then attaches to it if it runs.
    public func start() throws(FollowError) {
        do {
            try connection.addMatch("type='signal',sender='\(Orientation1.busName)',path='\(Orientation1.managerPath)',"
                + "interface='\(Orientation1.managerInterface)',member='DidChange'")
        } catch {
            throw .dbus(error)
        }
        connection.watchNameOwnerChanged { [unowned self] name, old, new in
            guard name == Orientation1.busName else { return }
            if !old.isEmpty, old == owner { detach() }
            if !new.isEmpty { attach(new) }
        }
        connection.onSignal { [unowned self] message in
            guard message.sender == owner, message.member == "DidChange", message.path == Orientation1.managerPath,
                  let values = try? message.arguments(), values.count == 2,
                  let to = values[1].uint32Value.flatMap(InterfaceOrientation.init(rawValue:))
            else { return }
            screen.show(to)
        }
        connection.onDisconnected = { [unowned self] in onFatal(.runtime("disconnected from the bus; exiting")) }
        focus.start()
        connection.callBusDriver("GetNameOwner", [.string(Orientation1.busName)]) { [unowned self] result in
            if case .success(let values) = result, let name = values.first?.stringValue {
                if owner == nil { attach(name) }
            } else if owner == nil {
                say("orientationd is not running on this bus; waiting for it to start")
            }
        }
    }

    /// Reports `view` as focused, now if the daemon runs, else when it comes.
    public func reportFocus(_ view: FocusedView) {
        focus.report(view)
    }

    // MARK: The daemon coming and going

    private func attach(_ name: String) {
        guard name != owner else { return }
        attachments += 1
        let returning = attachments > 1
        owner = name
        if claiming {
            call("BeginGeneratingDeviceOrientationNotifications") { error in
                if let error { say("cannot claim the device orientation: \(error.message)") }
            }
        }
        connection.call(destination: Orientation1.busName, path: Orientation1.managerPath, interface: StandardInterface.properties,
                        method: "Get", values: [.string(Orientation1.managerInterface), .string("InterfaceOrientation")]) {
            [unowned self] result in
            guard owner == name else { return }
            switch result {
            case .success(let values):
                guard let raw = (values.first?.variantValue ?? values.first)?.uint32Value,
                      let orientation = InterfaceOrientation(rawValue: raw), orientation != .unknown
                else { return say("orientationd answered InterfaceOrientation with \(values); ignored") }
                say("\(returning ? "orientationd is back" : "following orientationd") (\(name)): \(orientation.name)")
                screen.show(orientation)
            case .failure(let error):
                say("cannot read the interface orientation: \(error.message)")
            }
        }
    }

    private func detach() {
        owner = nil
        say("orientationd left the bus; waiting for it to come back")
    }

    /// Calls a manager method on the daemon, reporting only whether it failed.
    private func call(_ method: String, _ values: [Value] = [], _ done: @escaping (DBusError?) -> Void) {
        connection.call(destination: Orientation1.busName, path: Orientation1.managerPath, interface: Orientation1.managerInterface,
                        method: method, values: values) { result in
            if case .failure(let error) = result { done(error) } else { done(nil) }
        }
    }
}
