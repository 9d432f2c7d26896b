// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

/// The three kinds of view controller the policy knows.
public enum ControllerKind: String, CaseIterable, Sendable {
    case view
    case navigation
    case tab

    /// True for navigation and tab controllers, which hold children.
    public var isContainer: Bool { self != .view }
}

/// A view controller as the policy keeps it, with its place in a hierarchy.
public struct Controller: Sendable {
    public let id: ControllerID
    public let owner: ClientID
    public let kind: ControllerKind
    /// `supportedInterfaceOrientations`: the controller's own value, never empty.
    public internal(set) var supportedMask: OrientationMask
    public internal(set) var shouldAutorotate = true
    /// iOS 26's `prefersInterfaceOrientationLocked` (P17): while it decides for the key window, device
    /// turns do not rotate.
    public internal(set) var prefersOrientationLocked = false
    /// `preferredInterfaceOrientationForPresentation`; unknown means not implemented.
    public internal(set) var preferredOrientation: InterfaceOrientation = .unknown
    /// Containers only: whether the top or selected child's rules are used.
    public internal(set) var forwardsToChild = true
    /// The navigation stack (bottom to top) or the tabs.
    public internal(set) var children: [ControllerID] = []
    /// Tabs only: the index of the selected child.
    public internal(set) var selectedIndex: UInt32 = 0
    public internal(set) var presented: ControllerID?
    public internal(set) var presenting: ControllerID?
    /// The container holding it.
    public internal(set) var parent: ControllerID?
    /// The window it is the root of.
    public internal(set) var rootOf: WindowID?

    /// The controller one level up: its container or its presenter.
    var up: ControllerID? { parent ?? presenting }

    /// True when it stands somewhere: a window's root, a container's child or presented.
    var isPlaced: Bool { parent != nil || presenting != nil || rootOf != nil }

    /// The child whose rules a forwarding container uses, if any (P4).
    var forwardedChild: ControllerID? {
        guard forwardsToChild else { return nil }
        switch kind {
        case .view: return nil
        case .navigation: return children.last
        case .tab: return Int(selectedIndex) < children.count ? children[Int(selectedIndex)] : nil
        }
    }

    /// The controllers directly above it in the hierarchy: its children and what it presents.
    var descendants: [ControllerID] { presented.map { children + [$0] } ?? children }

    /// The properties whose values differ from `old`'s.
    func changes(from old: Controller) -> ControllerProperties {
        var named: ControllerProperties = []
        if supportedMask != old.supportedMask { named.insert(.supportedMask) }
        if shouldAutorotate != old.shouldAutorotate { named.insert(.shouldAutorotate) }
        if preferredOrientation != old.preferredOrientation { named.insert(.preferredOrientation) }
        if forwardsToChild != old.forwardsToChild { named.insert(.forwardsToChild) }
        if children != old.children { named.insert(.viewControllers) }
        if selectedIndex != old.selectedIndex { named.insert(.selectedIndex) }
        if presented != old.presented { named.insert(.presentedController) }
        if presenting != old.presenting { named.insert(.presentingController) }
        if parent != old.parent { named.insert(.parent) }
        if prefersOrientationLocked != old.prefersOrientationLocked { named.insert(.prefersOrientationLocked) }
        return named
    }
}
