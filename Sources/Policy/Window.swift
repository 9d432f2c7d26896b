import Orientation

/// A window as the policy keeps it (UIKit's `UIWindow` with its delegate's mask).
public struct Window: Sendable {
    public let id: WindowID
    public let owner: ClientID
    /// The process that owns it, for the focus authority (P6f); 0 when unknown, which is never focused.
    public let process: UInt32
    /// `application:supportedInterfaceOrientationsForWindow:`; empty means not implemented.
    public internal(set) var delegateMask: OrientationMask = []
    public internal(set) var rootController: ControllerID?
    /// When it was registered, for P6's fallback.
    let registration: UInt64
    /// When it last became key, for P6; nil when it never was.
    var lastKey: UInt64?
    /// When `MakeKeyAndVisible` last chose it, for P6f: its process's choice for when it is focused.
    var chosen: UInt64?
}
