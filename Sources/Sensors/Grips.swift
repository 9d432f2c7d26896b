// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

/// The grips (Docs/sensors.md, "The classifier") in which the accelerometer must not be believed, each a rule of the
/// samples' tilts and timestamps: while one holds, the classifier proposes no edge change (a pending
/// candidate is dropped), and face up or down is still seen.
struct Grips: Sendable {
    /// Lying on the back, the phone held above the face: the tilt went down to `overheadTilt`.
    private(set) var overhead = false
    /// Since when the device has been reported face up or face down.
    private var flatSince: Double?
    /// Picked up from a table: no edge change until then.
    private var liftHoldUntil: Double?
    /// A swing: no edge change until then.
    private var swingHoldUntil: Double?
    /// The tilts of the last `swingWindowMs`, oldest first.
    private var tilts: [(t: Double, tilt: Double)] = []

    /// Takes one sample's tilt; true when `proposed`, an edge other than `reported`, must wait.
    mutating func hold(_ proposed: DeviceOrientation, reported: DeviceOrientation, tilt: Double, at t: Double,
                       _ settings: ClassifierSettings) -> Bool {
        // Overhead: entered at the overhead tilt, left above the end tilt.
        if tilt <= settings.overheadTilt { overhead = true } else if tilt > settings.overheadEndTilt { overhead = false }
        // Flat, then picked up: the first sample back within the flat angle after a second flat.
        let flat = reported == .faceUp || reported == .faceDown
        if !flat {
            flatSince = nil
            liftHoldUntil = nil
        } else if flatSince == nil {
            flatSince = t
        }
        let proposesEdge = proposed.interfaceOrientation != nil
        if flat, proposesEdge, liftHoldUntil == nil, let since = flatSince, t - since >= settings.flatLiftAfterMs {
            liftHoldUntil = t + settings.flatLiftHoldMs
        } else if flat, !proposesEdge {
            liftHoldUntil = nil
        }
        // Swing: the tilt rose fast from the lowest of the window.
        let start = tilts.firstIndex { $0.t >= t - settings.swingWindowMs } ?? tilts.count
        if start > 0 { tilts.removeFirst(start) }
        let swinging = swingHoldUntil.map { t < $0 } ?? false
        // The lowest by a loop: a map would allocate on every sample.
        var lowest = Double.infinity
        for entry in tilts where entry.tilt < lowest { lowest = entry.tilt }
        if !swinging, tilt - lowest >= settings.swingDegrees {
            swingHoldUntil = t + settings.swingHoldMs
        }
        tilts.append((t, tilt))

        guard proposesEdge, proposed != reported else { return false }
        return overhead || liftHoldUntil.map { t < $0 } ?? false || swingHoldUntil.map { t < $0 } ?? false
    }
}
