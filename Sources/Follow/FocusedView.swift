import Orientation

/// The view a compositor has focused: its application id ("" when unknown or not a desktop-file id)
/// and its process (0 when unknown), as `SetFocusedApplication` takes them.
public struct FocusedView: Equatable, Sendable {
    public let application: String
    public let process: UInt32

    public init(application: String, process: UInt32) {
        self.application = application
        self.process = process
    }

    public static let none = FocusedView(application: "", process: 0)

    /// What a compositor reported: an id orientationd would refuse (an X11 class with spaces, GNOME's
    /// `window:3`) is sent as none, so the process still counts; a negative pid is unknown.
    public init(reported id: String, process: Int64) {
        application = ApplicationID(rawValue: id) == nil ? "" : id
        self.process = UInt32(clamping: max(0, process))
    }

    /// A sway container: a Wayland view's `app_id`, an X11 view's `window_properties.class`, and
    /// its `pid`.
    init(sway container: JSON?) {
        guard let container else { self = .none; return }
        self.init(reported: container["app_id"]?.stringValue ?? container["window_properties"]?["class"]?.stringValue ?? "",
                  process: container["pid"]?.intValue ?? 0)
    }
}
