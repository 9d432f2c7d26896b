// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Arguments
import DBus
import EventLoop
import DesktopSession

/// `follow`: a session helper that keeps the screen turned with the interface orientation and,
/// on sway, tells orientationd which application is in front.
enum FollowCommand {
    static let name = "follow"
    static let synopsis = "follow sway [OPTIONS] | follow exec -- COMMAND [ARGS...]"
    static let summary = "turn the screen with the interface orientation until interrupted"
    static let help = """
        Usage: orientationctl follow sway [--output NAME] [--no-touch] [--focus]
               orientationctl follow exec -- COMMAND [ARGS...]

        A session helper for desktops that do not follow orientationd themselves. It holds
        a device-orientation claim (so the sensor runs), shows the interface orientation at
        start and after every DidChange, and runs until SIGINT or SIGTERM (exit 0).

        follow sway talks to sway over its IPC socket ($SWAYSOCK):
          --output NAME   the output to turn (default: the built-in panel, eDP-*, LVDS-* or
                          DSI-*, else the first active output)
          --no-touch      leave the inputs alone (default: touchscreens and tablets are mapped
                          to the output with map_to_output, so touch follows the picture)
          --focus         report the focused window's application id (a Wayland view's
                          app_id, an X11 view's class) and process to orientationd
                          (SetFocusedApplication, privileged: report-focus), so the
                          application in front decides which way the screen may face
        It sets the output's transform: portrait normal, landscape-right 90,
        portrait-upside-down 180, landscape-left 270 (clockwise).

        follow exec runs COMMAND with ARGS for each new orientation, one run at a time, with
        the orientation in its environment:
          ORIENTATION               portrait, landscape-right, portrait-upside-down, landscape-left
          ORIENTATION_DEGREES       0, 90, 180, 270: the picture's clockwise rotation
          ORIENTATION_TRANSFORM     normal, 270, 180, 90: what wlr-randr --transform takes
                                    (wl_output counts anticlockwise: landscape-right is 270)
          ORIENTATION_WL_TRANSFORM  0, 3, 2, 1: the wl_output transform (Hyprland's monitor transform)
          ORIENTATION_SWAY_TRANSFORM  normal, 90, 180, 270: sway's output transform (clockwise)
          ORIENTATION_XRANDR        normal, right, inverted, left: what xrandr --rotate takes
        A command that fails is reported on stderr, and following goes on. For example:
          orientationctl follow exec -- sh -c 'wlr-randr --output eDP-1 --transform "$ORIENTATION_TRANSFORM"'

        When orientationd leaves the bus, follow waits and carries on when it is back. When
        sway's socket closes, follow waits up to 10 s for sway to listen again; when sway
        shuts down, or does not come back, it exits 1. Between changes it sleeps.
        """

    static func run(_ invocation: Invocation) throws(Failure) {
        let arguments = invocation.arguments
        guard let mode = arguments.first else {
            throw .usage("follow needs 'sway' or 'exec -- COMMAND'")
        }
        let rest = Array(arguments.dropFirst())
        switch mode {
        case "sway": try followSway(invocation, try swayOptions(rest))
        case "exec": try followCommand(invocation, try commandLine(rest))
        default: throw .usage("follow: unknown target '\(mode)'; use 'sway' or 'exec -- COMMAND'")
        }
    }

    /// `follow sway`'s options, with `$SWAYSOCK`.
    static func swayOptions(_ arguments: [String]) throws(Failure) -> SwayScreen.Options {
        var output: String?
        var mapsTouch = true, reportsFocus = false
        var cursor = ArgumentCursor(arguments)
        while let argument = cursor.next() {
            switch argument {
            case "--no-touch": mapsTouch = false
            case "--focus": reportsFocus = true
            case "--output":
                guard let name = cursor.value(), !name.isEmpty else { throw .usage("follow sway: --output needs an output name") }
                output = name
            default: throw .usage("follow sway: unknown argument '\(argument)'")
            }
            if cursor.hasUnusedValue { throw .usage("follow sway: \(argument) takes no value") }
        }
        guard let socket = getenv("SWAYSOCK").map({ String(cString: $0) }), !socket.isEmpty else {
            throw .runtime("follow sway: SWAYSOCK is not set; run it from sway's config ('exec orientationctl follow sway') "
                + "or set SWAYSOCK to sway's IPC socket")
        }
        return SwayScreen.Options(socketPath: socket, output: output, mapsTouch: mapsTouch, reportsFocus: reportsFocus)
    }

    /// `follow exec`'s command: what follows `--` (or the first argument when there is no `--`).
    static func commandLine(_ arguments: [String]) throws(Failure) -> [String] {
        var command = arguments
        if command.first == "--" {
            command.removeFirst()
        } else if let first = command.first, first.hasPrefix("-") {
            throw .usage("follow exec: unknown option '\(first)'; put '--' before the command")
        }
        guard let program = command.first, !program.isEmpty else { throw .usage("follow exec needs a command after '--'") }
        return command
    }

    private static func followSway(_ invocation: Invocation, _ options: SwayScreen.Options) throws(Failure) {
        let session = Session()
        let screen = SwayScreen(options: options)
        let follower = try follower(invocation, screen, session)
        screen.onGone = { failure in session.fail(Failure(failure)) }
        if options.reportsFocus { screen.onFocus = { view in follower.reportFocus(view) } }
        do {
            try screen.start()
            try follower.start()
        } catch { throw Failure(error) }
        try session.run()
    }

    private static func followCommand(_ invocation: Invocation, _ argv: [String]) throws(Failure) {
        let session = Session()
        let follower = try follower(invocation, CommandScreen(argv: argv), session)
        do { try follower.start() } catch { throw Failure(error) }
        try session.run()
    }

    private static func follower(_ invocation: Invocation, _ screen: Screen, _ session: Session) throws(Failure) -> OrientationFollower {
        let connection: Connection
        do { connection = try Connection(bus: invocation.bus) } catch { throw Failure(error) }
        let follower = OrientationFollower(connection: connection, screen: screen)
        follower.onFatal = { failure in session.fail(Failure(failure)) }
        return follower
    }
}

extension Command {
    static let follow = Command(
        name: FollowCommand.name, synopsis: FollowCommand.synopsis, summary: FollowCommand.summary,
        help: FollowCommand.help, operands: .words(["sway", "exec"]),
        options: [
            CommandOption(flag: "--output", value: "NAME", summary: "the output to turn (follow sway)"),
            CommandOption(flag: "--no-touch", summary: "leave the inputs alone (follow sway)"),
            CommandOption(flag: "--focus", summary: "report the focused window's application and process (follow sway)"),
        ],
        run: FollowCommand.run)
}
