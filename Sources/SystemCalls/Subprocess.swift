// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc

/// Programs the tools run and read, started with `posix_spawnp`.
public enum Subprocess {
    /// What `argv` (looked up in `PATH`) prints on standard output, its standard input and error on
    /// /dev/null; nil when it cannot be started or does not exit with status 0. For the tools, which
    /// may wait for it; the daemon's loop must not.
    public static func output(of argv: [String]) -> String? {
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, argv[0], &actions, nil, &cArgs, environ)
        close(pipeFDs[1])
        guard rc == 0 else { close(pipeFDs[0]); return nil }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(pipeFDs[0], &buffer, buffer.count)
            if n <= 0 { break }
            output += buffer[0..<n]
        }
        close(pipeFDs[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else { return nil }
        return String(decoding: output, as: UTF8.self)
    }
}
