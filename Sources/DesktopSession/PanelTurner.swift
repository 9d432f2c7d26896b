// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

/// One head of a compositor's output management (`zwlr_output_management_v1`): its name, whether it
/// is enabled, and its `wl_output.transform`.
public struct OutputHead: Equatable, Sendable {
    public let name: String
    public let enabled: Bool
    public let transform: UInt32

    public init(name: String, enabled: Bool, transform: UInt32) {
        self.name = name
        self.enabled = enabled
        self.transform = transform
    }
}

/// The session agent's screen on desktops whose shell does not turn the screen (Docs/shells.md, "The
/// screen turns with nothing to configure"): the built-in panel turned through the compositor's
/// output management, by `orientationd-toplevels --outputs`. The panel is the head `[Session]
/// Output=` names, else the first named `eDP-*`, `LVDS-*` or `DSI-*`, else the only head; a panel
/// that is disabled is left alone. Each interface orientation is given as its `wl_output.transform`
/// (landscape-right 270: the picture `follow sway` gives), again whenever the heads change and the
/// panel shows another; a turn the compositor refused is logged once and not asked again until the
/// orientation or the heads change.
public final class PanelTurner: Screen {
    /// `[Session] Output=`, nil to find the panel by its name.
    let configuredName: String?
    /// Sends a command to the helper.
    let send: (String) -> Void
    /// Whether a panel can be turned now: the claim is held only while it can.
    public var onCanTurn: (Bool) -> Void = { _ in }
    public var say: (String) -> Void = { _ in }
    public private(set) var heads: [OutputHead] = []
    private var wanted: InterfaceOrientation?
    private(set) var canTurn = false
    /// The turn the compositor refused (head, transform), not asked again while nothing changes.
    private var refused: (String, UInt32)?
    private var saidRefused = false
    private var saidWhy: String?

    public init(configuredName: String?, send: @escaping (String) -> Void) {
        self.configuredName = configuredName
        self.send = send
    }

    /// The built-in panel among `heads`.
    public static func panel(_ heads: [OutputHead], named configured: String?) -> OutputHead? {
        if let configured { return heads.first { $0.name == configured } }
        if let builtIn = heads.first(where: { head in ["eDP-", "LVDS-", "DSI-"].contains { head.name.hasPrefix($0) } }) { return builtIn }
        return heads.count == 1 ? heads[0] : nil
    }

    /// The compositor's heads now (`[]`: it went away).
    public func outputsChanged(_ heads: [OutputHead]) {
        if heads != self.heads { refused = nil }
        self.heads = heads
        let panel = Self.panel(heads, named: configuredName)
        let why: String? = heads.isEmpty ? nil
            : panel == nil ? (configuredName.map { "no output is named \($0) ([Session] Output=)" }
                              ?? "no output is a built-in panel (eDP-*, LVDS-*, DSI-*) and there are \(heads.count): set [Session] Output=")
            : panel!.enabled ? nil : "the panel \(panel!.name) is disabled"
        if let why, why != saidWhy { say(why + "; the screen is not turned") }
        saidWhy = why
        let can = panel?.enabled == true
        if can != canTurn {
            canTurn = can
            if can, let panel { say("turning \(panel.name) with orientationd's interface orientation") }
            onCanTurn(can)
        }
        turnIfNeeded()
    }

    public func show(_ orientation: InterfaceOrientation) {
        guard orientation != .unknown else { return }
        if orientation != wanted { refused = nil }
        wanted = orientation
        turnIfNeeded()
    }

    /// What the helper said of a turn.
    public func turned(_ name: String, _ transform: UInt32, succeeded: Bool) {
        guard !succeeded else { return }
        refused = (name, transform)
        if !saidRefused { say("the compositor refused to give \(name) the transform \(transform * 90); it is asked again at the next turn") }
        saidRefused = true
    }

    private func turnIfNeeded() {
        guard let wanted, let transform = wanted.wlOutputTransform, let panel = Self.panel(heads, named: configuredName),
              panel.enabled, panel.transform != transform else { return }
        if let refused, refused.0 == panel.name, refused.1 == transform { return }
        send("turn \(panel.name) \(transform)")
    }
}
