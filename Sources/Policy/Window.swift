// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

/// A window as the policy keeps it (UIKit's `UIWindow` with its delegate's mask).
public struct Window: Sendable {
    public let id: WindowID
    public let owner: ClientID
    /// The process that owns it, for the focus authority (P6f); 0 when unknown, which is never focused.
    public let process: UInt32
    /// `application:supportedInterfaceOrientationsForWindow:`; empty means not implemented.
    public internal(set) var delegateMask: OrientationMask = []
    public internal(set) var rootController: ControllerID?
    /// When it was registered, for P6's fallback.
    let registration: UInt64
    /// When it last became key, for P6; nil when it never was.
    var lastKey: UInt64?
    /// When `MakeKeyAndVisible` last chose it, for P6f: its process's choice for when it is focused.
    var chosen: UInt64?
    /// The values that follow from the window, its hierarchy and the application mask, as the policy
    /// last settled them (`Policy.settle()`); a settling that moves one names it in `Changes`.
    var settled = Settled()

    /// A window's properties that follow from others.
    struct Settled: Equatable {
        var supportedMask: OrientationMask = []
        var effectiveMask: OrientationMask = []
        var decidingController: ControllerID?

        /// The properties whose values differ from `other`'s.
        func changes(from other: Settled) -> WindowProperties {
            var named: WindowProperties = []
            if supportedMask != other.supportedMask { named.insert(.supportedMask) }
            if effectiveMask != other.effectiveMask { named.insert(.effectiveMask) }
            if decidingController != other.decidingController { named.insert(.decidingController) }
            return named
        }
    }

    /// The stored properties whose values differ from `old`'s.
    func changes(from old: Window) -> WindowProperties {
        var named: WindowProperties = []
        if delegateMask != old.delegateMask { named.insert(.delegateMask) }
        if rootController != old.rootController { named.insert(.rootController) }
        return named
    }
}
