// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// The physical pose of the device, with UIKit's `UIDeviceOrientation` raw values.
public enum DeviceOrientation: UInt32, CaseIterable, Sendable {
    case unknown = 0
    case portrait = 1
    case portraitUpsideDown = 2
    /// Right edge up (home button on the right).
    case landscapeLeft = 3
    /// Left edge up.
    case landscapeRight = 4
    case faceUp = 5
    case faceDown = 6

    /// The name used on the command line, in the config file and in logs.
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .portrait: "portrait"
        case .portraitUpsideDown: "portrait-upside-down"
        case .landscapeLeft: "landscape-left"
        case .landscapeRight: "landscape-right"
        case .faceUp: "face-up"
        case .faceDown: "face-down"
        }
    }

    /// The device's edge that is up in this pose, as iio-sensor-proxy names poses (`right-up`):
    /// `top`, `bottom`, `right` or `left`; nil for unknown, face up and face down.
    public var edgeUp: String? {
        switch self {
        case .portrait: "top"
        case .portraitUpsideDown: "bottom"
        case .landscapeLeft: "right"
        case .landscapeRight: "left"
        case .unknown, .faceUp, .faceDown: nil
        }
    }

    /// The interface orientation this pose asks for; nil for unknown, face up and face down.
    ///
    /// UIKit crosses the landscape names (device landscape-left is interface
    /// landscape-right) but keeps the raw values equal, so the mapping is by value.
    public var interfaceOrientation: InterfaceOrientation? {
        switch self {
        case .portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight:
            InterfaceOrientation(rawValue: rawValue)
        case .unknown, .faceUp, .faceDown:
            nil
        }
    }

    /// Parses a name (`landscape-left`) or a raw value (`3`).
    public init(parsing text: String) throws(OrientationParseError) {
        if let value = UInt32(text), let found = DeviceOrientation(rawValue: value) {
            self = found
            return
        }
        if let found = DeviceOrientation.allCases.first(where: { $0.name == text.lowercased() }) {
            self = found
            return
        }
        throw OrientationParseError(
            "'\(text)' is not a device orientation; accepted: "
                + DeviceOrientation.allCases.map { "\($0.name) (\($0.rawValue))" }.joined(separator: ", "))
    }
}
