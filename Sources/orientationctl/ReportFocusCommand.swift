// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Arguments
import DBus
import DesktopSession
import EventLoop
import SystemCalls

/// `report-focus`: the focus reporter of the wlroots desktops (Phosh on phoc, sway, labwc, river,
/// wayfire, Hyprland). It reads the compositor's foreign-toplevel protocol through
/// `orientationd-toplevels` and reports each application in front to orientationd, with whether its
/// window fills the screen and what the user's own desktop file for it declares. Started with the
/// session by its XDG autostart entry; quiet and gone at once where the compositor lacks the
/// protocol (GNOME, KDE), whose own reporters then keep the role.
enum ReportFocusCommand {
    static let help = """
        Usage: orientationctl report-focus [--helper PATH]

        Tells orientationd which application is in front on a Wayland desktop whose
        compositor offers wlroots' foreign-toplevel protocol: Phosh (phoc), sway,
        labwc, river, wayfire, Hyprland. For each change of the activated window it
        sends ReportFocus (privileged: report-focus; allowed without a password to
        the active session): the window's application id, process 0 (the protocol
        has none), whether it is fullscreen or maximized, and the orientations your
        own desktop file for the application declares
        (~/.local/share/applications/ID.desktop, or your Flatpak exports), which
        orientationd cannot read itself. "none" is sent when no window is active.

        It is started with the session by the XDG autostart entry
        orientationd-focus.desktop; compositors that run no autostart entries start
        it from their config (sway: exec orientationctl report-focus). Where the
        compositor does not offer the protocol (GNOME Shell, KWin, whose own
        reporters tell orientationd) it exits at once, with status 0 and nothing
        sent. When the compositor goes away the focus is cleared, and it waits up to
        30 s for the compositor to come back on the same WAYLAND_DISPLAY; when
        orientationd restarts, the focus is sent again. It runs until SIGINT or
        SIGTERM.

          --helper PATH   the Wayland client that reads the protocol (default:
                          orientationd-toplevels beside orientationctl, else in
                          the libexec directory beside its bin)
        """

    static func run(_ invocation: Invocation) throws(Failure) {
        var cursor = ArgumentCursor(invocation.operands)
        var helper = ToplevelFocus.defaultHelper()
        while let argument = cursor.next() {
            switch argument {
            case "--helper":
                guard let path = cursor.value(), !path.isEmpty else { throw .usage("report-focus: --helper needs a path") }
                helper = path
            default:
                throw .usage("report-focus: unknown argument '\(argument)'")
            }
        }
        let session = Session()
        let connection: Connection
        do { connection = try Connection(bus: invocation.bus) } catch { throw Failure(error) }
        let reporter = FocusReporter(connection: connection) { complain("report-focus: \($0)") }
        let toplevels = ToplevelFocus(helper: helper)
        toplevels.say = { complain("report-focus: \($0)") }
        var started = false
        toplevels.onFocus = { view in
            guard !started else { return reporter.report(view) }
            started = true
            reporter.start()
            reporter.report(view)
            _ = Idle.schedule { ProgramPages.pageOut() }
        }
        toplevels.onEnd = { end in
            switch end {
            case .unsupported: session.loop.quit()
            case .failed(let why): session.fail(.runtime("report-focus: \(why); exiting"))
            }
        }
        connection.onDisconnected = { session.fail(.runtime("report-focus: disconnected from orientationd's bus; exiting")) }
        do { try toplevels.start() } catch {
            if case .runtime(let message) = error { throw .runtime("report-focus: \(message)") }
            throw .runtime("report-focus: \(error)")
        }
        defer { toplevels.stop() }
        // Started: what starting touched goes back to the kernel once the loop is idle, and again once
        // the first report is sent (`ProgramPages`), so the reporter idles at what reporting needs.
        _ = Idle.schedule { ProgramPages.pageOut() }
        try session.run()
    }
}

extension Command {
    static let reportFocus = Command(
        name: "report-focus", synopsis: "report-focus [--helper PATH]",
        summary: "report the application in front on wlroots desktops (Phosh, sway, ...)",
        help: ReportFocusCommand.help,
        options: [CommandOption(flag: "--helper", value: "PATH", summary: "the Wayland client that reads the compositor")],
        run: ReportFocusCommand.run)
}
