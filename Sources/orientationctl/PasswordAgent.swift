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
struct PasswordAgent {
    static let program = "/usr/bin/pkttyagent"
    /// The agent's process.
    let pid: pid_t

    /// Starts the agent when it can be of use; nil, silently, when it cannot. polkit lives on the
    /// system bus, or on the bus `--address` names: the agent is pointed at that one.
    static func startIfUseful(bus: BusAddress) -> PasswordAgent? {
        guard FileDescriptor(rawValue: STDIN_FILENO).isTerminal, FileDescriptor(rawValue: STDOUT_FILENO).isTerminal,
              FileSystem.executionError(program) == nil,
              let notify = try? Subprocess.pipe() else { return nil }
        defer { notify.read.close() }
        var environment: [String] = []
        if case .address(let address) = bus { environment.append("DBUS_SYSTEM_BUS_ADDRESS=" + address) }
        let child = try? Subprocess.spawn([program, "--notify-fd", String(notify.write.rawValue), "--fallback", "--process", String(ProcessCalls.ownID)],
                                          input: .inherit, environment: environment, keepingOpen: [notify.write])
        notify.write.close()
        guard let child else { return nil }
        // The agent closes (or writes to) the descriptor once it is registered with polkit; a polkit
        // that does not answer it holds the call no longer than 5 s, and the call goes ahead.
        _ = try? notify.read.waitReadable(timeoutMs: 5000)
        return PasswordAgent(pid: child.pid)
    }

    /// Stops the agent.
    func stop() {
        ProcessCalls.terminate(pid)
        _ = try? ProcessCalls.wait(pid)
    }
}
