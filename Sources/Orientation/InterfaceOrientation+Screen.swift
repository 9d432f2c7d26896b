// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// How a screen shows an interface orientation: the rotation compositors and X11 apply to an output
/// whose unrotated picture is the interface in portrait (the panel's natural orientation).
///
/// Landscape-right is the device turned anticlockwise (its right edge up, iio-sensor-proxy's
/// `right-up`), so the picture turns clockwise to stay upright: sway's `transform 90`, which
/// `sway-output(5)` defines as clockwise, and `xrandr --rotate right`; `wl_output.transform`
/// counts anticlockwise, so the same picture is its 270 (3), in wlroots' output management and
/// `wlr-randr` alike (Docs/shells.md, "Transforms"; measured with headless phoc and sway).
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

    /// sway's `output … transform` (`normal`, `90`, `180`, `270`), which `sway-output(5)` counts
    /// clockwise: the picture's rotation.
    public var swayTransform: String? {
        screenDegrees.map { $0 == 0 ? "normal" : String($0) }
    }

    /// The same picture as a `wl_output.transform` value, 0–3, which counts the other way
    /// (anticlockwise): landscape-right is 3 (270), landscape-left 1 (90). What
    /// `zwlr_output_management_v1` takes and reports, and Hyprland's `monitor … transform`.
    public var wlOutputTransform: UInt32? {
        screenDegrees.map { (360 - $0) % 360 / 90 }
    }

    /// The same as `wlr-randr --transform` takes and prints it: the `wl_output.transform` in degrees
    /// (`normal`, `90`, `180`, `270`); landscape-right is `270`.
    public var wlrRandrTransform: String? {
        wlOutputTransform.map { $0 == 0 ? "normal" : String($0 * 90) }
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
