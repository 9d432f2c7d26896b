// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// One command of orientationctl, declared once: dispatch, the overview, `--help` and the
/// completion scripts are all read from it, so they cannot drift apart.
struct Command: Sendable {
    /// What is typed, e.g. `set-device`.
    let name: String
    /// The name with its arguments, as the overview lists it, e.g. `set-device ORIENTATION`.
    let synopsis: String
    /// One line for the overview.
    let summary: String
    /// The page `orientationctl help NAME` and `orientationctl NAME --help` print.
    let help: String
    /// What a shell offers for the command's operands.
    var operands: Operands = .none
    /// The command's own options, for the completions (and its help page, where it lists them).
    var options: [CommandOption] = []
    let run: @Sendable (Invocation) throws(Failure) -> Void
}

/// What a command's operands may be, for the completions.
enum Operands: Sendable {
    case none
    /// The first operand: one of these words.
    case words([String])
    /// The first operand: a command's name (`help COMMAND`).
    case commandNames
    /// The words for the next operand, given those typed before it (`app set ID MASK`).
    case following(@Sendable (_ typed: [String], _ context: CompletionContext) -> [String])
}

/// An option of a command, or of the tool itself.
struct CommandOption: Sendable {
    /// `--root`.
    let flag: String
    /// Another spelling, e.g. `-h`.
    var alias: String?
    /// The value's placeholder, e.g. `KIND`; nil for an option that takes none.
    var value: String?
    /// Words a shell offers for the value.
    var values: [String] = []
    /// What it does; later lines continue the first.
    let summary: String

    /// `--root KIND` or `--help, -h`, as a help page lists it.
    var label: String {
        flag + (value.map { " " + $0 } ?? "") + (alias.map { ", " + $0 } ?? "")
    }
}
