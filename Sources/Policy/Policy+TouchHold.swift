// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

/// P20, the touch hold: while the user's hand is on the screen the device does not turn it.
extension Policy {
    /// Whether a touch hold lasts (`TouchHold`).
    public var touchHold: Bool { heldDeviceOrientation != nil }

    /// The hold begins (a contact on a touchscreen) or ends (`[Classifier] TouchHoldMs` after the last
    /// contact lifted). While it lasts, P8 and P10 see the device orientation they last acted on and no
    /// suggestion is made; `DeviceOrientation` still follows the sensor, and rotations the hierarchy, an
    /// application or the user ask for are not held. When it ends, the latest pose is acted on at once.
    public func setTouchHold(_ held: Bool) {
        guard held != touchHold else { return }
        changes.manager.insert(.touchHold)
        if held {
            heldDeviceOrientation = deviceOrientation
            return
        }
        heldDeviceOrientation = nil
        decide(.device)
        if rotationLocked && totalClaims > 0 { considerSuggestion(latestReport) }
    }
}
