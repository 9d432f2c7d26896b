// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Arguments
import Configuration

/// `config [--config FILE] [--machine-info FILE]`: the configuration in force, read from the files as
/// the daemon reads them at start (the main file, then the drop-ins), each key with the file it came
/// from, as `systemd-analyze cat-config` shows a daemon's. A bad value stops it as it stops the
/// daemon, naming the file and the key.
enum ConfigCommand {
    static let help = """
        Usage: orientationctl config [--config FILE] [--machine-info FILE]

        Prints the configuration orientationd reads when it starts, without asking
        it: which files were read, in order (\(Settings.defaultConfigPath), then
        the *.conf drop-ins of \(ConfigFiles.dropInDirectories.joined(separator: ", ")),
        sorted by file name, a file in /etc hiding one of the same name in /run or
        /usr/lib, and one that is empty or a link to /dev/null masking it); then
        each key set, as the last file to set it says, with that file; then the
        idiom and where it comes from (with Idiom=auto, the chassis:
        --machine-info names another file than /etc/machine-info). Every key not
        shown has its default (orientationd.conf(5)). With --config FILE, FILE and
        the drop-ins of FILE.d/, as orientationd --config FILE reads them. A bad
        value is an error naming its file and key (exit status 1), as orientationd
        would stop with; unknown keys are warnings. A running daemon read the
        files as they were when it started: restart it after a change, or, for
        [Posture]'s hinge thresholds alone, reload it (systemctl reload
        orientationd, or SIGHUP).
        """

    static func run(_ invocation: Invocation) throws(Failure) {
        var cursor = ArgumentCursor(invocation.operands)
        var arguments: [String] = []
        while let argument = cursor.next() {
            switch argument {
            case "--config", "--machine-info":
                guard let value = cursor.value(), !value.isEmpty else { throw .commandUsage("config: \(argument) needs a file", command: "config") }
                arguments += [argument, value]
            default:
                throw .commandUsage("config: unknown argument '\(argument)'", command: "config")
            }
        }
        let outcome: DaemonCommandLine.Outcome
        do {
            outcome = try DaemonCommandLine.parse(arguments)
        } catch {
            throw .runtime(error.message)
        }
        guard case .run(let settings, let warnings) = outcome else { return }
        for line in text(settings, warnings: warnings) { emit(line) }
    }

    /// The lines printed.
    static func text(_ settings: Settings, warnings: [String]) -> [String] {
        var lines = settings.configFiles.isEmpty ? ["# no configuration file: every key has its default"]
            : settings.configFiles.map { "# read \($0)" }
        lines += warnings.map { "# warning: \($0)" }
        // The last value of each group and key, groups in the order first set.
        var groups: [String] = []
        var inForce: [String: [(key: String, value: String, file: String)]] = [:]
        for entry in settings.configValues {
            if inForce[entry.group] == nil { groups.append(entry.group) }
            var keys = inForce[entry.group, default: []]
            keys.removeAll { $0.key == entry.key }
            keys.append((entry.key, entry.value, entry.file))
            inForce[entry.group] = keys
        }
        for group in groups {
            lines += ["", "[\(group)]"]
            lines += inForce[group, default: []].map { "\($0.key)=\($0.value)  # \($0.file)" }
        }
        lines += ["", "# Idiom in force: \(settings.policy.idiom.rawValue) (\(settings.idiomExplanation))"]
        return lines
    }
}

extension Command {
    static let config = Command(
        name: "config", synopsis: "config [--config FILE]",
        summary: "print the configuration in force, each key with its file",
        help: ConfigCommand.help,
        options: [CommandOption(flag: "--config", value: "FILE", summary: "read FILE and FILE.d/ as orientationd --config FILE"),
                  CommandOption(flag: "--machine-info", value: "FILE", summary: "read the chassis from FILE")],
        run: ConfigCommand.run)
}
