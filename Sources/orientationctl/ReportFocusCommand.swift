// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Arguments
import DBus
import DesktopSession
import EventLoop
import SystemCalls

/// `report-focus`: the session agent of the Wayland desktops (Phosh on phoc, sway, labwc, river,
/// wayfire, Hyprland, niri, COSMIC). It reads the compositor's foreign-toplevel protocol through
/// `orientationd-toplevels` and reports each application in front to orientationd, with whether its
/// window fills the screen and what the user's own desktop file for it declares; where the shell
/// does not turn the screen itself, it turns the panel through the compositor's output management
/// (`PanelTurner`; Docs/shells.md, "The screen turns with nothing to configure"). Started with the
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

        Unless XDG_CURRENT_DESKTOP names GNOME, KDE or Phosh (whose shells turn the
        screen themselves), it also turns the built-in panel wherever the compositor
        offers wlroots' output management (sway, Hyprland, river, labwc, wayfire,
        niri, COSMIC, cage, phoc): the output [Session] Output= names in
        ~/.config/orientationd/session.conf, else the first eDP-*, LVDS-* or DSI-*,
        else the only one, given the transform of orientationd's interface
        orientation (landscape-right: wl_output 270, the picture 'follow sway'
        gives), every other output kept as it is; a disabled panel is left alone.
        It holds a device-orientation claim only while it has a panel to turn.

        It is started with the session by the XDG autostart entry
        orientationd-focus.desktop; compositors that run no autostart entries start
        it from their config (sway: exec orientationctl report-focus). Where the
        compositor offers neither protocol (GNOME Shell, KWin, whose own reporters
        tell orientationd) it exits at once, with status 0 and nothing sent. When the compositor goes away the focus is cleared, and it waits up to
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
        // Where the shell does not turn the screen itself, the panel is turned through the
        // compositor's output management, with a claim held only while there is a panel to turn.
        var follower: OrientationFollower?
        // Quietly: on GNOME and KDE the agent ends at once, and says nothing in every session's log.
        if SessionAgent.shellTurningTheScreen() == nil {
            sayingCommand = "report-focus"
            let turner = PanelTurner(configuredName: SessionAgent.configuredOutput()) { toplevels.send($0) }
            turner.say = { complain("report-focus: \($0)") }
            let following = OrientationFollower(connection: connection, screen: turner, claiming: false)
            var saidTouch = false
            turner.onCanTurn = { can in
                following.setClaiming(can)
                if can, !saidTouch, let panel = PanelTurner.panel(turner.heads, named: SessionAgent.configuredOutput()),
                   let note = SessionAgent.touchNote(panel: panel.name) {
                    saidTouch = true
                    complain("report-focus: " + note)
                }
            }
            toplevels.turnsOutputs = true
            toplevels.onOutputs = { turner.outputsChanged($0) }
            toplevels.onTurn = { name, transform, ok in turner.turned(name, transform, succeeded: ok) }
            do { try following.start() } catch {
                if case .dbus(let error) = error { throw Failure(error) }
                if case .runtime(let message) = error { throw .runtime("report-focus: \(message)") }
            }
            follower = following
        }
        var started = false
        toplevels.onFocus = { view in
            guard !started else { return reporter.report(view) }
            started = true
            reporter.start()
            reporter.report(view)
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
        // What starting touched goes back to the kernel as the loop first sleeps, and what each wake-up
        // touched (a report, a turn) as it sleeps again (`ProgramPages`): the reporter idles at what
        // idling needs, and the next report reads its code back, a few milliseconds.
        MainLoop.setPollFunction(ProgramPages.pollFunction)
        ProgramPages.pageOutWhenAsleep(againAfter: nil)
        try session.run()
        withExtendedLifetime(follower) {}
    }
}

extension Command {
    static let reportFocus = Command(
        name: "report-focus", synopsis: "report-focus [--helper PATH]",
        summary: "report the application in front, and turn the panel, on wlroots desktops",
        help: ReportFocusCommand.help,
        options: [CommandOption(flag: "--helper", value: "PATH", summary: "the Wayland client that reads the compositor")],
        run: ReportFocusCommand.run)
}
