// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

extension Policy {
    /// Whether the device turns the screen in the current posture (P18, `[Posture] Rotate`).
    public var postureTurnsScreen: Bool { configuration.rotatingPostures.contains(posture) }

    /// The posture source's reading (P18): `angle` in degrees, −1 when not known. A posture change
    /// applies P10 with the orientation P8 now sees, so entering a posture outside `Rotate` turns a
    /// turned screen upright when the mask in force allows it, and leaving it follows the device again.
    public func setPosture(_ new: Posture, hingeAngle angle: Double = -1) {
        let angle = angle.isFinite && angle >= 0 ? angle : -1
        if angle != hingeAngle {
            hingeAngle = angle
            changes.manager.insert(.hingeAngle)
        }
        guard new != posture else { return }
        posture = new
        changes.manager.insert(.posture)
        if !postureTurnsScreen { withdrawSuggestion() }
        decide(.posture)
    }
}
