// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import DesktopSession

/// `relay-focus`: for shells whose scripts reach only the session bus (KWin's `callDBus`). It owns
/// `org.orientationd.FocusRelay` on the session bus and passes every `SetFocusedApplication(s, i)`
/// (and `ReportFocus(s, i, b)`, with whether the window fills the screen) it gets on to orientationd on
/// the system bus, with what the user's own desktop file declares, (or the bus the global options name), again when
/// the daemon restarts. The session bus starts it on the first call (D-Bus activation). The pid is
/// an `i`, because `callDBus` sends a script's numbers as int32 and cannot choose another type.
enum RelayCommand {
    static let busName = "org.orientationd.FocusRelay"
    static let path = "/org/orientationd/FocusRelay"
    static let interface = "org.orientationd.FocusRelay1"

    static let help = """
        Usage: orientationctl relay-focus

        Serves \(busName) on the session bus (object \(path), interface
        \(interface)) and passes each SetFocusedApplication(s app_id, i pid) and
        ReportFocus(s app_id, i pid, b fullscreen) it is called with on to
        orientationd, on the system bus (or the bus named by --session or
        --address), as the session's focus authority, with the orientations your
        own desktop file for app_id declares (~/.local/share/applications); the
        focus is sent again when orientationd restarts. An app_id that is not a desktop-file
        id is passed on as "" with its pid, a negative pid as 0. The pid is an int32
        because KWin's callDBus sends a script's numbers so. It is meant for KWin's script
        (callDBus speaks only the session bus) and is started by the session bus
        on the first call. It runs until SIGINT or SIGTERM, or until the session
        bus goes away; it exits at once when another relay owns the name.
        """

    static func run(_ invocation: Invocation) throws(Failure) {
        _ = try invocation.expectOperands([])
        let session = Session()
        let daemonBus: Connection
        let sessionBus: Connection
        do {
            daemonBus = try Connection(bus: invocation.bus)
            sessionBus = try Connection(bus: .session)
        } catch { throw Failure(error) }
        let reporter = FocusReporter(connection: daemonBus) { complain("relay-focus: \($0)") }
        reporter.start()
        let relay = Interface(name: interface, methods: [
            Method("SetFocusedApplication", in: ("app_id", String.self), ("pid", Int32.self)) { _, id, pid in
                reporter.report(FocusedView(reported: id, process: Int64(pid)))
                return .values([])
            },
            Method("ReportFocus", in: ("app_id", String.self), ("pid", Int32.self), ("fullscreen", Bool.self)) { _, id, pid, fills in
                reporter.report(FocusedView(reported: id, process: Int64(pid), fillsScreen: fills))
                return .values([])
            },
        ])
        sessionBus.onDisconnected = { session.fail(.runtime("relay-focus: the session bus went away; exiting")) }
        daemonBus.onDisconnected = { session.fail(.runtime("relay-focus: disconnected from orientationd's bus; exiting")) }
        do {
            try sessionBus.objects.register(path: path, interfaces: [relay])
            guard try sessionBus.requestName(busName, flags: .doNotQueue) else {
                complain("relay-focus: \(busName) is owned already: another relay runs in this session")
                return
            }
        } catch { throw Failure(error) }
        let target = switch invocation.bus {
        case .system: "the system bus"
        case .session: "the session bus"
        case .address(let address): address
        }
        complain("relay-focus: serving \(busName) on the session bus; focus reports go to orientationd on \(target)")
        try session.run()
    }
}

extension Command {
    static let relayFocus = Command(
        name: "relay-focus", synopsis: "relay-focus",
        summary: "pass a shell script's focus reports from the session bus to orientationd",
        help: RelayCommand.help, run: RelayCommand.run)
}
