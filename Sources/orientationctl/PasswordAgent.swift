// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls
import DBus

/// A polkit agent for a terminal, started as systemd's tools start one: when a privileged call may
/// ask for a password, orientationctl runs on a terminal, and `pkttyagent` is installed, it runs
/// `pkttyagent --notify-fd N --fallback --process PID` and waits until the agent says it is
/// registered. `--fallback` leaves the asking to a desktop's own agent where one runs. The agent is
/// stopped when the tool exits.
enum PasswordAgent {
    static let program = "/usr/bin/pkttyagent"
    nonisolated(unsafe) private static var started: pid_t = 0

    /// Starts the agent once, when it can be of use; silent when it cannot. polkit lives on the
    /// system bus, or on the bus `--address` names: the agent is pointed at that one.
    static func startIfUseful(bus: BusAddress) {
        guard started == 0, isatty(STDIN_FILENO) != 0, isatty(STDOUT_FILENO) != 0, access(program, X_OK) == 0 else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 onto itself clears FD_CLOEXEC in the child only.
        posix_spawn_file_actions_adddup2(&actions, ends[1], ends[1])
        let argv = [program, "--notify-fd", String(ends[1]), "--fallback", "--process", String(getpid())]
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { for arg in cArgs { free(arg) } }
        var environment: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            if case .address = bus, text.hasPrefix("DBUS_SYSTEM_BUS_ADDRESS=") {} else { environment.append(text) }
            index += 1
        }
        if case .address(let address) = bus { environment.append("DBUS_SYSTEM_BUS_ADDRESS=" + address) }
        var cEnvironment = environment.map { strdup($0) } + [nil]
        defer { for entry in cEnvironment { free(entry) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, program, &actions, nil, &cArgs, &cEnvironment)
        close(ends[1])
        defer { close(ends[0]) }
        guard status == 0 else { return }
        started = pid
        // The agent closes (or writes to) the descriptor once it is registered with polkit; a polkit
        // that does not answer it holds the call no longer than 5 s, and the call goes ahead.
        _ = try? FileDescriptor(rawValue: ends[0]).waitReadable(timeoutMs: 5000)
    }

    /// Stops the agent, if one was started.
    static func stop() {
        guard started > 0 else { return }
        kill(started, SIGTERM)
        _ = try? ProcessCalls.wait(started)
        started = 0
    }
}
