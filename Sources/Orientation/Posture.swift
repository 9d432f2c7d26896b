// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// How a convertible is folded (Docs/sensors.md, "Posture"): the keyboard under the screen (`laptop`), behind it
/// with the keyboard down (`stand`), the two halves an upside-down V (`tent`), folded flat back to
/// back (`tablet`), or not known (phones, slates, no posture source).
public enum Posture: String, CaseIterable, Sendable {
    case laptop
    case stand
    case tent
    case tablet
    case unknown

    /// Parses one of the names, as the config's `[Posture] Rotate` lists them.
    public init(parsing text: String) throws(OrientationParseError) {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let name = String(text.drop(while: isBlank).reversed().drop(while: isBlank).reversed()).lowercased()
        guard let posture = Posture(rawValue: name) else {
            throw OrientationParseError("'\(text)' is not a posture; accepted: laptop, stand, tent, tablet, unknown")
        }
        self = posture
    }

    /// The postures in which the device turns the screen by default (P18): all but `laptop`.
    public static let rotatingByDefault: Set<Posture> = [.stand, .tent, .tablet, .unknown]

    /// Parses a `;`-separated list of postures (empty items skipped); empty means none.
    public static func set(parsing text: String) throws(OrientationParseError) -> Set<Posture> {
        var result: Set<Posture> = []
        for item in text.split(separator: ";") where !item.allSatisfy({ $0 == " " || $0 == "\t" }) {
            result.insert(try Posture(parsing: String(item)))
        }
        return result
    }
}
