// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

/// Where the declaration in force for an application comes from (applications.md): the answer to
/// "why did this app not rotate?".
public enum DeclarationSource: String, Sendable {
    case override
    case config
    case desktopFile = "desktop-file"
    /// The user's own desktop file, read by the session's reporter and sent with the focus.
    case userDesktopFile = "user-desktop-file"
    /// The application declares orientations, but its window does not fill the screen, and
    /// declarations bind only then (`[Applications] Declarations=fullscreen`, a tablet's default).
    case notFullscreen = "not-fullscreen"
    /// The application declares orientations, and `[Applications] Declarations=ignore` ignores them.
    case ignored
    case none
}

/// What the focus authority reports of the application in front (`SetFocusedApplication`,
/// `ReportFocus`), with what the service read of its desktop files.
public struct FocusReport: Equatable, Sendable {
    /// The application in front; nil when none or unknown.
    public var application: ApplicationID?
    /// Its process; 0 when none or unknown.
    public var process: UInt32
    /// What its desktop file under the service's data directories declares (read by the service).
    public var desktopFile: OrientationMask?
    /// What the user's own desktop file declares (read by the session's reporter, checked by the service).
    public var userDesktopFile: OrientationMask?
    /// Whether its window fills the screen (fullscreen or maximized); nil when the reporter does not say,
    /// which counts as filling it.
    public var fillsScreen: Bool?

    public init(_ application: ApplicationID?, process: UInt32, desktopFile: OrientationMask? = nil,
                userDesktopFile: OrientationMask? = nil, fillsScreen: Bool? = nil) {
        self.application = application
        self.process = process
        self.desktopFile = desktopFile
        self.userDesktopFile = userDesktopFile
        self.fillsScreen = fillsScreen
    }

    /// Nothing in front.
    public static let nothing = FocusReport(nil, process: 0)
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
    /// `SetFocusedApplication`, `ReportFocus` (P6f, P6a): `authority` becomes the focus authority, the key
    /// window follows the report's process (0: none), and its application (nil: none or unknown) is the
    /// one in front, with the declaration in force for it and its window. Every change of focus, and of
    /// the focused application's declaration in force, re-decides by P9 and then P10, with one rotation
    /// at most.
    public func setFocus(_ report: FocusReport, authority: ClientID) {
        if focusAuthority == nil {
            focusAuthority = authority
            nameEveryFocusTarget()
        }
        focusAuthority = authority
        let declaration = declarationInForce(report)
        let moved = report.application != focusedApplication || report.process != focusedProcess
            || declaration != focusedDeclaration
        focusReport = report
        if moved {
            let before = focusedProcess
            if report.process != focusedProcess { changes.manager.insert(.focusedProcess) }
            if report.application != focusedApplication { changes.manager.insert(.focusedApplication) }
            focusedApplication = report.application
            focusedProcess = report.process
            setFocusedDeclaration(declaration, processes: [before, report.process])
        }
        let key = keyWindow
        followFocus()
        if moved || keyWindow != key { decide(.focus) }
    }

    /// The declaration `application` makes (applications.md): the user's override, else the config's,
    /// else what the user's own desktop file declares, else its desktop file's (`desktopFile`, asked
    /// only when needed). Whether it binds is `declarationInForce`'s question.
    public func declaration(of application: ApplicationID?, userDesktopFile: OrientationMask? = nil,
                            desktopFile: @autoclosure () -> OrientationMask?) -> ApplicationDeclarationInForce {
        guard let application else { return .none }
        if let mask = applicationOverrides[application] { return ApplicationDeclarationInForce(mask: mask, source: .override) }
        if let mask = configuration.applications[application], mask.isValid {
            return ApplicationDeclarationInForce(mask: mask, source: .config)
        }
        if let mask = userDesktopFile, mask.isValid { return ApplicationDeclarationInForce(mask: mask, source: .userDesktopFile) }
        if let mask = desktopFile(), mask.isValid { return ApplicationDeclarationInForce(mask: mask, source: .desktopFile) }
        return .none
    }

    /// The declaration in force for the reported application and its window: the user's override
    /// always binds; any other declaration binds as `[Applications] Declarations` says (by default
    /// always on a phone, and on a tablet only while the window fills the screen). One that does not
    /// bind is no mask, with the reason as its source.
    func declarationInForce(_ report: FocusReport) -> ApplicationDeclarationInForce {
        let declared = declaration(of: report.application, userDesktopFile: report.userDesktopFile,
                                   desktopFile: report.desktopFile)
        guard declared.source != .override, declared.source != .none else { return declared }
        switch configuration.declarationBinding {
        case .bind: return declared
        case .fullscreen: return report.fillsScreen == false ? ApplicationDeclarationInForce(mask: [], source: .notFullscreen) : declared
        case .ignore: return ApplicationDeclarationInForce(mask: [], source: .ignored)
        }
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
    /// so a key window is found when windows remain. The caller then decides as for a focus change.
    func focusAuthorityLeft() {
        nameEveryFocusTarget()
        focusAuthority = nil
        let before = focusedProcess
        if focusedProcess != 0 { changes.manager.insert(.focusedProcess) }
        if focusedApplication != nil { changes.manager.insert(.focusedApplication) }
        focusedProcess = 0
        focusedApplication = nil
        focusReport = .nothing
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
        let now = declarationInForce(focusReport)
        guard now != focusedDeclaration else { return }
        setFocusedDeclaration(now, processes: [focusedProcess])
        decide(.hierarchy)
    }
}
