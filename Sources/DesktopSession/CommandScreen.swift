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
            "ORIENTATION_TRANSFORM=\(orientation.wlrRandrTransform ?? "normal")",
            "ORIENTATION_WL_TRANSFORM=\(orientation.wlOutputTransform ?? 0)",
            "ORIENTATION_SWAY_TRANSFORM=\(orientation.swayTransform ?? "normal")",
            "ORIENTATION_XRANDR=\(orientation.xrandrRotation ?? "normal")",
        ]
    }

    private func run(_ orientation: InterfaceOrientation) {
        lastRun = orientation
        let pid: pid_t
        do { pid = try Subprocess.spawn(argv, environment: Self.environment(orientation)).pid } catch {
            lastRun = nil
            say("cannot run \(argv[0]) for \(orientation.name): \(error)")
            return next()
        }
        running = ChildWatch(pid: pid) { [unowned self] status in
            running = nil
            let code = Subprocess.exitCode(status)
            if let signal = Subprocess.signal(status) {
                say("\(argv[0]) was killed by signal \(signal) while showing \(orientation.name)")
            } else if let code, code != 0 {
                say("\(argv[0]) exited with status \(code) while showing \(orientation.name)")
            }
            // A failed run is tried again when the same orientation is shown again.
            if code != 0 { lastRun = nil }
            next()
        }
    }

    private func next() {
        guard let orientation = waiting else { return }
        waiting = nil
        show(orientation)
    }
}
