// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

/// Limits that keep one client, one user or all of them together from exhausting the service
/// (dbus-api.md, `[Limits]`): one user may open hundreds of connections, so the per-client
/// limits alone do not bound memory.
public struct Limits: Equatable, Sendable {
    /// Windows one client (bus connection) may own.
    public var windows: Int
    /// Controllers one client may own.
    public var controllers: Int
    /// The longest chain of controllers (containment and presentation) one hierarchy may hold.
    public var depth: Int
    /// Windows the clients of one uid may own together.
    public var windowsPerUser: Int
    /// Controllers the clients of one uid may own together.
    public var controllersPerUser: Int
    /// Windows the service holds for all clients together.
    public var totalWindows: Int
    /// Per-application overrides the service keeps (applications.md, `SetApplicationOrientations`).
    public var applicationOverrides: Int
    /// Controllers the service holds for all clients together.
    public var totalControllers: Int

    /// The documented defaults: per client 64 windows, 4096 controllers, depth 64; per uid 256 windows,
    /// 16384 controllers; in all 1024 windows, 65536 controllers.
    public init(windows: Int = 64, controllers: Int = 4096, depth: Int = 64,
                windowsPerUser: Int = 256, controllersPerUser: Int = 16384,
                totalWindows: Int = 1024, totalControllers: Int = 65536, applicationOverrides: Int = 1024) {
        self.windows = windows
        self.controllers = controllers
        self.depth = depth
        self.windowsPerUser = windowsPerUser
        self.controllersPerUser = controllersPerUser
        self.totalWindows = totalWindows
        self.totalControllers = totalControllers
        self.applicationOverrides = applicationOverrides
    }
}

/// What the policy is started with: the application's settings and the limits.
public struct PolicyConfiguration: Equatable, Sendable {
    public var idiom: Idiom
    /// Info.plist's supported orientations; nil means the idiom's default (P1).
    public var applicationMask: OrientationMask?
    /// The config's `[Applications]`: the administrator's declaration per application, below the
    /// user's overrides and above desktop files (applications.md).
    public var applications: [ApplicationID: OrientationMask]
    /// `[Applications] Declarations`: when an application's declaration binds; nil means the idiom's
    /// default (`bind` on a phone, `fullscreen` on a tablet).
    public var declarations: DeclarationBinding?
    /// `[Posture] Rotate`: the postures in which the device turns the screen (P18).
    public var rotatingPostures: Set<Posture>
    /// Whether a turn while rotation is locked is offered (P19); `[Lock] SuggestionSeconds=0` turns it off.
    public var suggestsRotation = true
    public var limits: Limits

    /// When a declaration binds: the config's choice, else the idiom's default. On tablets apps run in
    /// windows, and an app's restriction holds only while its window fills the screen (Android 16 on
    /// large screens, iPadOS 26).
    public var declarationBinding: DeclarationBinding { declarations ?? (idiom == .tablet ? .fullscreen : .bind) }

    /// The config's mask when it is a valid one, else the idiom's default (P1).
    public var configuredApplicationMask: OrientationMask {
        applicationMask.flatMap { $0.isValid ? $0 : nil } ?? idiom.defaultMask
    }

    /// Creates a configuration; the defaults are a phone with the idiom's mask.
    public init(idiom: Idiom = .phone, applicationMask: OrientationMask? = nil,
                applications: [ApplicationID: OrientationMask] = [:], declarations: DeclarationBinding? = nil,
                rotatingPostures: Set<Posture> = Posture.rotatingByDefault, limits: Limits = Limits()) {
        self.idiom = idiom
        self.applicationMask = applicationMask
        self.applications = applications
        self.declarations = declarations
        self.rotatingPostures = rotatingPostures
        self.limits = limits
    }
}

/// When an application's declaration (config, desktop file) binds; the user's override always does.
public enum DeclarationBinding: String, CaseIterable, Sendable {
    /// Always, as on a phone.
    case bind
    /// Only while the application's window fills the screen, as on a tablet.
    case fullscreen
    /// Never: the device decides.
    case ignore

    /// Parses `bind`, `fullscreen` or `ignore`.
    public init(parsing text: String) throws(PolicyError) {
        guard let binding = DeclarationBinding(rawValue: text.lowercased()) else {
            throw PolicyError(.invalidArgs, "'\(text)' is not a way for declarations to bind; accepted: bind, fullscreen, ignore")
        }
        self = binding
    }
}
