// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import CGLib
import EventLoop
import SystemCalls

/// The focus a Wayland compositor reports through wlroots' foreign-toplevel protocol (sway, phoc
/// under Phosh, labwc, river, wayfire, Hyprland), read from `orientationd-toplevels`, the package's
/// one Wayland client, which this runs as a child and reads line by line (its source says what it
/// writes). The application id is the toplevel's; there is no process id (0). A window fills the
/// screen when it is fullscreen or maximized.
///
/// When the compositor goes away the focus is cleared, and the helper is started again, after 0.1 s
/// and then twice as long each time up to 2 s, until the compositor is back on the same
/// `WAYLAND_DISPLAY` or `reconnectWindowMs` has passed. A compositor that does not offer the
/// protocol (GNOME, KDE) ends it quietly: their own reporters tell orientationd.
public final class ToplevelFocus {
    /// How a watch ends.
    public enum End: Equatable {
        /// The compositor offers no foreign-toplevel manager: nothing to report.
        case unsupported
        /// No compositor came back within the window, or the helper failed.
        case failed(String)
    }

    static let reconnectWindowMs: UInt32 = 30_000

    let helper: String
    /// Each view in front, `.none` when no toplevel is activated or the compositor went.
    public var onFocus: (FocusedView) -> Void = { _ in }
    /// Called once, when watching ends.
    public var onEnd: (End) -> Void = { _ in }
    /// Says what happens (the compositor going and coming back).
    public var say: (String) -> Void = { _ in }

    private var pid: pid_t = 0
    private var output: FileDescriptor?
    private var outputWatch: FDWatch?
    private var childWatch: ChildWatch?
    private var buffered: [UInt8] = []
    private var ready = false
    private var everReady = false
    private var retry: Timer?
    private var retryDeadline: Timer?
    private var retryDelayMs: UInt32 = 100
    private var ended = false

    public init(helper: String) {
        self.helper = helper
    }

    /// Where the helper is installed: beside this program (a build directory), else in the
    /// `libexec` directory beside its `bin`.
    public static func defaultHelper() -> String {
        var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &path, path.count - 1)
        let executable = count > 0 ? String(decoding: path[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let beside = directory + "/orientationd-toplevels"
        if access(beside, X_OK) == 0 { return beside }
        let parent = directory.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return parent + "/libexec/orientationd-toplevels"
    }

    /// Starts the helper; an error when it cannot run at all.
    public func start() throws(FollowError) {
        guard access(helper, X_OK) == 0 else {
            throw .runtime("cannot run \(helper): \(Errno.current); it is installed with orientationctl (libexec)")
        }
        try spawn()
    }

    /// Stops the helper, reporting nothing more.
    public func stop() {
        ended = true
        retry?.cancel()
        retryDeadline?.cancel()
        outputWatch?.cancel()
        if pid > 0 { kill(pid, SIGTERM) }
    }

    private func spawn() throws(FollowError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw .runtime("cannot make a pipe: \(Errno.current)") }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(helper), nil]
        defer { free(argv[0]) }
        var child: pid_t = 0
        let rc = posix_spawn(&child, helper, &actions, nil, &argv, environ)
        close(fds[1])
        guard rc == 0 else {
            close(fds[0])
            throw .runtime("cannot run \(helper): \(Errno(rawValue: rc))")
        }
        pid = child
        let output = FileDescriptor(rawValue: fds[0])
        try? output.setNonBlocking()
        self.output = output
        buffered = []
        ready = false
        outputWatch = FDWatch(fd: fds[0], condition: CGLIB_IO_IN | CGLIB_IO_ERR | CGLIB_IO_HUP) {
            [unowned self] _ in readOutput()
        }
        childWatch = ChildWatch(pid: child) { [unowned self] status in exited(status) }
    }

    /// Reads what the helper wrote; false (stop watching) at its end.
    private func readOutput() -> Bool {
        guard let output else { return false }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count: Int
            do { count = try output.read(into: &chunk, from: 0) } catch {
                if error.rawValue == EAGAIN { return true }
                break
            }
            if count == 0 { break }
            buffered += chunk[0..<count]
            while let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                handle(line)
            }
            if buffered.count > 65_536 { buffered = [] }
        }
        output.close()
        self.output = nil
        return false
    }

    /// One line of the helper's.
    func handle(_ line: String) {
        guard !ended else { return }
        if line == "ready" {
            ready = true
            if everReady { say("the compositor is back") }
            everReady = true
            retryDeadline?.cancel()
            retryDeadline = nil
            retryDelayMs = 100
            return
        }
        guard let view = Self.view(line) else { return }
        onFocus(view)
    }

    /// The view a line names: `activated FULLSCREEN MAXIMIZED APP_ID` or `none`; nil for another.
    static func view(_ line: String) -> FocusedView? {
        if line == "none" { return FocusedView.none }
        let words = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard words.count >= 3, words[0] == "activated", let full = Int(words[1]), let maximized = Int(words[2]) else { return nil }
        let id = words.count == 4 ? String(words[3]) : ""
        return FocusedView(reported: id, process: 0, fillsScreen: full != 0 || maximized != 0)
    }

    private func exited(_ status: Int32) {
        childWatch = nil
        pid = 0
        if output != nil { _ = readOutput() }
        outputWatch?.cancel()
        outputWatch = nil
        guard !ended else { return }
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
        switch code {
        case 3:
            end(.unsupported)
        case 4, 5:
            if ready { onFocus(.none) }
            ready = false
            waitForCompositor(lost: code == 5)
        default:
            end(.failed(code < 0 ? "\(helper) was killed by signal \(status & 0x7f)" : "\(helper) exited with status \(code)"))
        }
    }

    private func waitForCompositor(lost: Bool) {
        if retryDeadline == nil {
            say((lost ? "the compositor went away" : "no Wayland compositor yet")
                + "; waiting up to \(Self.reconnectWindowMs / 1000) s for it")
            retryDeadline = Timer(afterMs: Self.reconnectWindowMs) { [unowned self] in
                retry?.cancel()
                end(.failed("no Wayland compositor at $WAYLAND_DISPLAY for \(Self.reconnectWindowMs / 1000) s"))
            }
        }
        retry = Timer(afterMs: retryDelayMs) { [unowned self] in
            retry = nil
            retryDelayMs = min(retryDelayMs * 2, 2000)
            do throws(FollowError) { try spawn() } catch {
                if case .runtime(let message) = error { end(.failed(message)) } else { end(.failed("\(error)")) }
            }
        }
    }

    private func end(_ how: End) {
        guard !ended else { return }
        ended = true
        retryDeadline?.cancel()
        onEnd(how)
    }
}
