@preconcurrency import Glibc

// Monitor lines must reach a pipe as they happen.
setvbuf(stdout, nil, _IOLBF, 0)

func run(_ argv: [String]) throws(Failure) {
    guard let invocation = try Invocation.parse(argv) else {
        print(Help.overview)
        return
    }
    if invocation.command == "help" {
        guard let topic = invocation.arguments.first else {
            print(Help.overview)
            return
        }
        guard let text = Help.commands[topic] else { throw .usage("help: unknown command '\(topic)'") }
        print(text)
        return
    }
    guard let command = Commands.named(invocation.command) else {
        throw .usage("unknown command '\(invocation.command)'; commands: "
            + (Commands.names + ["help"]).joined(separator: ", "))
    }
    if invocation.wantsHelp {
        print(Help.commands[invocation.command] ?? Help.overview)
        return
    }
    try command(invocation)
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
    exit(0)
} catch {
    complain(error.message)
    exit(error.exitStatus)
}
