// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

/// Every command, in the order the overview lists them. To add one, declare it as a `Command`
/// (beside its code, as `extension Command { static let … }`) and list it here: dispatch, the
/// overview, its `--help` and the completion scripts follow.
enum Commands {
    static let all: [Command] = [
        .status, .get, .monitor, .lock, .unlock, .acceptSuggestion, .setDevice, .inject, .appMask, .app, .attempt, .window,
        .focus, .follow, .reportFocus, .relayFocus, .config, .calibrate, .completions, .help,
    ]

    /// The options before the command.
    static let globalOptions: [CommandOption] = [
        CommandOption(flag: "--system", summary: "use the system bus (default)"),
        CommandOption(flag: "--session", summary: "use the session bus"),
        CommandOption(flag: "--address", value: "ADDRESS", summary: "use the bus at ADDRESS"),
        CommandOption(flag: "--json", summary: "print JSON for scripts (see 'orientationctl help status')"),
        CommandOption(flag: "--no-ask-password", summary: "never let polkit ask for a password: a privileged call\n"
            + "that needs one is refused"),
        CommandOption(flag: "--version", summary: "print the version and exit"),
        CommandOption(flag: "--help", alias: "-h", summary: "show this help"),
    ]

    /// The command called `name`, nil when there is none.
    static func named(_ name: String) -> Command? { all.first { $0.name == name } }

    /// Words for an operand or a value that is an interface orientation.
    static let interfaceOrientationWords = InterfaceOrientation.fallbackOrder.map(\.name)
    /// Words for an operand or a value that is a mask.
    static let maskWords = OrientationMask.acceptedNames
}
