// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

/// The view a compositor has focused: its application id ("" when unknown or not a desktop-file id),
/// its process (0 when unknown) and whether its window fills the screen (nil when the compositor does
/// not say), as `ReportFocus` takes them.
public struct FocusedView: Equatable, Sendable {
    public let application: String
    public let process: UInt32
    /// Fullscreen (or, where the compositor has it, maximized); nil when not known.
    public let fillsScreen: Bool?

    public init(application: String, process: UInt32, fillsScreen: Bool? = nil) {
        self.application = application
        self.process = process
        self.fillsScreen = fillsScreen
    }

    public static let none = FocusedView(application: "", process: 0)

    /// What a compositor reported: an id orientationd would refuse (an X11 class with spaces, GNOME's
    /// `window:3`) is sent as none, so the process still counts; a negative pid is unknown.
    public init(reported id: String, process: Int64, fillsScreen: Bool? = nil) {
        application = ApplicationID(rawValue: id) == nil ? "" : id
        self.process = UInt32(clamping: max(0, process))
        self.fillsScreen = fillsScreen
    }

    /// A sway container: a Wayland view's `app_id`, an X11 view's `window_properties.class`, its
    /// `pid`, and whether it is fullscreen (`fullscreen_mode` 1, on its output, or 2, global).
    init(sway container: JSON?) {
        guard let container else { self = .none; return }
        self.init(reported: container["app_id"]?.stringValue ?? container["window_properties"]?["class"]?.stringValue ?? "",
                  process: container["pid"]?.intValue ?? 0,
                  fillsScreen: container["fullscreen_mode"]?.intValue.map { $0 != 0 })
    }
}
