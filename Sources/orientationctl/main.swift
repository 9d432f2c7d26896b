@preconcurrency import Glibc

// Monitor lines must reach a pipe as they happen.
setvbuf(stdout, nil, _IOLBF, 0)

func run(_ argv: [String]) throws(Failure) {
    guard let invocation = try Invocation.parse(argv) else { return print(Help.overview) }
    guard let command = Commands.named(invocation.command) else {
        throw .usage("unknown command '\(invocation.command)'; commands: "
            + Commands.all.map(\.name).joined(separator: ", "))
    }
    if invocation.wantsHelp { return print(command.help) }
    try command.run(invocation)
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
    exit(0)
} catch {
    complain(error.message)
    exit(error.exitStatus)
}
