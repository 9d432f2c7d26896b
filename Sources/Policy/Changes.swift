// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

/// Something that happened, in the order the service must announce it.
public enum PolicyEvent: Equatable, Sendable {
    /// `DeviceOrientation` read `from` and now reads `to`.
    case deviceOrientationChanged(from: DeviceOrientation, to: DeviceOrientation)
    /// A rotation starts; `InterfaceOrientation` already reads `to`. The caller completes it later (P14).
    case willChange(from: InterfaceOrientation, to: InterfaceOrientation)
    /// The rotation has finished.
    case didChange(from: InterfaceOrientation, to: InterfaceOrientation)
    case windowAdded(WindowID)
    case windowRemoved(WindowID)
    case controllerAdded(ControllerID)
    case controllerRemoved(ControllerID)
    /// The total of claims went from 0 to more (true) or back to 0 (false): start or stop the sensor.
    case sensorNeeded(Bool)
    /// While rotation is locked, the device settled where the interface could turn: `RotationSuggested` (P19).
    case rotationSuggested(InterfaceOrientation)
}

/// A set of an object's properties, by the names the contract gives them (dbus-api.md).
public protocol NamedProperties: OptionSet, Hashable, Sendable where RawValue == UInt16, Element == Self {
    /// Every property with its name, in the order of the contract's table.
    static var named: [(Self, String)] { get }
}

extension NamedProperties {
    /// The names of the properties in the set, in the contract's order.
    public var names: [String] { Self.named.compactMap { contains($0.0) ? $0.1 : nil } }
}

/// The manager's properties a policy change may alter. `DeviceOrientation` and `InterfaceOrientation`
/// are not among them: their events (`deviceOrientationChanged`, `willChange`) carry and announce them.
public struct ManagerProperties: NamedProperties {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static let supportedMask = Self(rawValue: 1 << 0)
    public static let applicationMask = Self(rawValue: 1 << 1)
    public static let rotationLocked = Self(rawValue: 1 << 2)
    public static let keyWindow = Self(rawValue: 1 << 3)
    public static let focusedProcess = Self(rawValue: 1 << 4)
    public static let interfaceLockedByApplication = Self(rawValue: 1 << 5)
    public static let focusedApplication = Self(rawValue: 1 << 6)
    public static let focusedApplicationMask = Self(rawValue: 1 << 7)
    public static let focusedApplicationSource = Self(rawValue: 1 << 8)
    public static let applicationOrientations = Self(rawValue: 1 << 9)
    public static let posture = Self(rawValue: 1 << 10)
    public static let hingeAngle = Self(rawValue: 1 << 11)
    public static let suggestedOrientation = Self(rawValue: 1 << 12)
    public static let touchHold = Self(rawValue: 1 << 13)
    public static let named: [(Self, String)] = [
        (.supportedMask, "SupportedMask"), (.applicationMask, "ApplicationMask"), (.rotationLocked, "RotationLocked"),
        (.keyWindow, "KeyWindow"), (.focusedProcess, "FocusedProcess"), (.focusedApplication, "FocusedApplication"),
        (.focusedApplicationMask, "FocusedApplicationMask"), (.focusedApplicationSource, "FocusedApplicationSource"),
        (.applicationOrientations, "ApplicationOrientations"),
        (.interfaceLockedByApplication, "InterfaceLockedByApplication"),
        (.posture, "Posture"), (.hingeAngle, "HingeAngle"), (.suggestedOrientation, "SuggestedOrientation"),
        (.touchHold, "TouchHold"),
    ]
}

/// A window's properties a policy change may alter.
public struct WindowProperties: NamedProperties {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static let supportedMask = Self(rawValue: 1 << 0)
    public static let delegateMask = Self(rawValue: 1 << 1)
    public static let rootController = Self(rawValue: 1 << 2)
    public static let isKey = Self(rawValue: 1 << 3)
    public static let effectiveMask = Self(rawValue: 1 << 4)
    public static let decidingController = Self(rawValue: 1 << 5)
    public static let keyWhenFocused = Self(rawValue: 1 << 6)
    public static let named: [(Self, String)] = [
        (.supportedMask, "SupportedMask"), (.delegateMask, "DelegateMask"), (.rootController, "RootController"),
        (.isKey, "IsKey"), (.keyWhenFocused, "KeyWhenFocused"), (.effectiveMask, "EffectiveMask"),
        (.decidingController, "DecidingController"),
    ]
}

/// A controller's properties a policy change may alter (`Kind` never changes).
public struct ControllerProperties: NamedProperties {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static let supportedMask = Self(rawValue: 1 << 0)
    public static let shouldAutorotate = Self(rawValue: 1 << 1)
    public static let preferredOrientation = Self(rawValue: 1 << 2)
    public static let forwardsToChild = Self(rawValue: 1 << 3)
    public static let viewControllers = Self(rawValue: 1 << 4)
    public static let selectedIndex = Self(rawValue: 1 << 5)
    public static let presentedController = Self(rawValue: 1 << 6)
    public static let presentingController = Self(rawValue: 1 << 7)
    public static let parent = Self(rawValue: 1 << 8)
    public static let prefersOrientationLocked = Self(rawValue: 1 << 9)
    public static let named: [(Self, String)] = [
        (.supportedMask, "SupportedMask"), (.shouldAutorotate, "ShouldAutorotate"),
        (.preferredOrientation, "PreferredOrientation"), (.forwardsToChild, "ForwardsToChild"),
        (.viewControllers, "ViewControllers"), (.selectedIndex, "SelectedIndex"),
        (.presentedController, "PresentedController"), (.presentingController, "PresentingController"),
        (.parent, "Parent"), (.prefersOrientationLocked, "PrefersOrientationLocked"),
    ]
}

/// What one or more operations changed: ordered events, and per object the properties whose values
/// changed (as iio-sensor-proxy's `PROP_` mask does), so an announcer needs no copy of what it sent.
public struct Changes: Sendable {
    public internal(set) var events: [PolicyEvent] = []
    public internal(set) var manager: ManagerProperties = []
    public internal(set) var windows: [WindowID: WindowProperties] = [:]
    public internal(set) var controllers: [ControllerID: ControllerProperties] = [:]
    /// The owners of the windows and controllers this batch removed, whose removal is announced to
    /// them alone after the objects are gone.
    public internal(set) var removedWindowOwners: [WindowID: ClientID] = [:]
    public internal(set) var removedControllerOwners: [ControllerID: ClientID] = [:]

    public init() {}

    /// True when nothing happened.
    public var isEmpty: Bool { events.isEmpty && manager.isEmpty && windows.isEmpty && controllers.isEmpty }

    mutating func name(_ properties: WindowProperties, of id: WindowID) {
        guard !properties.isEmpty else { return }
        windows[id, default: []].formUnion(properties)
    }

    mutating func name(_ properties: ControllerProperties, of id: ControllerID) {
        guard !properties.isEmpty else { return }
        controllers[id, default: []].formUnion(properties)
    }
}
