// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// Apple's SMC light sensor (`applesmc`'s `light` attribute): two sensor values as `(a,b)`, each 0–255,
/// reported as a percentage of the brighter one, in the vendor's unit, as iio-sensor-proxy reports it.
public enum AppleSMCLight {
    /// The largest value either sensor gives.
    public static let maximum = 255.0

    /// The level for the attribute's text; nil for anything but `(a,b)` with two whole numbers.
    public static func level<S: StringProtocol>(_ text: S) -> Double? {
        var body = Substring(text).drop { $0 == " " || $0 == "\n" }
        while let last = body.last, last == " " || last == "\n" { body = body.dropLast() }
        guard body.first == "(", body.last == ")" else { return nil }
        let parts = body.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0].filter { $0 != " " }), let b = Int(parts[1].filter { $0 != " " }) else { return nil }
        return Double(max(a, b)) / maximum * 100
    }
}
