// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls
import DBus
import EventLoop
import Orientation

/// `follow exec`: runs a command for each new interface orientation, with the orientation in its
/// environment, for compositors that turn outputs through a tool (`wlr-randr`, `hyprctl`, `xrandr`).
///
/// One run at a time: a change that comes while the command runs waits, and only the latest
/// waiting one runs. A command that fails or cannot start is reported; following goes on.
public final class CommandScreen: Screen {
    let argv: [String]
    private var running: ChildWatch?
    private var waiting: InterfaceOrientation?
    /// The orientation of the last run, so the same orientation (e.g. a daemon that came back) is not run twice.
    private var lastRun: InterfaceOrientation?

    public init(argv: [String]) {
        self.argv = argv
    }

    public func show(_ orientation: InterfaceOrientation) {
        guard running == nil else {
            waiting = orientation
            return
        }
        guard orientation != lastRun else { return }
        run(orientation)
    }

    /// The variables a run adds to the environment.
    static func environment(_ orientation: InterfaceOrientation) -> [String] {
        [
            "ORIENTATION=\(orientation.name)",
            "ORIENTATION_DEGREES=\(orientation.screenDegrees ?? 0)",
            "ORIENTATION_TRANSFORM=\(orientation.wlrootsTransform ?? "normal")",
            "ORIENTATION_WL_TRANSFORM=\(orientation.wlOutputTransform ?? 0)",
            "ORIENTATION_XRANDR=\(orientation.xrandrRotation ?? "normal")",
        ]
    }

    private func run(_ orientation: InterfaceOrientation) {
        lastRun = orientation
        let added = Self.environment(orientation)
        let names = Set(added.map { $0.prefix { $0 != "=" } })
        var environment: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            if !names.contains(text.prefix { $0 != "=" }) { environment.append(text) }
            index += 1
        }
        environment += added
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnv: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for p in cArgs + cEnv { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, argv[0], &actions, nil, &cArgs, &cEnv)
        guard rc == 0 else {
            lastRun = nil
            say("cannot run \(argv[0]) for \(orientation.name): \(Errno(rawValue: rc))")
            return next()
        }
        running = ChildWatch(pid: pid) { [unowned self] status in
            running = nil
            let exited = (status & 0x7f) == 0
            let code = (status >> 8) & 0xff
            if !exited {
                say("\(argv[0]) was killed by signal \(status & 0x7f) while showing \(orientation.name)")
            } else if code != 0 {
                say("\(argv[0]) exited with status \(code) while showing \(orientation.name)")
            }
            // A failed run is tried again when the same orientation is shown again.
            if !exited || code != 0 { lastRun = nil }
            next()
        }
    }

    private func next() {
        guard let orientation = waiting else { return }
        waiting = nil
        show(orientation)
    }
}
