import Orientation

/// Something that happened, in the order the service must announce it.
public enum PolicyEvent: Equatable, Sendable {
    /// `DeviceOrientation` now reads this value.
    case deviceOrientationChanged(DeviceOrientation)
    /// A rotation starts; `InterfaceOrientation` already reads `to`. The caller completes it later (P14).
    case willChange(from: InterfaceOrientation, to: InterfaceOrientation)
    /// The rotation has finished.
    case didChange(from: InterfaceOrientation, to: InterfaceOrientation)
    case windowAdded(WindowID)
    case windowRemoved(WindowID)
    case controllerAdded(ControllerID)
    case controllerRemoved(ControllerID)
    /// The total of claims went from 0 to more (true) or back to 0 (false): start or stop the sensor.
    case sensorNeeded(Bool)
}

/// What one or more operations changed: ordered events, and the objects whose properties may read differently.
public struct Changes: Sendable {
    public internal(set) var events: [PolicyEvent] = []
    /// The manager's properties may have changed.
    public internal(set) var manager = false
    public internal(set) var windows: Set<WindowID> = []
    public internal(set) var controllers: Set<ControllerID> = []

    /// True when nothing happened.
    public var isEmpty: Bool { events.isEmpty && !manager && windows.isEmpty && controllers.isEmpty }
}
