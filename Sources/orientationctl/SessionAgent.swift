// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Configuration

/// What the session agent (`report-focus`) reads of the session: whether its shell turns the screen
/// itself, the user's `[Session] Output=`, and which compositor needs a line of config for touch to
/// follow a turned panel (Docs/shells.md, "The screen turns with nothing to configure").
enum SessionAgent {
    /// The shells that turn the screen themselves, through the compatibility interface, as
    /// `XDG_CURRENT_DESKTOP` names them.
    static let turningShells = ["GNOME", "KDE", "Phosh"]

    /// The shell of `XDG_CURRENT_DESKTOP` (a colon-separated list) that turns the screen itself; nil
    /// when none does.
    static func shellTurningTheScreen(_ desktop: String? = environment("XDG_CURRENT_DESKTOP")) -> String? {
        let names = (desktop ?? "").split(separator: ":").map { $0.lowercased() }
        return turningShells.first { names.contains($0.lowercased()) }
    }

    /// `[Session] Output=` of `$XDG_CONFIG_HOME/orientationd/session.conf` (`~/.config/…`), nil when unset.
    static func configuredOutput() -> String? {
        let home = environment("XDG_CONFIG_HOME").flatMap { $0.isEmpty ? nil : $0 } ?? ((environment("HOME") ?? "") + "/.config")
        let file = KeyFile()
        guard (try? file.load(path: home + "/orientationd/session.conf")) != nil,
              let name = file.string("Session", "Output")?.trimmed, !name.isEmpty else { return nil }
        return name
    }

    /// The line of the compositor's config that maps touch to the turned panel, where the compositor
    /// does not do it itself; nil where it does, or where the compositor is not known.
    static func touchNote(panel: String) -> String? {
        let desktop = (environment("XDG_CURRENT_DESKTOP") ?? "").lowercased()
        if environment("SWAYSOCK") != nil || desktop.split(separator: ":").contains("sway") {
            return "for touch to follow the turned panel, sway's config needs: input type:touch map_to_output \(panel)"
        }
        if environment("HYPRLAND_INSTANCE_SIGNATURE") != nil {
            return "for touch to follow the turned panel, Hyprland's config needs: input { touchdevice { output = \(panel) } }"
        }
        if desktop.split(separator: ":").contains("labwc") {
            return "for touch to follow the turned panel, labwc's rc.xml needs: <touch mapToOutput=\"\(panel)\" />"
        }
        return nil
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
