import Policy

/// The names and paths of the D-Bus contract (dbus-api.md, "Names").
public enum Names {
    public static let bus = "org.orientationd.Orientation1"
    public static let managerPath = "/org/orientationd/Orientation1"
    public static let managerInterface = "org.orientationd.Orientation1"
    public static let windowInterface = "org.orientationd.Orientation1.Window"
    public static let controllerInterface = "org.orientationd.Orientation1.Controller"
    public static let errorPrefix = "org.orientationd.Orientation1.Error."
    public static let windowPrefix = managerPath + "/window/"
    public static let controllerPrefix = managerPath + "/controller/"

    /// `/org/orientationd/Orientation1/window/N`.
    public static func path(of id: WindowID) -> String { windowPrefix + String(id.rawValue) }

    /// `/org/orientationd/Orientation1/controller/N`.
    public static func path(of id: ControllerID) -> String { controllerPrefix + String(id.rawValue) }

    /// `/` for none, as the API writes it.
    static func path(of id: ControllerID?) -> String { id.map { path(of: $0) } ?? "/" }

    /// The window a path names, nil when it names none.
    static func window(at path: String) -> WindowID? {
        number(after: windowPrefix, in: path).map(WindowID.init(rawValue:))
    }

    /// The controller a path names, nil when it names none.
    static func controller(at path: String) -> ControllerID? {
        number(after: controllerPrefix, in: path).map(ControllerID.init(rawValue:))
    }

    private static func number(after prefix: String, in path: String) -> UInt32? {
        guard path.hasPrefix(prefix) else { return nil }
        let digits = path.dropFirst(prefix.count)
        guard !digits.isEmpty, digits.first != "0", digits.allSatisfy(\.isASCII) else { return nil }
        return UInt32(digits)
    }
}
