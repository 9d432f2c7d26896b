// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// The orientation of the user interface, with UIKit's `UIInterfaceOrientation` raw values.
public enum InterfaceOrientation: UInt32, CaseIterable, Sendable {
    case unknown = 0
    case portrait = 1
    case portraitUpsideDown = 2
    /// Equals device landscape-left: the interface's top is at the device's right edge.
    case landscapeRight = 3
    /// Equals device landscape-right.
    case landscapeLeft = 4

    /// The four real orientations, in the order the policy falls back through
    /// when nothing else decides: portrait, landscape-right, landscape-left, upside down.
    public static let fallbackOrder: [InterfaceOrientation] = [
        .portrait, .landscapeRight, .landscapeLeft, .portraitUpsideDown,
    ]

    /// The name used on the command line, in the config file and in logs.
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .portrait: "portrait"
        case .portraitUpsideDown: "portrait-upside-down"
        case .landscapeRight: "landscape-right"
        case .landscapeLeft: "landscape-left"
        }
    }

    /// The mask holding only this orientation; empty for unknown.
    public var mask: OrientationMask {
        self == .unknown ? [] : OrientationMask(rawValue: 1 << rawValue)
    }

    /// True for landscape-left and landscape-right.
    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }

    /// Parses a name (`landscape-right`) or a raw value (`3`).
    public init(parsing text: String) throws(OrientationParseError) {
        if let value = UInt32(text), let found = InterfaceOrientation(rawValue: value) {
            self = found
            return
        }
        if let found = InterfaceOrientation.allCases.first(where: { $0.name == text.lowercased() }) {
            self = found
            return
        }
        throw OrientationParseError(
            "'\(text)' is not an interface orientation; accepted: "
                + InterfaceOrientation.allCases.map { "\($0.name) (\($0.rawValue))" }.joined(separator: ", "))
    }
}
