// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

/// A rotation under way: `WillChange(from, to)` was announced, `DidChange` not yet.
public struct Transition: Equatable, Sendable {
    public let from: InterfaceOrientation
    public let to: InterfaceOrientation
}

/// The rules of rotation (P1–P16), as a value-in, value-out engine: no clock, no bus, no I/O.
///
/// Every mutation is validated first and applied only when valid, so an error
/// leaves no change. What happened is collected in `Changes`, which the caller
/// takes with `takeChanges()` and announces: the events in order, and per object
/// the properties whose values changed. Stored values are named as they are set
/// (`update`); values that follow from others (a window's masks and deciding
/// controller, the mask in force) are kept as last settled and named when a
/// `settle()` moves them.
public final class Policy {
    public let configuration: PolicyConfiguration
    public internal(set) var applicationMask: OrientationMask
    /// The application mask set over the bus, which outlives restarts (P15); nil while the config's
    /// (or the idiom's default) is in force.
    public internal(set) var applicationMaskOverride: OrientationMask?
    public internal(set) var rotationLocked = false
    public internal(set) var interfaceOrientation: InterfaceOrientation
    /// What clients read: the latest report while someone claims, else unknown (P16).
    public internal(set) var deviceOrientation: DeviceOrientation = .unknown
    /// The latest pose from the sensor or `SetDeviceOrientation`, kept while locked or unclaimed.
    public internal(set) var latestReport: DeviceOrientation = .unknown
    /// The latest report came from `SetDeviceOrientation`, which outlives claims (P12, P16).
    public internal(set) var latestReportIsForced = false
    /// Whether the sensor source keeps its pose while stopped (the simulated sensor), so the pose may
    /// be shown again when a claim starts; a real source's pose is forgotten when claims end (P16).
    public var sensorKeepsPoseWhileStopped = false
    /// `DeviceOrientation` reads unknown because a claim started without a pose or the device went,
    /// and the next report is the first fresh one.
    var awaitingFreshPose = false
    public internal(set) var keyWindow: WindowID?
    /// The client that says which process is focused (P6f); nil when none has.
    public internal(set) var focusAuthority: ClientID?
    /// The process the focus authority focused; 0 when none or no authority.
    public internal(set) var focusedProcess: UInt32 = 0
    /// The application the focus authority focused (P6a); nil when none, unknown or no authority.
    public internal(set) var focusedApplication: ApplicationID?
    /// The focus authority's latest report, with what the desktop files declared when it came.
    var focusReport = FocusReport.nothing
    /// The focused application's declaration in force (applications.md); `.none` when nothing is focused.
    public internal(set) var focusedDeclaration = ApplicationDeclarationInForce.none
    /// The user's per-application orientations (`SetApplicationOrientations`), which outlive restarts.
    public internal(set) var applicationOverrides: [ApplicationID: OrientationMask] = [:]
    public internal(set) var transition: Transition?
    /// How the convertible is folded (P18); `unknown` without a posture source or a claim.
    public internal(set) var posture = Posture.unknown
    /// The hinge angle in degrees, −1 when not known (a tablet-mode switch gives none).
    public internal(set) var hingeAngle = -1.0
    /// While rotation is locked, the interface orientation offered to the user (P19); `.unknown` when none.
    public internal(set) var suggestedOrientation = InterfaceOrientation.unknown
    /// While a finger or pen is on a touchscreen or lifted moments ago (P20), the device orientation
    /// P8 and P10 last acted on, which they go on seeing; nil when no hold lasts.
    public internal(set) var heldDeviceOrientation: DeviceOrientation?

    var windows: [WindowID: Window] = [:]
    var controllers: [ControllerID: Controller] = [:]
    var claims: [ClientID: Int] = [:]
    var owned: [ClientID: ClientHoldings] = [:]
    var perUser: [UserID: UserCounts] = [:]
    /// Window and controller numbers oldest first, for listings that show the first few.
    var windowOrder = CreationOrder<WindowID>()
    var controllerOrder = CreationOrder<ControllerID>()
    var nextWindow: UInt64 = 1
    var nextController: UInt64 = 1
    var clock: UInt64 = 0
    var deferred: [Decision] = []
    var changes = Changes()
    /// Windows whose masks or hierarchy changed since the last `settle()`.
    var unsettled: Set<WindowID> = []
    /// The manager's mask in force or P17's lock may have changed since the last `settle()`.
    var managerUnsettled = false
    /// `SupportedMask` and `InterfaceLockedByApplication` as last settled.
    var settledSupportedMask: OrientationMask
    var settledInterfaceLocked = false
    /// The key window's deciding controller, kept between changes of the hierarchy: every decision
    /// asks for it several times, and a deep hierarchy makes each walk costly. `touch` clears it.
    var keyDeciderCache: ControllerID??

    /// Starts with the saved interface orientation when the application mask allows it, else the first allowed (P15).
    /// `savedApplicationMask` is one set over the bus before the restart: it wins over the config's.
    public init(configuration: PolicyConfiguration = PolicyConfiguration(),
                savedApplicationMask: OrientationMask? = nil,
                savedOrientation: InterfaceOrientation? = nil,
                rotationLocked: Bool = false,
                savedApplicationOverrides: [ApplicationID: OrientationMask] = [:]) {
        self.configuration = configuration
        applicationMaskOverride = savedApplicationMask.flatMap { $0.isValid ? $0 : nil }
        let mask = applicationMaskOverride ?? configuration.configuredApplicationMask
        applicationMask = mask
        if let saved = savedOrientation, mask.contains(saved) {
            interfaceOrientation = saved
        } else {
            interfaceOrientation = mask.firstInFallbackOrder ?? .portrait
        }
        self.rotationLocked = rotationLocked
        settledSupportedMask = mask
        applicationOverrides = savedApplicationOverrides.filter { $0.value.isValid }
    }

    /// Shrinks the tables that hold far more room than objects, after many objects went at once.
    public func releaseUnusedCapacity() {
        func shrink<K, V>(_ table: inout [K: V]) {
            if table.count * 4 < table.capacity { table = Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value) }) }
        }
        shrink(&windows)
        shrink(&controllers)
        shrink(&owned)
        shrink(&claims)
    }

    /// Returns what happened since the last call, with the properties whose values changed, and forgets it.
    public func takeChanges() -> Changes {
        settle()
        defer { changes = Changes() }
        return changes
    }

    // MARK: Reading

    public var idiom: Idiom { configuration.idiom }

    /// The total of all clients' claims.
    public internal(set) var totalClaims = 0

    /// One client's count of `BeginGenerating…` calls not yet ended.
    public func claims(of client: ClientID) -> Int { claims[client] ?? 0 }

    /// The window, or nil when there is none with that number.
    public func window(_ id: WindowID) -> Window? { windows[id] }

    /// The controller, or nil when there is none with that number.
    public func controller(_ id: ControllerID) -> Controller? { controllers[id] }

    /// Every window's number, in order.
    public var windowIDs: [WindowID] { windows.keys.sorted() }

    /// Every controller's number, in order.
    public var controllerIDs: [ControllerID] { controllers.keys.sorted() }

    /// How many windows there are.
    public var windowCount: Int { windows.count }

    /// How many controllers there are.
    public var controllerCount: Int { controllers.count }

    /// The `n` lowest window numbers, in order (the oldest windows), without sorting them all.
    public func firstWindowIDs(_ n: Int) -> [WindowID] { windowOrder.first(n) { windows[$0] != nil } }

    /// The `n` lowest controller numbers, in order (the oldest controllers), without sorting them all.
    public func firstControllerIDs(_ n: Int) -> [ControllerID] { controllerOrder.first(n) { controllers[$0] != nil } }

    /// The window's mask: its delegate's when set, else its application's declaration when its process
    /// is the one focused under that application (P6a), else the application mask (P2).
    public func supportedMask(of window: WindowID) -> OrientationMask {
        guard let w = windows[window] else { return [] }
        guard w.delegateMask.isEmpty else { return w.delegateMask }
        return w.process != 0 && w.process == focusedProcess ? focusedApplicationMask : applicationMask
    }

    /// The mask an application without a key window gets (P7): the focused application's declaration
    /// when it has one (P6a), else the application mask.
    var focusedApplicationMask: OrientationMask {
        focusedDeclaration.mask.isEmpty ? applicationMask : focusedDeclaration.mask
    }

    /// Whose rules are in force in the window (P4); nil without a root.
    public func decidingController(of window: WindowID) -> ControllerID? {
        decidingController(of: window, with: nil)
    }

    /// The window's mask ∩ the deciding controller's (P5).
    public func effectiveMask(of window: WindowID) -> OrientationMask {
        effectiveMask(of: window, with: nil)
    }

    /// As `decidingController(of:)`, as if `pending` had been made.
    func decidingController(of window: WindowID, with pending: PendingPresentation?) -> ControllerID? {
        windows[window]?.rootController.map { decider(from: $0, with: pending) }
    }

    /// As `effectiveMask(of:)`, as if `pending` had been made: what a presentation would leave, before making it.
    func effectiveMask(of window: WindowID, with pending: PendingPresentation?) -> OrientationMask {
        let mask = supportedMask(of: window)
        guard let deciding = decidingController(of: window, with: pending), let c = controllers[deciding] else { return mask }
        return mask.intersection(c.supportedMask)
    }

    /// The mask in force: the key window's effective mask, else the focused application's declaration
    /// or the application mask (P7, P6a).
    public var supportedMask: OrientationMask {
        guard let key = keyWindow else { return focusedApplicationMask }
        let mask = supportedMask(of: key)
        return keyDecider.flatMap { controllers[$0] }.map { mask.intersection($0.supportedMask) } ?? mask
    }

    /// The key window's deciding controller, from the cache when the hierarchy has not changed.
    var keyDecider: ControllerID? {
        guard let key = keyWindow else { return nil }
        if let cached = keyDeciderCache {
            assert(cached == decidingController(of: key), "stale deciding controller cache")
            return cached
        }
        let fresh = decidingController(of: key)
        keyDeciderCache = .some(fresh)
        return fresh
    }

    /// The window whose hierarchy holds the controller, if any.
    public func window(containing id: ControllerID) -> WindowID? {
        controllers[top(of: id)]?.rootOf
    }

    // MARK: Structure helpers

    /// P4's walk: presented first, then a forwarding container's top or selected child; with
    /// `pending`, its presenter walks on to what it would present.
    func decider(from start: ControllerID, with pending: PendingPresentation? = nil) -> ControllerID {
        var current = start
        while let c = controllers[current] {
            let presented = current == pending?.presenter ? pending?.presented : c.presented
            if let next = presented ?? c.forwardedChild {
                current = next
            } else {
                break
            }
        }
        return current
    }

    /// The topmost controller above `id` (itself when it stands nowhere).
    func top(of id: ControllerID) -> ControllerID {
        var current = id
        while let up = controllers[current]?.up { current = up }
        return current
    }

    /// The longest chain from `id` up through children and presentations, itself included.
    /// Counted level by level, not by recursion: `[Limits] Depth` may allow more levels than the stack.
    func height(of id: ControllerID) -> Int {
        var level = controllers[id] == nil ? [] : [id]
        var height = 0
        while !level.isEmpty {
            height += 1
            level = level.flatMap { controllers[$0]?.descendants ?? [] }
        }
        return height
    }

    /// `id` and every controller above it, up to the top of its hierarchy.
    func chain(from id: ControllerID) -> [ControllerID] {
        var result = [id]
        while let up = controllers[result[result.count - 1]]?.up { result.append(up) }
        return result
    }

    /// Every controller in the subtree of `id`, itself first.
    func subtree(of id: ControllerID) -> [ControllerID] {
        var result: [ControllerID] = []
        var stack = [id]
        while let next = stack.popLast() {
            result.append(next)
            stack.append(contentsOf: controllers[next]?.descendants ?? [])
        }
        return result
    }

    /// The first controller of the subtree whose mask shares nothing with `mask` (P5).
    func firstConflict(in id: ControllerID, with mask: OrientationMask) -> ControllerID? {
        subtree(of: id).first { controllers[$0].map { $0.supportedMask.isDisjoint(with: mask) } ?? false }
    }

    /// Marks the window holding the controller for settling: its hierarchy changed.
    func touch(_ id: ControllerID) {
        keyDeciderCache = nil
        if let w = window(containing: id) { unsettled.insert(w) }
        managerUnsettled = true
    }

    /// As `touch(_:)`, when the window holding the controller is already known.
    func touch(_ id: ControllerID, in window: WindowID?) {
        keyDeciderCache = nil
        if let window { unsettled.insert(window) }
        managerUnsettled = true
    }

    /// Marks the window for settling: its masks or its hierarchy changed.
    func touch(_ id: WindowID) {
        keyDeciderCache = nil
        unsettled.insert(id)
        managerUnsettled = true
    }

    /// Changes a controller's stored values, naming those that now differ.
    func update(_ id: ControllerID, _ change: (inout Controller) -> Void) {
        guard var c = controllers[id] else { return }
        let old = c
        change(&c)
        controllers[id] = c
        changes.name(c.changes(from: old), of: id)
    }

    /// Changes a window's stored values, naming those that now differ.
    func update(_ id: WindowID, _ change: (inout Window) -> Void) {
        guard var w = windows[id] else { return }
        let old = w
        change(&w)
        windows[id] = w
        changes.name(w.changes(from: old), of: id)
    }

    /// What follows from the window now: its mask, its deciding controller and their intersection.
    /// One walk of the hierarchy: the effective mask is the window's mask ∩ the deciding controller's (P5).
    func currentSettled(of id: WindowID) -> Window.Settled {
        let mask = supportedMask(of: id)
        let deciding = decidingController(of: id)
        let effective = deciding.flatMap { controllers[$0] }.map { mask.intersection($0.supportedMask) } ?? mask
        return Window.Settled(supportedMask: mask, effectiveMask: effective, decidingController: deciding)
    }

    /// Brings the values that follow from others up to date for the windows marked since the last
    /// time, and for the manager, naming in `Changes` each one that moved.
    func settle() {
        for id in unsettled {
            guard let window = windows[id] else { continue }
            let now = currentSettled(of: id)
            changes.name(now.changes(from: window.settled), of: id)
            windows[id]?.settled = now
        }
        let small = unsettled.count < 64
        unsettled.removeAll(keepingCapacity: small)
        settleSuggestion()
        guard managerUnsettled else { return }
        managerUnsettled = false
        let mask = supportedMask
        if mask != settledSupportedMask { settledSupportedMask = mask; changes.manager.insert(.supportedMask) }
        let locked = interfaceLockedByApplication
        if locked != settledInterfaceLocked { settledInterfaceLocked = locked; changes.manager.insert(.interfaceLockedByApplication) }
    }

    func tick() -> UInt64 {
        clock += 1
        return clock
    }
}
