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

    /// A sway container: a Wayland view's `app_id`, an X11 view's `window_properties.class`, and
    /// its `pid`. An id orientationd would refuse (an X11 class with spaces, say) is sent as none,
    /// so the process still counts.
    init(sway container: JSON?) {
        guard let container else { self = .none; return }
        let id = container["app_id"]?.stringValue ?? container["window_properties"]?["class"]?.stringValue ?? ""
        application = ApplicationID(rawValue: id) == nil ? "" : id
        process = UInt32(clamping: max(0, container["pid"]?.intValue ?? 0))
    }
}
