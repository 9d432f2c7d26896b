// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Arguments
import DBus

/// What the command line asks for: the global options (before or after the command), the command
/// and its own arguments.
struct Invocation {
    var bus: BusAddress = .system
    var json = false
    /// Whether polkit may ask for a password (`--no-ask-password` turns it off).
    var askPassword = true
    var command: String
    var arguments: [String]

    /// What the command line asks for: a command to run, the overview, or the version.
    enum Request {
        case run(Invocation)
        case overview
        case version
    }

    /// Parses the whole argument list (without the program name). The global options may come before
    /// or after the command, up to a `--`; what is not one of them is the command's.
    static func parse(_ argv: [String]) throws(Failure) -> Request {
        var bus: BusAddress?
        var json = false, askPassword = true
        var command: String?
        var rest: [String] = []
        var cursor = ArgumentCursor(argv)
        func setBus(_ chosen: BusAddress, _ flag: String) throws(Failure) {
            guard bus == nil || bus == chosen else {
                throw .usage("\(flag): choose one of --system, --session and --address")
            }
            bus = chosen
        }
        while let argument = cursor.next() {
            if argument == "--" && command != nil {
                rest += ["--"] + cursor.remaining
                break
            }
            switch argument {
            case "--system": try setBus(.system, argument)
            case "--session": try setBus(.session, argument)
            case "--json": json = true
            case "--no-ask-password": askPassword = false
            case "--address":
                guard let address = cursor.value(), !address.isEmpty else { throw .usage("--address needs a bus address") }
                try setBus(.address(address), argument)
            default:
                if command != nil {
                    // The command's own, passed on as written (`--root=view` whole).
                    rest.append(argv[argv.count - cursor.remaining.count - 1])
                    continue
                }
                switch argument {
                case "--help", "-h": return .overview
                case "--version": return .version
                case _ where argument.hasPrefix("-"): throw .usage("unknown option '\(argument)'")
                default: command = argument
                }
            }
            if cursor.hasUnusedValue { throw .usage("\(argument) takes no value") }
        }
        guard let command else { throw .usage("no command given") }
        return .run(Invocation(bus: bus ?? .system, json: json, askPassword: askPassword, command: command, arguments: rest))
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
