// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc

/// The hinge angle from two accelerometers, one in the display and one in the base (Docs/sensors.md, "Posture",
/// source 2), each reading in m/s² after its own mount matrix, in which the two agree when the lid
/// is closed: atan2(z_base, y_base) − atan2(z_display, y_display), in degrees modulo 360 (0 closed,
/// 180 flat open, 360 folded back).
public enum HingeFromAccelerometers {
    /// Within this many degrees of vertical, the hinge (the x axis) leaves the angle unknown: both
    /// halves then read gravity along the hinge, and their turn about it cannot be told.
    public static let verticalHingeDegrees = 25.0

    /// The angle, or nil when the hinge is near vertical or a reading has no length.
    public static func angle(display: (x: Double, y: Double, z: Double), base: (x: Double, y: Double, z: Double)) -> Double? {
        let limit = cos(verticalHingeDegrees * .pi / 180)
        for v in [display, base] {
            let magnitude = (v.x * v.x + v.y * v.y + v.z * v.z).squareRoot()
            guard magnitude.isFinite, magnitude > 0, abs(v.x) / magnitude < limit else { return nil }
        }
        var angle = (atan2(base.z, base.y) - atan2(display.z, display.y)) * 180 / .pi
        angle = angle.truncatingRemainder(dividingBy: 360)
        if angle < 0 { angle += 360 }
        return angle
    }
}
