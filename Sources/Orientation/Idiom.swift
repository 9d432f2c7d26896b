// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// The kind of device, which sets the default masks (UIKit's `userInterfaceIdiom`).
public enum Idiom: String, CaseIterable, Sendable {
    case phone
    case tablet

    /// The default for the application mask and for every controller: all but upside down on a phone, all on a tablet.
    public var defaultMask: OrientationMask { self == .phone ? .allButUpsideDown : .all }

    /// Parses `phone` or `tablet`.
    public init(parsing text: String) throws(OrientationParseError) {
        guard let idiom = Idiom(rawValue: text.lowercased()) else {
            throw OrientationParseError("'\(text)' is not an idiom; accepted: phone, tablet")
        }
        self = idiom
    }
}
