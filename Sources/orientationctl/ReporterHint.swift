// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Orientation
import SystemCalls

/// What `status` adds when nothing reports which application is in front although the desktop in use
/// has a reporter that is off (Docs/troubleshooting.md, "Per-app orientations do nothing on this
/// desktop"): GNOME Shell's extension not enabled, KWin's script disabled, no `orientationctl
/// report-focus` running on a wlroots desktop or Phosh. Read from the user's own session, as the
/// desktop keeps it, by the same commands a person would run.
enum ReporterHint {
    static let gnomeExtensions = ["orientationd-focus@orientationd.org", "orientationd-focus-45@orientationd.org"]
    static let kwinScript = "orientationd-focus"

    /// The desktops of `XDG_CURRENT_DESKTOP`, lower case.
    static func desktops(_ environment: String?) -> [String] {
        (environment ?? "").split(separator: ":").map { $0.lowercased() }
    }

    /// The lines to print, none when the reporter runs or the desktop has none.
    static func lines(focusedApplication: String) -> [String] {
        guard focusedApplication.isEmpty else { return [] }
        let run = Subprocess.output(of:)
        let desktops = desktops(getenv("XDG_CURRENT_DESKTOP").map { String(cString: $0) })
        let header = "Nothing reports the application in front, so per-application orientations do nothing:"
        if desktops.contains("phosh") || desktops.contains(where: { wlroots.contains($0) }) {
            guard !reportFocusRunning() else { return [] }
            let name = desktops.first { $0 == "phosh" || wlroots.contains($0) } ?? "this desktop"
            return [header, "  \(name)'s reporter, orientationctl report-focus, is not running. Start it now and with each session:",
                    "    orientationctl report-focus &",
                    "  (sway: 'exec orientationctl report-focus' in its config; others: see 'orientationctl help report-focus')"]
        }
        if desktops.contains("gnome") {
            guard let enabled = run(["gsettings", "get", "org.gnome.shell", "enabled-extensions"]) else { return [] }
            let disabledAll = run(["gsettings", "get", "org.gnome.shell", "disable-user-extensions"])?.hasPrefix("true") ?? false
            if !disabledAll && gnomeExtensions.contains(where: { enabled.includes("'\($0)'") }) { return [] }
            let version = run(["gnome-shell", "--version"]).flatMap { text in
                text.split(separator: " ").last.flatMap { Int($0.split(separator: ".").first ?? "") }
            }
            let uuid = (version ?? 45) >= 45 ? gnomeExtensions[1] : gnomeExtensions[0]
            var lines = [header, "  GNOME Shell's extension is not enabled. Turn it on:", "    gnome-extensions enable \(uuid)"]
            if disabledAll { lines.append("    gsettings set org.gnome.shell disable-user-extensions false") }
            if version == nil { lines.append("  (GNOME Shell 43 and 44: gnome-extensions enable \(gnomeExtensions[0]))") }
            return lines
        }
        if desktops.contains("kde") {
            let tool = run(["kreadconfig6", "--help"]) != nil ? "6" : "5"
            guard let value = run(["kreadconfig\(tool)", "--file", "kwinrc", "--group", "Plugins", "--key", "\(kwinScript)Enabled"]) else {
                return []
            }
            guard value.hasPrefix("false") else { return [] }
            return [header, "  KWin's script is disabled. Turn it on:",
                    "    kwriteconfig\(tool) --file kwinrc --group Plugins --key \(kwinScript)Enabled true && "
                        + "qdbus\(tool == "6" ? "6" : "") org.kde.KWin /KWin reconfigure"]
        }
        return []
    }

    /// The XDG_CURRENT_DESKTOP names of the wlroots desktops `report-focus` serves.
    static let wlroots: Set = ["sway", "hyprland", "river", "wayfire", "labwc", "niri", "wlroots"]

    /// Whether an `orientationctl report-focus` of this user runs.
    static func reportFocusRunning() -> Bool {
        let me = ProcessCalls.userID, myself = ProcessCalls.ownID
        for name in FileSystem.list("/proc") {
            guard let pid = Int32(name), pid != myself,
                  let fd = try? FileDescriptor.open("/proc/\(name)/cmdline", O_RDONLY) else { continue }
            defer { fd.close() }
            guard let owner = try? fd.status(), owner.st_uid == me,
                  let bytes = try? fd.readAll(upTo: 4096) else { continue }
            let argv = bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if let first = argv.first, first.hasSuffix("orientationctl"), argv.dropFirst().contains("report-focus") { return true }
        }
        return false
    }
}
