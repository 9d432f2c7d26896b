// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc

/// Programs the tools start: one `posix_spawnp` sequence for all of them.
public enum Subprocess {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable {
        /// This process's own.
        case inherit
        /// `/dev/null`.
        case null
        /// A pipe whose other end is `Child.output` (standard output), or `Child.input` (standard input).
        case pipe
    }

    /// A child started.
    public struct Child: Sendable {
        public let pid: pid_t
        /// The read end of its standard output, when it was asked for (close-on-exec).
        public let output: FileDescriptor?
        /// The write end of its standard input, when it was asked for (close-on-exec).
        public var input: FileDescriptor? = nil
    }

    /// A pipe, both ends close-on-exec: `(read, write)`.
    public static func pipe() throws(Errno) -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        _ = try valueOrErrno { Glibc.pipe(&ends) }
        let read = FileDescriptor(rawValue: ends[0]), write = FileDescriptor(rawValue: ends[1])
        do {
            try read.setCloseOnExec()
            try write.setCloseOnExec()
        } catch {
            read.close()
            write.close()
            throw error
        }
        return (read, write)
    }

    /// Starts `argv` (`argv[0]` looked up in `PATH` unless it holds a slash) with its standard input,
    /// output and error as asked, this process's environment with the `NAME=value` entries of
    /// `environment` put in place of the same names, and `keepingOpen` left open in the child at their
    /// numbers (every other descriptor of this process is close-on-exec). Throws why it could not start.
    public static func spawn(_ argv: [String], input: Stream = .null, output: Stream = .inherit, errors: Stream = .inherit,
                             environment: [String] = [], keepingOpen: [FileDescriptor] = []) throws(Errno) -> Child {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if case .null = input { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
        var inputPipe: (read: FileDescriptor, write: FileDescriptor)?
        if case .pipe = input {
            let ends = try pipe()
            inputPipe = ends
            posix_spawn_file_actions_adddup2(&actions, ends.read.rawValue, 0)
        }
        if case .null = errors { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        var outputPipe: (read: FileDescriptor, write: FileDescriptor)?
        switch output {
        case .inherit: break
        case .null: posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        case .pipe:
            let ends = try pipe()
            outputPipe = ends
            posix_spawn_file_actions_adddup2(&actions, ends.write.rawValue, 1)
        }
        // dup2 onto itself clears close-on-exec in the child only.
        for fd in keepingOpen { posix_spawn_file_actions_adddup2(&actions, fd.rawValue, fd.rawValue) }
        let names = Set(environment.map { $0.prefix { $0 != "=" } })
        var entries: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            if !names.contains(text.prefix { $0 != "=" }) { entries.append(text) }
            index += 1
        }
        entries += environment
        var cArgs = argv.map { strdup($0) } + [nil]
        var cEnvironment = entries.map { strdup($0) } + [nil]
        defer { for pointer in cArgs + cEnvironment { free(pointer) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, argv[0], &actions, nil, &cArgs, &cEnvironment)
        outputPipe?.write.close()
        inputPipe?.read.close()
        guard rc == 0 else {
            outputPipe?.read.close()
            inputPipe?.write.close()
            throw Errno(rawValue: rc)
        }
        return Child(pid: pid, output: outputPipe?.read, input: inputPipe?.write)
    }

    /// A wait status's exit code, nil when the child was killed by a signal.
    public static func exitCode(_ status: Int32) -> Int32? {
        status & 0x7f == 0 ? (status >> 8) & 0xff : nil
    }

    /// The signal that killed the child of a wait status, nil when it exited.
    public static func signal(_ status: Int32) -> Int32? {
        status & 0x7f == 0 ? nil : status & 0x7f
    }

    /// What `argv` (looked up in `PATH`) prints on standard output, its standard input and error on
    /// /dev/null; nil when it cannot be started or does not exit with status 0. For the tools, which
    /// may wait for it; the daemon's loop must not.
    public static func output(of argv: [String]) -> String? {
        guard let child = try? spawn(argv, output: .pipe, errors: .null), let fd = child.output else { return nil }
        let bytes = try? fd.readAll(upTo: 1 << 20)
        fd.close()
        guard let status = try? ProcessCalls.wait(child.pid), exitCode(status) == 0, let bytes else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
