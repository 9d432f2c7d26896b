// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import Orientation
import OrientationAPI
import Policy

/// An object whose changes are announced.
enum AnnouncedObject: Hashable {
    case manager
    case window(WindowID)
    case controller(ControllerID)
    /// An object exported on the same connection by another part of the daemon (the compatibility
    /// interface's `net.hadess.SensorProxy` objects), read through the table it was exported with.
    case exported(path: String, interface: String)

    var path: String {
        switch self {
        case .manager: Orientation1.managerPath
        case .window(let id): ObjectPaths.path(of: id)
        case .controller(let id): ObjectPaths.path(of: id)
        case .exported(let path, _): path
        }
    }

    /// The number the family's handlers receive (`MethodCall.object`); 0 for a single object.
    var key: UInt64 {
        switch self {
        case .manager, .exported: 0
        case .window(let id): id.rawValue
        case .controller(let id): id.rawValue
        }
    }

    var interface: String {
        switch self {
        case .manager: Orientation1.managerInterface
        case .window: Orientation1.windowInterface
        case .controller: Orientation1.controllerInterface
        case .exported(_, let interface): interface
        }
    }
}

/// Where announcements read values: what the objects' getters answer now.
protocol AnnouncedValues {
    /// The property's value now; nil when the object has no such property.
    func value(_ property: String, of object: AnnouncedObject) -> Value?
    /// Every property of a new object with its value, as `GetAll` reads them.
    func properties(of object: AnnouncedObject) -> [(String, Value)]
    /// The client that owns a window or controller, which alone hears of its changes; nil for the
    /// manager, whose changes everyone hears.
    func owner(of object: AnnouncedObject) -> String?
    /// `ScreenBounds` in `orientation`.
    func screenBounds(_ orientation: InterfaceOrientation) -> Value
}

/// One message that announces a change.
enum Announcement: Equatable {
    /// `PropertiesChanged` at the object, with these values in this order, to the object's owner
    /// only (nil: to everyone).
    case properties(AnnouncedObject, [NamedValue], to: String?)
    /// A signal of the manager object, of its own interface or of `ObjectManager`, to one client
    /// only when `to` is given.
    case signal(interface: String, member: String, [Value], to: String?)

    /// One property's new value.
    struct NamedValue: Equatable {
        let name: String
        let value: Value
    }

    /// A signal of the manager's interface.
    static func manager(_ member: String, _ values: [Value]) -> Announcement {
        .signal(interface: Orientation1.managerInterface, member: member, values, to: nil)
    }
}

/// Turns the policy's changes into the messages that announce them, in the contract's order
/// (dbus-api.md, "Signals"): the values come from the getters and are never compared with what was
/// sent before, since the changes already name what changed.
///
/// Property changes wait for a signal or for the end of the turn, so the objects one turn changes
/// many times are announced once each. Before every signal, every property change waiting is
/// announced, so no signal overtakes a change that came before it.
struct Announcer {
    /// Property changes not announced yet, per object.
    private(set) var manager: [String] = []
    private(set) var windows: [WindowID: WindowProperties] = [:]
    private(set) var controllers: [ControllerID: ControllerProperties] = [:]

    /// Property changes of the objects outside the policy (`AnnouncedObject.exported`), in the order
    /// they were named; announced at the end of each batch (`takeExported`).
    private(set) var exported: [(object: AnnouncedObject, names: [String])] = []

    /// True when property changes of the policy's objects wait to be announced.
    var hasPending: Bool { !manager.isEmpty || !windows.isEmpty || !controllers.isEmpty }

    /// Adds properties of an object outside the policy, changed by another part of the daemon.
    mutating func name(_ names: [String], of object: AnnouncedObject) {
        if let index = exported.firstIndex(where: { $0.object == object }) {
            for name in names where !exported[index].names.contains(name) { exported[index].names.append(name) }
        } else {
            exported.append((object, names))
        }
    }

    /// The changes of the objects outside the policy waiting, to everyone.
    mutating func takeExported(_ values: some AnnouncedValues) -> [Announcement] {
        let out = exported.map { Self.changed($0.object, $0.names, to: nil, values) }
        exported = []
        return out
    }

    /// Adds a manager property changed outside the policy (`HasAccelerometer`).
    mutating func name(managerProperty name: String) {
        if !manager.contains(name) { manager.append(name) }
    }

    /// The messages one batch of changes needs now: each event's in order, everything waiting
    /// before each signal. Property changes that no signal follows stay waiting.
    mutating func announce(_ changes: Changes, _ values: some AnnouncedValues) -> [Announcement] {
        add(changes)
        var out: [Announcement] = []
        for event in changes.events {
            switch event {
            case .windowAdded(let id):
                out.append(added(.window(id), values))
            case .controllerAdded(let id):
                out.append(added(.controller(id), values))
            case .windowRemoved(let id):
                out.append(removed(.window(id), owner: changes.removedWindowOwners[id]))
            case .controllerRemoved(let id):
                out.append(removed(.controller(id), owner: changes.removedControllerOwners[id]))
            case .deviceOrientationChanged(_, let device):
                out += takePending(values)
                out.append(.properties(.manager, [.init(name: "DeviceOrientation", value: .uint32(device.rawValue))], to: nil))
                out.append(.manager("DeviceOrientationDidChange", [.uint32(device.rawValue)]))
            case .willChange(let from, let to):
                out += takePending(values)
                out.append(.manager("WillChange", [.uint32(from.rawValue), .uint32(to.rawValue)]))
                // Turning upside down, or with no screen size set, leaves the bounds as they were.
                var changed = [Announcement.NamedValue(name: "InterfaceOrientation", value: .uint32(to.rawValue))]
                let bounds = values.screenBounds(to)
                if bounds != values.screenBounds(from) { changed.append(.init(name: "ScreenBounds", value: bounds)) }
                out.append(.properties(.manager, changed, to: nil))
            case .didChange(let from, let to):
                out += takePending(values)
                out.append(.manager("DidChange", [.uint32(from.rawValue), .uint32(to.rawValue)]))
            case .rotationSuggested(let to):
                out += takePending(values)
                out.append(.manager("RotationSuggested", [.uint32(to.rawValue)]))
            case .sensorNeeded:
                break
            }
        }
        return out
    }

    /// The property changes waiting, of at most `limit` objects (the manager counts as one).
    mutating func takePending(_ values: some AnnouncedValues, limit: Int = .max) -> [Announcement] {
        var out: [Announcement] = []
        if !manager.isEmpty {
            out.append(changed(.manager, manager, values))
            manager = []
        }
        for (id, names) in windows.prefix(limit - out.count) { out.append(changed(.window(id), names.names, values)) }
        for (id, names) in controllers.prefix(limit - out.count) { out.append(changed(.controller(id), names.names, values)) }
        // Taken in one pass, then forgotten: the tables are emptied whole when they can be.
        for announcement in out {
            guard case .properties(let object, _, _) = announcement else { continue }
            switch object {
            case .window(let id): windows[id] = nil
            case .controller(let id): controllers[id] = nil
            case .manager, .exported: break
            }
        }
        return out
    }

    /// Joins the batch's named properties to those waiting. Objects the batch creates are announced
    /// whole by their creation, and objects it removes have nothing left to read.
    private mutating func add(_ changes: Changes) {
        for name in changes.manager.names where !manager.contains(name) { manager.append(name) }
        for (id, names) in changes.windows { windows[id, default: []].formUnion(names) }
        for (id, names) in changes.controllers { controllers[id, default: []].formUnion(names) }
        for event in changes.events {
            switch event {
            case .windowAdded(let id), .windowRemoved(let id): windows[id] = nil
            case .controllerAdded(let id), .controllerRemoved(let id): controllers[id] = nil
            default: break
            }
        }
    }

    private func changed(_ object: AnnouncedObject, _ names: [String], _ values: some AnnouncedValues) -> Announcement {
        Self.changed(object, names, to: values.owner(of: object), values)
    }

    /// `PropertiesChanged` of `names` with what the getters read now, to `client` only when given: for
    /// the objects outside the policy (the compatibility interface's), announced as they change.
    static func changed(_ object: AnnouncedObject, _ names: [String], to client: String?, _ values: some AnnouncedValues) -> Announcement {
        .properties(object, names.compactMap { name in values.value(name, of: object).map { .init(name: name, value: $0) } },
                    to: client)
    }

    /// `InterfacesAdded` with every property of the new object.
    private func added(_ object: AnnouncedObject, _ values: some AnnouncedValues) -> Announcement {
        let properties = Value.stringVariantDict(values.properties(of: object))
        return .signal(interface: StandardInterface.objectManager, member: "InterfacesAdded", [
            .objectPath(object.path), .dict(keySignature: "s", valueSignature: "a{sv}", [(.string(object.interface), properties)]),
        ], to: values.owner(of: object))
    }

    /// `InterfacesRemoved` of an object gone, to the client that owned it.
    private func removed(_ object: AnnouncedObject, owner: String?) -> Announcement {
        .signal(interface: StandardInterface.objectManager, member: "InterfacesRemoved", [
            .objectPath(object.path), .array(elementSignature: "s", [.string(object.interface)]),
        ], to: owner)
    }
}
