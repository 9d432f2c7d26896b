// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Arguments
import DBus
import DesktopSession

/// `focus APP_ID [--pid PID] [--fullscreen|--windowed]`: reports an application in front (`ReportFocus`) and holds
/// the report until interrupted, as a shell's reporter would: the daemon clears the focus when its
/// reporter leaves the bus, so a report made by a command that exits at once would last no longer
/// than the command. Sent again when orientationd restarts.
enum FocusCommand {
    static let help = """
        Usage: orientationctl focus APP_ID [--pid PID] [--fullscreen | --windowed]

        Tells orientationd that APP_ID (a desktop file's name without .desktop, e.g.
        org.gnome.Maps; "" for an application not known) is in front, in process PID (0,
        the default, when not known): ReportFocus, privileged (report-focus), which
        makes this command the session's focus authority. The orientations APP_ID
        declares then rule ('orientationctl app show APP_ID' tells which), including
        those of your own desktop file for it (~/.local/share/applications/APP_ID.desktop,
        or your Flatpak exports), which this command reads and sends. --fullscreen and
        --windowed say whether its window fills the screen: on a tablet a declaration
        binds only while it does ([Applications] Declarations in orientationd.conf(5));
        without either, nothing is said, which counts as filling it. The report
        holds until SIGINT or SIGTERM: orientationd clears the focus when its reporter
        leaves, as it does when a shell's reporter ends. It is sent again when
        orientationd restarts. For testing an application's declaration, or for a
        desktop without a focus reporter.
        """

    static func run(_ invocation: Invocation) throws(Failure) {
        var cursor = ArgumentCursor(invocation.operands)
        var id: String?, pid: UInt32 = 0, fillsScreen: Bool?
        while let argument = cursor.next() {
            switch argument {
            case "--fullscreen", "--windowed":
                let fills = argument == "--fullscreen"
                if let said = fillsScreen, said != fills { throw .usage("focus: --fullscreen and --windowed exclude each other") }
                fillsScreen = fills
            case "--pid":
                guard let text = cursor.value(), let value = UInt32(text) else {
                    throw .usage("focus: --pid needs a process id (a number; 0 when not known)")
                }
                pid = value
            case _ where argument.hasPrefix("-") && argument.count > 1:
                throw .usage("focus: unknown option '\(argument)'")
            default:
                guard id == nil else { throw .usage("focus takes one APP_ID; got '\(id!)' and '\(argument)'") }
                id = argument
            }
        }
        guard let id else { throw .usage("focus takes APP_ID") }
        if !id.isEmpty { try AppCommand.checkID(id, "focus") }
        let session = Session()
        let manager = try Manager(invocation)
        let owner = try manager.daemonOwner()
        // The first report waits for its answer, so a refusal ends the command with the daemon's error.
        let view = FocusedView(application: id, process: pid, fillsScreen: fillsScreen)
        try manager.call("ReportFocus", FocusReporter.arguments(view, .fromEnvironment()))
        let reporter = FocusReporter(connection: manager.connection) { complain("focus: \($0)") }
        reporter.report(view)
        reporter.start()
        manager.connection.onDisconnected = { session.fail(.runtime("focus: disconnected from the bus; exiting")) }
        complain("focus: \(id.isEmpty ? "an unknown application" : id) in front\(pid == 0 ? "" : " (process \(pid))") "
            + "for orientationd (\(owner)) until interrupted; the focus then clears")
        try session.run()
    }
}

extension Command {
    static let focus = Command(
        name: "focus", synopsis: "focus APP_ID [--pid PID] [--fullscreen|--windowed]",
        summary: "report an application in front, until interrupted",
        help: FocusCommand.help,
        operands: .following { typed, context in typed.isEmpty ? context.applicationIDs() : [] },
        options: [CommandOption(flag: "--pid", value: "PID", summary: "its process id (default 0: not known)"),
                  CommandOption(flag: "--fullscreen", summary: "its window fills the screen"),
                  CommandOption(flag: "--windowed", summary: "its window does not fill the screen")],
        run: FocusCommand.run)
}
