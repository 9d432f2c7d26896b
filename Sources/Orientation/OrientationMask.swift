// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// A set of interface orientations, `1 << InterfaceOrientation.rawValue` per member, as UIKit's mask.
public struct OrientationMask: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let portrait = OrientationMask(rawValue: 1 << 1)
    public static let portraitUpsideDown = OrientationMask(rawValue: 1 << 2)
    public static let landscapeRight = OrientationMask(rawValue: 1 << 3)
    public static let landscapeLeft = OrientationMask(rawValue: 1 << 4)
    public static let landscape: OrientationMask = [.landscapeLeft, .landscapeRight]
    public static let all: OrientationMask = [.portrait, .portraitUpsideDown, .landscape]
    public static let allButUpsideDown: OrientationMask = [.portrait, .landscape]

    /// True when the mask is a non-empty subset of `all`: the only masks the API accepts where 0 has no meaning.
    public var isValid: Bool { rawValue != 0 && rawValue & ~OrientationMask.all.rawValue == 0 }

    /// True when `orientation` is one of the mask's members.
    public func contains(_ orientation: InterfaceOrientation) -> Bool {
        orientation != .unknown && contains(orientation.mask)
    }

    /// The members, in raw-value order.
    public var orientations: [InterfaceOrientation] {
        InterfaceOrientation.allCases.filter { contains($0) }
    }

    /// The first member in the policy's fallback order, nil when empty.
    public var firstInFallbackOrder: InterfaceOrientation? {
        InterfaceOrientation.fallbackOrder.first { contains($0) }
    }

    /// The members' names, for people: `portrait|landscape-right`, `none` when empty.
    public var names: [String] { orientations.map(\.name) }

    public var description: String {
        rawValue & ~OrientationMask.all.rawValue != 0 || rawValue == 0
            ? "\(rawValue)" : "\(names.joined(separator: "|")) (\(rawValue))"
    }

    private static let groupNames: [(String, OrientationMask)] = [
        ("landscape", .landscape), ("all", .all), ("all-but-upside-down", .allButUpsideDown),
    ]

    /// Every name `init(parsing:)` accepts: the four orientations, then the groups.
    public static var acceptedNames: [String] { InterfaceOrientation.fallbackOrder.map(\.name) + groupNames.map(\.0) }

    /// Parses `landscape`, `all-but-upside-down`, `portrait|landscape-left`, `portrait,landscape-left`,
    /// `landscape;portrait;` (a desktop file's list) or `26`.
    ///
    /// The result is always a valid mask: zero and bits outside 30 are refused,
    /// so the caller never has to check again.
    public init(parsing text: String) throws(OrientationParseError) {
        let trimmed = text.trimmingBlanks
        let accepted =
            "accepted: a number that is a non-empty subset of 30 (portrait 2, portrait-upside-down 4, "
            + "landscape-right 8, landscape-left 16), or names joined by ',', '|' or ';' among "
            + OrientationMask.acceptedNames.joined(separator: ", ")
        if let value = UInt32(trimmed) {
            let mask = OrientationMask(rawValue: value)
            guard mask.isValid else {
                throw OrientationParseError("\(value) is not a valid orientation mask; \(accepted)")
            }
            self = mask
            return
        }
        var mask: OrientationMask = []
        for part in trimmed.split(whereSeparator: { $0 == "," || $0 == "|" || $0 == ";" }) {
            let name = String(part).trimmingBlanks.lowercased()
            if let group = OrientationMask.groupNames.first(where: { $0.0 == name }) {
                mask.formUnion(group.1)
            } else if let single = InterfaceOrientation.allCases.first(where: { $0.name == name && $0 != .unknown }) {
                mask.formUnion(single.mask)
            } else {
                throw OrientationParseError("'\(name)' in '\(text)' is not an orientation name; \(accepted)")
            }
        }
        guard !mask.isEmpty else {
            throw OrientationParseError("'\(text)' names no orientation; \(accepted)")
        }
        self = mask
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs (Foundation stays out of the daemon).
    var trimmingBlanks: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
