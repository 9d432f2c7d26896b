// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Sensors

/// `[Posture]` thresholds fitted to the hinge angles a device really reaches (Docs/sensors.md,
/// "Calibration"): the user closes it, opens it as a laptop, lays it flat and folds it back fully,
/// and every angle read meanwhile is kept. Laptop posture lasts up to just past the flat angle, as
/// the defaults have it (190° for a flat 180°), and tablet posture is entered two hysteresis widths
/// short of the furthest fold, so a device folded back fully is a tablet even where the computed
/// angle stops short (a hinge that tops out at 152° where the firmware says 185°). Pure.
public struct HingeCalibration: Sendable {
    /// The four steps, in order.
    public enum Step: Int, CaseIterable, Sendable {
        case closed, laptop, flat, foldedBack

        public var instruction: String {
            switch self {
            case .closed: "Close the lid"
            case .laptop: "Open it as a laptop, the display upright"
            case .flat: "Lay it open flat, display and keyboard in one plane"
            case .foldedBack: "Fold the display back behind the keyboard as far as it goes"
            }
        }
    }

    /// The angle read at each step, degrees.
    public private(set) var steps: [Step: Double] = [:]
    /// The smallest and largest angle read throughout.
    public private(set) var lowest = Double.infinity
    public private(set) var highest = -Double.infinity

    public init() {}

    /// An angle read at any time during the fold.
    public mutating func observe(_ angle: Double) {
        guard angle >= 0, angle.isFinite else { return }
        lowest = min(lowest, angle)
        highest = max(highest, angle)
    }

    /// The angle read when the user confirmed `step`.
    public mutating func confirm(_ step: Step, at angle: Double) {
        observe(angle)
        steps[step] = angle
    }

    /// Why the fold gives no thresholds.
    public struct Refusal: Error, Sendable, Equatable {
        public let message: String
    }

    /// The thresholds inside the range reached, or why there are none: the angles must grow from
    /// step to step, and the hinge must fold back past flat far enough to tell a stand from a tablet.
    public func thresholds(keeping base: PostureThresholds = PostureThresholds()) throws(Refusal) -> PostureThresholds {
        guard let closed = steps[.closed], let laptop = steps[.laptop], let flat = steps[.flat], let folded = steps[.foldedBack] else {
            throw Refusal(message: "not every step was read")
        }
        guard closed < laptop, laptop < flat, flat < folded else {
            throw Refusal(message: "the angles did not grow as the device opened (closed \(Self.figure(closed))°, laptop \(Self.figure(laptop))°, "
                          + "flat \(Self.figure(flat))°, folded back \(Self.figure(folded))°): run it again, one step at a time")
        }
        let beyondFlat = highest - flat
        let hysteresis = min(base.hysteresis, max(1, (beyondFlat / 12).rounded()))
        var result = base
        result.hysteresis = hysteresis
        result.laptopAngle = (flat + hysteresis).rounded()
        result.tabletAngle = (highest - 2 * hysteresis).rounded(.down)
        guard result.inconsistency == nil, result.laptopAngle - hysteresis > laptop else {
            throw Refusal(message: "the hinge folds back only \(Self.figure(beyondFlat))° past flat (\(Self.figure(flat))° to "
                          + "\(Self.figure(highest))°): too little to tell a stand from a tablet")
        }
        for entry in PostureThresholds.keys where !entry.range.contains(result[keyPath: entry.path]) {
            throw Refusal(message: "\(entry.key) would be \(Self.figure(result[keyPath: entry.path])), outside what the configuration "
                          + "accepts (\(Self.figure(entry.range.lowerBound)) to \(Self.figure(entry.range.upperBound)))")
        }
        return result
    }

    /// Degrees to a tenth, without a trailing `.0`.
    public static func figure(_ value: Double) -> String {
        let tenths = (value * 10).rounded() / 10
        return tenths == tenths.rounded() && abs(tenths) < 1e9 ? String(Int(tenths)) : String(tenths)
    }
}
