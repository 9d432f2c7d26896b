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
    /// Whether the helper also reads and turns the outputs (`--outputs`: wlroots' output management).
    public var turnsOutputs = false
    /// Every head the compositor has, after each change it completes; `[]` when it went away.
    public var onOutputs: ([OutputHead]) -> Void = { _ in }
    /// A turn the helper applied (true) or the compositor refused (false): the head and its transform.
    public var onTurn: (String, UInt32, Bool) -> Void = { _, _, _ in }

    private var pid: pid_t = 0
    private var output: FileDescriptor?
    /// The helper's standard input, with `turnsOutputs`.
    private var input: FileDescriptor?
    private var saidNoToplevels = false
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
        let executable = FileSystem.linkTarget("/proc/self/exe") ?? ""
        let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let beside = directory + "/orientationd-toplevels"
        if FileSystem.executionError(beside) == nil { return beside }
        let parent = directory.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return parent + "/libexec/orientationd-toplevels"
    }

    /// Starts the helper; an error when it cannot run at all.
    public func start() throws(FollowError) {
        if let error = FileSystem.executionError(helper) {
            throw .runtime("cannot run \(helper): \(error); it is installed with orientationctl (libexec)")
        }
        try spawn()
    }

    /// Stops the helper, reporting nothing more.
    public func stop() {
        ended = true
        input?.close()
        input = nil
        retry?.cancel()
        retryDeadline?.cancel()
        outputWatch?.cancel()
        if pid > 0 { ProcessCalls.terminate(pid) }
    }

    /// Sends a command line to the helper (`turn NAME TRANSFORM`); dropped while it is not running.
    public func send(_ line: String) {
        guard let input else { return }
        // A helper that has just gone fails the write with EPIPE (SIGPIPE is ignored once outputs are turned).
        _ = try? input.write(Array((line + "\n").utf8))
    }

    private func spawn() throws(FollowError) {
        let started: Subprocess.Child
        if turnsOutputs { signal(SIGPIPE, SIG_IGN) }
        do {
            started = try Subprocess.spawn(turnsOutputs ? [helper, "--outputs"] : [helper], input: turnsOutputs ? .pipe : .null,
                                           output: .pipe)
        } catch {
            throw .runtime("cannot run \(helper): \(error)")
        }
        input?.close()
        input = started.input
        let child = started.pid
        guard let output = started.output else { throw .runtime("cannot run \(helper): no pipe for its output") }
        pid = child
        try? output.setNonBlocking()
        self.output = output
        buffered = []
        ready = false
        outputWatch = FDWatch(fd: output.rawValue, condition: CGLIB_IO_IN | CGLIB_IO_ERR | CGLIB_IO_HUP) {
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
        if line == "no-toplevels" {
            if !saidNoToplevels { say("the compositor offers no foreign-toplevel protocol: the application in front is not reported") }
            saidNoToplevels = true
            return
        }
        if let heads = Self.heads(line) { return onOutputs(heads) }
        let words = line.split(separator: " ")
        if words.count == 3, words[0] == "turned" || words[0] == "turn-failed", let transform = UInt32(words[2]) {
            return onTurn(String(words[1]), transform, words[0] == "turned")
        }
        guard let view = Self.view(line) else { return }
        onFocus(view)
    }

    /// The heads of an `outputs NAME=ENABLED,TRANSFORM ...` line; nil for another line.
    static func heads(_ line: String) -> [OutputHead]? {
        let words = line.split(separator: " ")
        guard words.first == "outputs" else { return nil }
        return words.dropFirst().compactMap { word in
            let parts = word.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let values = parts[1].split(separator: ",")
            guard values.count == 2, let enabled = Int(values[0]), let transform = UInt32(values[1]) else { return nil }
            return OutputHead(name: String(parts[0]), enabled: enabled != 0, transform: transform)
        }
    }

    /// The view a line names: `activated FULLSCREEN MAXIMIZED APP_ID` or `none`; nil for another.
    static func view(_ line: String) -> FocusedView? {
        if line == "none" { return FocusedView.none }
        let words = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard words.count >= 3, words[0] == "activated", let full = Int(words[1]), let maximized = Int(words[2]) else { return nil }
        let id = words.count == 4 ? String(words[3]) : ""
        return FocusedView(reported: id, process: 0, fillsScreen: full != 0 || maximized != 0)
    }

    /// The helper's own exit codes, as `wayland/toplevels.c` names them.
    enum HelperExit: Int32 {
        /// `EXIT_NO_PROTOCOL`: the compositor has no foreign-toplevel protocol.
        case noProtocol = 3
        /// `EXIT_NO_COMPOSITOR`: no compositor at `$WAYLAND_DISPLAY`.
        case noCompositor = 4
        /// `EXIT_LOST`: the compositor went away.
        case lost = 5
    }

    private func exited(_ status: Int32) {
        childWatch = nil
        pid = 0
        if output != nil { _ = readOutput() }
        outputWatch?.cancel()
        outputWatch = nil
        guard !ended else { return }
        switch Subprocess.exitCode(status).flatMap(HelperExit.init(rawValue:)) {
        case .noProtocol:
            end(.unsupported)
        case .noCompositor, .lost:
            input?.close()
            input = nil
            if turnsOutputs { onOutputs([]) }
            if ready { onFocus(.none) }
            ready = false
            waitForCompositor(lost: Subprocess.exitCode(status) == HelperExit.lost.rawValue)
        case nil:
            end(.failed(Subprocess.signal(status).map { "\(helper) was killed by signal \($0)" }
                ?? "\(helper) exited with status \(Subprocess.exitCode(status) ?? 0)"))
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
