// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import OrientationAPI

/// The overview, the texts several help pages share, and the `help` command.
enum Help {
    /// The page `orientationctl --help` prints, its option and command lists read from `Commands`.
    static var overview: String {
        """
        Usage: orientationctl [--system | --session | --address ADDRESS] [--json] [--no-ask-password]
                              COMMAND [ARGS]

        Talks to orientationd (\(Orientation1.busName)).

        Global options (before or after the command, up to a '--'):
        \(list(Commands.globalOptions.map { ($0.label, $0.summary) }, column: 21))

        Commands:
        \(list(Commands.all.map { ($0.synopsis, $0.summary) }, column: 21))

        'orientationctl COMMAND --help' explains a command. An option's value may also
        follow an equals sign: --address=ADDRESS.
        Privileged calls (lock, unlock, set-device, inject, app-mask, app set and reset,
        focus) let polkit ask for a password, through the desktop's agent or, on a
        terminal, pkttyagent; --no-ask-password refuses instead.
        Exit status: 0 on success, 1 when the daemon or the bus reports an error
        (its message and error name go to stderr), 2 for a wrong command line.
        """
    }

    /// Two-column lines indented by two: each term padded to `column`, or alone on its line when
    /// too long, its description's later lines aligned under the first.
    static func list(_ rows: [(String, String)], column: Int) -> String {
        let indent = String(repeating: " ", count: column + 2)
        return rows.map { term, description in
            let lines = description.split(separator: "\n", omittingEmptySubsequences: false)
            let first = term.count < column - 1
                ? "  " + term + String(repeating: " ", count: column - term.count) + lines[0]
                : "  " + term + "\n" + indent + lines[0]
            return ([first] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    static let orientations = "portrait, portrait-upside-down, landscape-left, landscape-right, face-up, face-down or 1-6"
    static let masks = """
        MASK is a number (a non-empty subset of 30: portrait 2, portrait-upside-down 4,
        landscape-right 8, landscape-left 16) or names joined by ',', '|' or ';' (as in
        a desktop file: 'landscape;portrait;') among portrait, portrait-upside-down,
        landscape-right, landscape-left, landscape, all, all-but-upside-down. A mask of 0
        supports no orientation and is refused; 'app reset ID' and 'app-mask reset' go
        back to the default.
        """

    static let jsonScheme = """
        JSON (--json): one object. Every property appears under its own name with the
        value as shown in text: orientations as name strings, masks as arrays of names,
        booleans as true/false, RotationDuration as a number, KeyWindow as a path,
        ScreenBounds as "WxH". Values that are numbers on the wire also appear raw
        under NAME + "Value": orientations and masks as numbers, ScreenBounds as
        [width, height]. Example:
          {"InterfaceOrientation": "portrait", "InterfaceOrientationValue": 1,
           "SupportedMask": ["portrait", "landscape-right", "landscape-left"],
           "SupportedMaskValue": 26, "RotationLocked": false, ...}
        """

    /// `help [COMMAND]`.
    static func run(_ invocation: Invocation) throws(Failure) {
        guard let topic = invocation.arguments.first else { return print(overview) }
        guard let command = Commands.named(topic) else { throw .usage("help: unknown command '\(topic)'") }
        print(command.help)
    }
}

extension Command {
    static let help = Command(
        name: "help", synopsis: "help [COMMAND]", summary: "show this help, or a command's",
        help: """
            Usage: orientationctl help [COMMAND]

            Shows the overview, or COMMAND's help.
            """,
        operands: .commandNames, run: Help.run)
}
