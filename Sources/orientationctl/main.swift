// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import OrientationAPI

// Monitor lines must reach a pipe as they happen.
setvbuf(stdout, nil, _IOLBF, 0)

func run(_ argv: [String]) throws(Failure) {
    let invocation: Invocation
    switch try Invocation.parse(argv) {
    case .overview: return print(Help.overview)
    case .version: return print("orientationctl \(Release.version)")
    case .run(let parsed): invocation = parsed
    }
    if invocation.command == CompletionScripts.command { return CompletionScripts.complete(invocation) }
    guard let command = Commands.named(invocation.command) else {
        throw .usage("unknown command '\(invocation.command)'; commands: "
            + Commands.all.map(\.name).joined(separator: ", "))
    }
    if invocation.wantsHelp { return print(command.help) }
    do {
        try command.run(invocation)
    } catch .usage(let text) {
        throw .commandUsage(text, command: command.name)
    }
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
    exit(0)
} catch {
    complain(error.message)
    exit(error.exitStatus)
}
