import Orientation

/// Per-client limits that keep one client from exhausting the service.
public struct Limits: Equatable, Sendable {
    /// Windows one client may own.
    public var windows: Int
    /// Controllers one client may own.
    public var controllers: Int
    /// The longest chain of controllers (containment and presentation) one hierarchy may hold.
    public var depth: Int

    /// The documented defaults: 64 windows, 4096 controllers, depth 64.
    public init(windows: Int = 64, controllers: Int = 4096, depth: Int = 64) {
        self.windows = windows
        self.controllers = controllers
        self.depth = depth
    }
}

/// What the policy is started with: the application's settings and the limits.
public struct PolicyConfiguration: Equatable, Sendable {
    public var idiom: Idiom
    /// Info.plist's supported orientations; nil means the idiom's default (P1).
    public var applicationMask: OrientationMask?
    public var limits: Limits

    /// Creates a configuration; the defaults are a phone with the idiom's mask.
    public init(idiom: Idiom = .phone, applicationMask: OrientationMask? = nil, limits: Limits = Limits()) {
        self.idiom = idiom
        self.applicationMask = applicationMask
        self.limits = limits
    }
}
