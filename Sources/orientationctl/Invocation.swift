import DBus

/// What the command line asks for, after the global options.
struct Invocation {
    var bus: BusAddress = .system
    var json = false
    var command: String
    var arguments: [String]

    /// Parses the whole argument list (without the program name).
    /// Returns nil for a request for the overview (`--help`, `-h`).
    static func parse(_ argv: [String]) throws(Failure) -> Invocation? {
        var bus: BusAddress?
        var json = false
        var index = 0
        func setBus(_ chosen: BusAddress, _ flag: String) throws(Failure) {
            guard bus == nil || bus == chosen else {
                throw .usage("\(flag): choose one of --system, --session and --address")
            }
            bus = chosen
        }
        while index < argv.count, argv[index].hasPrefix("-") {
            let argument = argv[index]
            switch argument {
            case "--help", "-h": return nil
            case "--system": try setBus(.system, argument)
            case "--session": try setBus(.session, argument)
            case "--json": json = true
            case "--address":
                index += 1
                guard index < argv.count, !argv[index].isEmpty else { throw .usage("--address needs a bus address") }
                try setBus(.address(argv[index]), argument)
            default:
                if argument.hasPrefix("--address=") {
                    let address = String(argument.dropFirst("--address=".count))
                    guard !address.isEmpty else { throw .usage("--address needs a bus address") }
                    try setBus(.address(address), "--address")
                } else {
                    throw .usage("unknown option '\(argument)'")
                }
            }
            index += 1
        }
        guard index < argv.count else { throw .usage("no command given") }
        return Invocation(bus: bus ?? .system, json: json, command: argv[index],
                          arguments: Array(argv[(index + 1)...]))
    }

    /// Whether the command's own arguments ask for its help (before any `--`).
    var wantsHelp: Bool {
        for argument in arguments {
            if argument == "--" { return false }
            if argument == "--help" || argument == "-h" { return true }
        }
        return false
    }

    /// The arguments with one leading `--` removed, for commands that take only operands.
    var operands: [String] {
        var list = arguments
        if let separator = list.firstIndex(of: "--") { list.remove(at: separator) }
        return list
    }

    /// Checks the operand count, naming what the command expects.
    func expectOperands(_ names: [String]) throws(Failure) -> [String] {
        let given = operands
        if given.count != names.count {
            let expected = names.isEmpty ? "no arguments" : names.joined(separator: " ")
            throw .usage("\(command) takes \(expected); got \(given.isEmpty ? "none" : given.joined(separator: " "))")
        }
        // An option-looking operand is a mistake, except numbers (inject's negative values).
        if arguments.first(where: { $0 != "--" && $0.hasPrefix("-") && Double($0) == nil }) != nil,
           !arguments.contains("--") {
            let bad = arguments.first { $0.hasPrefix("-") && Double($0) == nil }!
            throw .usage("\(command): unknown option '\(bad)'")
        }
        return given
    }
}
