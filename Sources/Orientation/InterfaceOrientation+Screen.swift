// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// How a screen shows an interface orientation: the rotation compositors and X11 apply to an output
/// whose unrotated picture is the interface in portrait (the panel's natural orientation).
///
/// Landscape-right is the device turned anticlockwise (its right edge up, iio-sensor-proxy's
/// `right-up`), so the picture turns clockwise to stay upright: sway's `transform 90`, which
/// `sway-output(5)` defines as clockwise, and `xrandr --rotate right`.
extension InterfaceOrientation {
    /// The picture's rotation in degrees, clockwise: 0, 90, 180 or 270; nil for unknown.
    public var screenDegrees: UInt32? {
        switch self {
        case .unknown: nil
        case .portrait: 0
        case .landscapeRight: 90
        case .portraitUpsideDown: 180
        case .landscapeLeft: 270
        }
    }

    /// The transform wlroots compositors and tools take (sway's `output … transform`, `wlr-randr --transform`).
    public var wlrootsTransform: String? {
        screenDegrees.map { $0 == 0 ? "normal" : String($0) }
    }

    /// The same rotation as a `wl_output.transform` number, 0–3, which Hyprland's `monitor … transform` takes.
    public var wlOutputTransform: UInt32? {
        screenDegrees.map { $0 / 90 }
    }

    /// The rotation `xrandr --rotate` takes.
    public var xrandrRotation: String? {
        switch self {
        case .unknown: nil
        case .portrait: "normal"
        case .landscapeRight: "right"
        case .portraitUpsideDown: "inverted"
        case .landscapeLeft: "left"
        }
    }
}
