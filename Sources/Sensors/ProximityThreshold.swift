// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// Near or far from a proximity sensor's raw values (Docs/sensors.md, "Light and proximity"): near
/// above the near level, and once near, far only below 90 % of it, so a hand hovering at the level
/// does not make the screen blink.
public struct ProximityThreshold: Sendable, Equatable {
    /// The raw value above which something is near (`PROXIMITY_NEAR_LEVEL`, `in_proximity_nearlevel`).
    public let nearLevel: Double
    /// The margin below the level that a near reading must fall under to read far.
    public static let farFraction = 0.9
    public private(set) var near = false

    public init(nearLevel: Double) { self.nearLevel = nearLevel }

    /// Takes a raw reading; returns whether something is near now.
    public mutating func classify(_ raw: Double) -> Bool {
        near = near ? raw >= nearLevel * Self.farFraction : raw > nearLevel
        return near
    }

    /// Forgets the last state: the next reading decides from far, as at the start.
    public mutating func reset() { near = false }
}
