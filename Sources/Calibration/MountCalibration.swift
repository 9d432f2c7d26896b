// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Sensors

/// The mount matrix measured from three poses held by the user (Docs/sensors.md, "Calibration"):
/// upright in the natural orientation, right edge up, face up. Each pose is a second of raw readings
/// (no mount matrix), in g; it is refused when the device moved, the magnitude is off, the pose is
/// ambiguous or its axis repeats an earlier pose's. The matrix maps the raw axes to the axis
/// convention: (0, −g, 0) upright, (−g, 0, 0) right edge up, (0, 0, +g) face up. Pure.
public struct MountCalibration: Sendable {
    /// The three poses, in the order they are asked for.
    public enum Pose: Int, CaseIterable, Sendable {
        case upright, rightEdgeUp, faceUp

        /// The device axis gravity lies along in this pose (0 x, 1 y, 2 z) and its sign in the
        /// convention's reading.
        public var deviceAxis: (axis: Int, sign: Double) {
            switch self {
            case .upright: (1, -1)
            case .rightEdgeUp: (0, -1)
            case .faceUp: (2, 1)
            }
        }

        /// The pose as the user is asked to hold it.
        public var instruction: String {
            switch self {
            case .upright: "upright in its natural orientation (a laptop open on a desk, a tablet or phone in portrait, the way its maker's logo reads)"
            case .rightEdgeUp: "turned a quarter from there so that its right edge is up (standing on its left edge)"
            case .faceUp: "flat on a table, screen up"
            }
        }
    }

    /// How much any axis may vary within a pose, g.
    public static let maxSpread = 0.05
    /// How far the magnitude may be from 1 g, as a fraction.
    public static let magnitudeTolerance = 0.10
    /// The axis gravity lies along reads at least this, g.
    public static let minLargest = 0.8
    /// Every other axis reads at most this, g.
    public static let maxNext = 0.35

    /// The raw axis (0 x, 1 y, 2 z) each accepted pose had gravity along, and its sign.
    public private(set) var accepted: [Pose: (axis: Int, sign: Double)] = [:]

    public init() {}

    /// Why a pose is refused.
    public struct Refusal: Error, Sendable, Equatable {
        public let message: String
    }

    /// Takes `readings` (x, y, z in g, about a second of them) as `pose`, or says why not.
    public mutating func take(_ pose: Pose, readings: [(x: Double, y: Double, z: Double)]) throws(Refusal) {
        guard !readings.isEmpty else { throw Refusal(message: "no reading could be taken") }
        let axes: [[Double]] = [readings.map(\.x), readings.map(\.y), readings.map(\.z)]
        let spread = axes.map { ($0.max()! - $0.min()!) }.max()!
        guard spread <= Self.maxSpread else {
            throw Refusal(message: "the device moved (the readings varied by \(Self.figure(spread)) g, more than "
                          + "\(Self.figure(Self.maxSpread))): hold it still until the reading is done")
        }
        let mean = axes.map { $0.reduce(0, +) / Double($0.count) }
        let magnitude = (mean[0] * mean[0] + mean[1] * mean[1] + mean[2] * mean[2]).squareRoot()
        guard abs(magnitude - 1) <= Self.magnitudeTolerance else {
            throw Refusal(message: "the magnitude read is \(Self.figure(magnitude)) g, more than 10 % from 1 g: the device was "
                          + "not at rest, or its scale is wrong (Docs/troubleshooting.md)")
        }
        let order = (0..<3).sorted { abs(mean[$0]) > abs(mean[$1]) }
        let largest = order[0], next = order[1]
        guard abs(mean[largest]) >= Self.minLargest, abs(mean[next]) <= Self.maxNext else {
            throw Refusal(message: "the pose is between two: \(Self.axisName(largest)) reads \(Self.figure(mean[largest])) g and "
                          + "\(Self.axisName(next)) \(Self.figure(mean[next])) g; hold one edge (or the screen) straight up")
        }
        if let earlier = accepted.first(where: { $0.key != pose && $0.value.axis == largest })?.key {
            throw Refusal(message: "gravity is along the sensor's \(Self.axisName(largest)) axis again, as in the "
                          + "\(earlier.name) pose: this pose must be a quarter turn from it")
        }
        accepted[pose] = (largest, mean[largest] > 0 ? 1 : -1)
    }

    /// The matrix, once all three poses are taken: a signed permutation whose rows take each raw axis
    /// to the device axis of its pose; nil before.
    public var matrix: MountMatrix? {
        guard accepted.count == 3 else { return nil }
        var rows = [[Double]](repeating: [0, 0, 0], count: 3)
        for (pose, raw) in accepted {
            let device = pose.deviceAxis
            // device[d] = rows[d][a] × raw[a], with raw[a] = raw.sign × g, must be device.sign × g.
            rows[device.axis][raw.axis] = device.sign * raw.sign
        }
        return try? MountMatrix(rows: rows)
    }

    /// +1 for a rotation, −1 for a mirror image (a sensor whose axes are left-handed).
    public static func determinant(_ m: MountMatrix) -> Double {
        let r = m.rows
        return r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) - r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0])
            + r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0])
    }

    /// Whether `m` is a signed permutation: one ±1 in each row and each column, zeros elsewhere.
    public static func isSignedPermutation(_ m: MountMatrix) -> Bool {
        let cells = m.rows.flatMap { $0 }
        guard cells.allSatisfy({ $0 == 0 || abs($0) == 1 }) else { return false }
        return (0..<3).allSatisfy { i in m.rows[i].filter { $0 != 0 }.count == 1 && m.rows.filter { $0[i] != 0 }.count == 1 }
    }

    static func axisName(_ axis: Int) -> String { ["x", "y", "z"][axis] }

    static func figure(_ value: Double) -> String { String((value * 100).rounded() / 100) }
}

extension MountCalibration.Pose {
    /// `upright`, `right edge up`, `face up`.
    public var name: String {
        switch self {
        case .upright: "upright"
        case .rightEdgeUp: "right edge up"
        case .faceUp: "face up"
        }
    }
}
