import Orientation

/// Where the declaration in force for an application comes from (applications.md): the answer to
/// "why did this app not rotate?".
public enum DeclarationSource: String, Sendable {
    case override
    case config
    case desktopFile = "desktop-file"
    case none
}

/// An application's declared orientations and where they come from; an empty mask with `.none`.
public struct ApplicationDeclarationInForce: Equatable, Sendable {
    public let mask: OrientationMask
    public let source: DeclarationSource

    public init(mask: OrientationMask, source: DeclarationSource) {
        self.mask = mask
        self.source = source
    }

    public static let none = ApplicationDeclarationInForce(mask: [], source: .none)
}

extension Policy {
    /// `SetFocusedProcess` (P6f): the same as focusing no application in `process`.
    public func setFocusedProcess(_ process: UInt32, authority: ClientID) {
        setFocusedApplication(nil, process: process, desktopFile: nil, authority: authority)
    }

    /// `SetFocusedApplication` (P6f, P6a): `authority` becomes the focus authority, the key window
    /// follows `process` (0: none), and `application` (nil: none or unknown) is the one in front, whose
    /// desktop file declares `desktopFile` (read by the caller; nil when it declares nothing). Every
    /// change of focus re-decides by P9 and then P10, with one rotation at most.
    public func setFocusedApplication(_ application: ApplicationID?, process: UInt32, desktopFile: OrientationMask?,
                                      authority: ClientID) {
        if focusAuthority == nil {
            focusAuthority = authority
            nameEveryFocusTarget()
        }
        focusAuthority = authority
        let declaration = declaration(of: application, desktopFile: desktopFile)
        let moved = application != focusedApplication || process != focusedProcess || declaration != focusedDeclaration
        focusedDesktopFileMask = desktopFile
        if moved {
            let before = focusedProcess
            if process != focusedProcess { changes.manager.insert(.focusedProcess) }
            if application != focusedApplication { changes.manager.insert(.focusedApplication) }
            focusedApplication = application
            focusedProcess = process
            setFocusedDeclaration(declaration, processes: [before, process])
        }
        let key = keyWindow
        followFocus()
        if moved || keyWindow != key { decide(.focus) }
    }

    /// The declaration in force for `application` (applications.md): the user's override, else the
    /// config's, else what its desktop file declares (`desktopFile`, asked only when needed).
    public func declaration(of application: ApplicationID?,
                            desktopFile: @autoclosure () -> OrientationMask?) -> ApplicationDeclarationInForce {
        guard let application else { return .none }
        if let mask = applicationOverrides[application] { return ApplicationDeclarationInForce(mask: mask, source: .override) }
        if let mask = configuration.applications[application], mask.isValid {
            return ApplicationDeclarationInForce(mask: mask, source: .config)
        }
        if let mask = desktopFile(), mask.isValid { return ApplicationDeclarationInForce(mask: mask, source: .desktopFile) }
        return .none
    }

    /// Makes `declaration` the focused application's, naming what moved; the windows of `processes`
    /// (the focused one, before and after) take it or give it back (P6a).
    func setFocusedDeclaration(_ declaration: ApplicationDeclarationInForce, processes: [UInt32]) {
        if declaration.mask != focusedDeclaration.mask { changes.manager.insert(.focusedApplicationMask) }
        if declaration.source != focusedDeclaration.source { changes.manager.insert(.focusedApplicationSource) }
        focusedDeclaration = declaration
        managerUnsettled = true
        keyDeciderCache = nil
        for window in windows.values where window.process != 0 && processes.contains(window.process) && window.delegateMask.isEmpty {
            unsettled.insert(window.id)
        }
    }

    /// The focused process's window that was chosen most recently, else its newest one, else none (P6f).
    var focusTarget: WindowID? { target(ofProcess: focusedProcess) }

    /// The window of `process` that is key while it is focused: the one `MakeKeyAndVisible` chose most
    /// recently, else its newest; none for process 0 (unknown) or a process without windows.
    func target(ofProcess process: UInt32) -> WindowID? {
        guard process != 0 else { return nil }
        return windows.values.filter { $0.process == process }.max { a, b in
            (a.chosen ?? 0, a.registration) < (b.chosen ?? 0, b.registration)
        }?.id
    }

    /// `KeyWhenFocused`: under a focus authority, whether `id` is the window its process has key
    /// whenever it is focused, so a `MakeKeyAndVisible` from a process not in front shows what it did.
    public func keyWhenFocused(_ id: WindowID) -> Bool {
        guard focusAuthority != nil, let window = windows[id] else { return false }
        return target(ofProcess: window.process) == id
    }

    /// Runs `body`, naming `KeyWhenFocused` on the windows of `process` whose value it changes.
    func namingFocusTarget(of process: UInt32, _ body: () -> Void) {
        guard focusAuthority != nil, process != 0 else { return body() }
        let before = target(ofProcess: process)
        body()
        let after = target(ofProcess: process)
        guard before != after else { return }
        if let before, windows[before] != nil { changes.name(.keyWhenFocused, of: before) }
        if let after { changes.name(.keyWhenFocused, of: after) }
    }

    /// The authority came or went: every window that is its process's target changes `KeyWhenFocused`.
    func nameEveryFocusTarget() {
        var seen: Set<UInt32> = []
        for window in windows.values where window.process != 0 && seen.insert(window.process).inserted {
            if let target = target(ofProcess: window.process) { changes.name(.keyWhenFocused, of: target) }
        }
    }

    /// Makes the key window the focus target, when an authority is set.
    func followFocus() {
        guard focusAuthority != nil else { return }
        let target = focusTarget
        guard target != keyWindow else { return }
        if let target { makeKey(target) } else { clearKey() }
    }

    /// The authority left: the focus is cleared, the key window stays, and P6 applies again,
    /// so a key window is found when windows remain.
    func focusAuthorityLeft() {
        nameEveryFocusTarget()
        focusAuthority = nil
        let before = focusedProcess
        if focusedProcess != 0 { changes.manager.insert(.focusedProcess) }
        if focusedApplication != nil { changes.manager.insert(.focusedApplication) }
        focusedProcess = 0
        focusedApplication = nil
        focusedDesktopFileMask = nil
        setFocusedDeclaration(.none, processes: [before])
        if keyWindow == nil { makeFallbackKey() }
    }

    // MARK: Per-application overrides

    /// `SetApplicationOrientations`: the user's declaration for `id`, first in force for it. A bad mask,
    /// or one override more than the limit, is refused with nothing changed.
    public func setApplicationOrientations(_ id: ApplicationID, _ raw: UInt32) throws(PolicyError) {
        let mask = OrientationMask(rawValue: raw)
        guard mask.isValid else {
            throw PolicyError(.invalidArgs, "\(raw) is not an orientation mask for \(id): a non-zero sum of portrait (2), "
                + "portrait-upside-down (4), landscape-right (8) and landscape-left (16)"
                + (raw == 0 ? "; 0 supports no orientation (ResetApplicationOrientations forgets \(id)'s)" : ""))
        }
        guard applicationOverrides[id] != nil || applicationOverrides.count < configuration.limits.applicationOverrides else {
            throw PolicyError(.limitsExceeded, "there are already \(applicationOverrides.count) applications with their own "
                + "orientations, the most kept; reset one before setting \(id)'s")
        }
        guard applicationOverrides[id] != mask else { return }
        applicationOverrides[id] = mask
        changes.manager.insert(.applicationOrientations)
        if id == focusedApplication { redeclareFocusedApplication() }
    }

    /// `ResetApplicationOrientations`: forgets the user's declaration for `id`; nothing when there is none.
    public func resetApplicationOrientations(_ id: ApplicationID) {
        guard applicationOverrides.removeValue(forKey: id) != nil else { return }
        changes.manager.insert(.applicationOrientations)
        if id == focusedApplication { redeclareFocusedApplication() }
    }

    /// The id, checked (applications.md, "Application id").
    public func applicationID(_ text: String) throws(PolicyError) -> ApplicationID {
        do { return try ApplicationID(parsing: text) } catch { throw PolicyError(.invalidArgs, error.message) }
    }

    /// The focused application's override changed: its declaration is found again, and P9 applies
    /// (a mask change, not a focus change: the device's orientation is not sought).
    func redeclareFocusedApplication() {
        let now = declaration(of: focusedApplication, desktopFile: focusedDesktopFileMask)
        guard now != focusedDeclaration else { return }
        setFocusedDeclaration(now, processes: [focusedProcess])
        decide(.hierarchy)
    }
}
