// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

/// The posture a hinge angle gives (Docs/sensors.md, "Posture", source 1), with the hysteresis that keeps
/// a hinge held near a threshold from flickering: each threshold is entered `hysteresis` degrees past
/// it and left `hysteresis` degrees back. Pure: the angles in, the posture out.
public struct PostureThresholds: Equatable, Sendable {
    /// Below this hinge angle the device is a laptop, degrees.
    public var laptopAngle = 190.0
    /// From this hinge angle the device is a tablet, degrees.
    public var tabletAngle = 340.0
    /// How far past a threshold the angle must go to cross it, degrees.
    public var hysteresis = 10.0
    /// Between laptop and tablet, a keyboard angle above this makes a tent, degrees.
    public var tentKeyboardAngle = 30.0

    public init() {}

    /// The config keys of `[Posture]`, with their accepted ranges: wide enough for a hinge whose computed
    /// angle stops short (`orientationctl calibrate hinge` writes thresholds inside the range reached).
    public static var keys: [(key: String, path: WritableKeyPath<PostureThresholds, Double>, range: ClosedRange<Double>)] {[
        ("LaptopAngle", \.laptopAngle, 45...300),
        ("TabletAngle", \.tabletAngle, 100...360),
        ("Hysteresis", \.hysteresis, 0...45),
        ("TentKeyboardAngle", \.tentKeyboardAngle, 0...90),
    ]}

    /// Why these thresholds make no sense together, nil when they do.
    public var inconsistency: String? {
        laptopAngle + 2 * hysteresis >= tabletAngle ? "LaptopAngle + 2 × Hysteresis must be below TabletAngle" : nil
    }

    /// The posture for `hinge` degrees (0 closed, 180 flat open, 360 folded back), coming from
    /// `previous`. Between laptop and tablet: `tent` when the display reads upside down or the
    /// keyboard half stands above `tentKeyboardAngle`, else `stand`.
    public func posture(hinge: Double, keyboard: Double?, displayUpsideDown: Bool, previous: Posture) -> Posture {
        let folded: Posture
        switch previous {
        case .laptop:
            folded = hinge >= tabletAngle + hysteresis ? .tablet : hinge >= laptopAngle + hysteresis ? .stand : .laptop
        case .tablet:
            folded = hinge < laptopAngle - hysteresis ? .laptop : hinge < tabletAngle - hysteresis ? .stand : .tablet
        case .stand, .tent:
            folded = hinge < laptopAngle - hysteresis ? .laptop : hinge >= tabletAngle + hysteresis ? .tablet : .stand
        case .unknown:
            folded = hinge < laptopAngle ? .laptop : hinge >= tabletAngle ? .tablet : .stand
        }
        guard folded == .stand else { return folded }
        return displayUpsideDown || (keyboard ?? 0) > tentKeyboardAngle ? .tent : .stand
    }
}
