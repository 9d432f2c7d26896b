import Orientation

/// A window as the policy keeps it (UIKit's `UIWindow` with its delegate's mask).
public struct Window: Sendable {
    public let id: WindowID
    public let owner: ClientID
    /// `application:supportedInterfaceOrientationsForWindow:`; empty means not implemented.
    public internal(set) var delegateMask: OrientationMask = []
    public internal(set) var rootController: ControllerID?
    /// When it was registered, for P6's fallback.
    let registration: UInt64
    /// When it last became key, for P6; nil when it never was.
    var lastKey: UInt64?
}
