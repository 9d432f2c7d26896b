// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import DBus
import SystemCalls
import EventLoop
import Orientation

/// `follow sway`: turns one of sway's outputs with the interface orientation, maps touchscreens and
/// tablets to it, and with `focus` reports the focused view's application id and process.
///
/// When the IPC socket closes without sway announcing its shutdown (a crash, a restart), it waits
/// up to `reconnectWindow` for sway to listen again, at `$SWAYSOCK` or at the newest
/// `sway-ipc.*.sock` in `$XDG_RUNTIME_DIR`, and then shows the orientation again. A shutdown
/// announced by sway, or no sway within the window, is the compositor gone for good.
public final class SwayScreen: Screen {
    public struct Options {
        public var socketPath: String
        /// nil: the built-in panel (eDP, LVDS, DSI), else the first active output.
        public var output: String?
        public var mapsTouch = true
        public var reportsFocus = false

        public init(socketPath: String, output: String?, mapsTouch: Bool, reportsFocus: Bool) {
            self.socketPath = socketPath
            self.output = output
            self.mapsTouch = mapsTouch
            self.reportsFocus = reportsFocus
        }
    }

    static let reconnectWindowMs: UInt32 = 10_000

    let options: Options
    /// Called with each focused view's application and process (none when no view has the focus),
    /// when `reportsFocus`.
    public var onFocus: (FocusedView) -> Void = { _ in }
    /// Called when sway is gone for good.
    public var onGone: (FollowError) -> Void = { _ in }

    private var ipc: SwayIPC?
    private var socketPath: String
    private var output: String?
    private var wanted: InterfaceOrientation?
    private var retry: Timer?
    private var retryDeadline: Timer?
    private var retryDelayMs: UInt32 = 100

    public init(options: Options) {
        self.options = options
        socketPath = options.socketPath
    }

    /// Connects for the first time; a sway that is not there at start is an error.
    public func start() throws(FollowError) {
        try connect(to: socketPath)
    }

    public func show(_ orientation: InterfaceOrientation) {
        wanted = orientation
        apply()
    }

    // MARK: Connecting

    private func connect(to path: String) throws(FollowError) {
        let ipc = try SwayIPC(path: path)
        self.ipc = ipc
        socketPath = path
        ipc.onClosed = { [unowned self] reason in lost(reason) }
        ipc.onEvent = { [unowned self] type, payload in event(type, payload) }
        if let name = options.output {
            output = name
            prepareOutput()
        } else {
            ipc.send(.getOutputs) { [unowned self] reply in
                guard let outputs = reply?.arrayValue else { return }
                guard let chosen = Self.builtInOutput(outputs) else {
                    return onGone(.runtime("sway reports no active output to rotate; name one with --output"))
                }
                if output != chosen { say("rotating sway's output \(chosen)") }
                output = chosen
                prepareOutput()
            }
        }
        if options.reportsFocus {
            ipc.send(.subscribe, #"["window","workspace","shutdown"]"#) { reply in
                if reply?["success"]?.boolValue != true { say("sway refused the window event subscription") }
            }
            queryFocus()
        } else {
            ipc.send(.subscribe, #"["shutdown"]"#)
        }
    }

    /// The output to rotate by default: the first built-in panel, else the first active output.
    static func builtInOutput(_ outputs: [JSON]) -> String? {
        let active = outputs.filter { $0["active"]?.boolValue != false }.compactMap { $0["name"]?.stringValue }
        return active.first { name in ["eDP", "LVDS", "DSI"].contains { name.hasPrefix($0) } } ?? active.first
    }

    /// Once the output is known: map the inputs to it and show the orientation.
    private func prepareOutput() {
        guard let output, let ipc else { return }
        if options.mapsTouch {
            let target = Self.quoted(output)
            ipc.run("input type:touch map_to_output \(target); input type:tablet_tool map_to_output \(target)") { error in
                if let error { say("sway did not map touchscreens and tablets to \(output): \(error)") }
            }
        }
        apply()
    }

    private func apply() {
        guard let ipc, let output, let orientation = wanted, let transform = orientation.swayTransform else { return }
        ipc.run("output \(Self.quoted(output)) transform \(transform)") { error in
            if let error { say("sway did not turn \(output) to \(orientation.name) (transform \(transform)): \(error)") }
        }
    }

    /// A sway command argument in double quotes, so any output name passes as one word.
    static func quoted(_ word: String) -> String {
        "\"" + word.replacingEvery("\\", with: "\\\\").replacingEvery("\"", with: "\\\"") + "\""
    }

    // MARK: Events

    private func event(_ type: UInt32, _ payload: JSON?) {
        switch SwayIPC.Event(rawValue: type) {
        case .shutdown:
            ipc?.shut()
            ipc = nil
            onGone(.runtime("sway is shutting down; nothing left to rotate"))
        case .window where payload?["change"]?.stringValue == "focus":
            onFocus(FocusedView(sway: payload?["container"]))
        case .window where payload?["change"]?.stringValue == "fullscreen_mode"
                && payload?["container"]?["focused"]?.boolValue == true:
            onFocus(FocusedView(sway: payload?["container"]))
        case .window where payload?["change"]?.stringValue == "close":
            queryFocus()
        case .workspace where payload?["change"]?.stringValue == "focus":
            queryFocus()
        default:
            break
        }
    }

    /// Asks for the tree and reports the focused view, none when no view is focused.
    private func queryFocus() {
        ipc?.send(.getTree) { [unowned self] reply in
            guard let tree = reply else { return }
            onFocus(FocusedView(sway: Self.focusedNode(tree)))
        }
    }

    static func focusedNode(_ node: JSON) -> JSON? {
        if node["focused"]?.boolValue == true { return node }
        for key in ["nodes", "floating_nodes"] {
            for child in node[key]?.arrayValue ?? [] {
                if let found = focusedNode(child) { return found }
            }
        }
        return nil
    }

    // MARK: Losing sway

    private func lost(_ reason: String) {
        ipc = nil
        say("\(reason); waiting up to \(Self.reconnectWindowMs / 1000) s for sway to come back")
        retryDelayMs = 100
        retryDeadline = Timer(afterMs: Self.reconnectWindowMs) { [unowned self] in
            retry?.cancel()
            retry = nil
            onGone(.runtime("sway is gone: nothing listens at \(socketPath) any more"))
        }
        scheduleRetry()
    }

    private func scheduleRetry() {
        retry = Timer(afterMs: retryDelayMs) { [unowned self] in
            retry = nil
            for path in Self.candidateSockets(first: socketPath) {
                do {
                    try connect(to: path)
                    retryDeadline?.cancel()
                    retryDeadline = nil
                    say("sway is back at \(path)")
                    return
                } catch {
                    continue
                }
            }
            retryDelayMs = min(retryDelayMs * 2, 2000)
            scheduleRetry()
        }
    }

    /// Where a sway of this user may listen: the socket it had, then the newest in the runtime directory.
    static func candidateSockets(first: String) -> [String] {
        var paths = [first]
        guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }) else { return paths }
        var found: [(String, Int)] = []
        for name in FileSystem.list(runtime) where name.hasPrefix("sway-ipc.") && name.hasSuffix(".sock") {
            guard let info = FileSystem.status(runtime + "/" + name) else { continue }
            found.append((runtime + "/" + name, Int(info.st_mtim.tv_sec)))
        }
        paths += found.sorted { $0.1 > $1.1 }.map(\.0).filter { $0 != first }
        return paths
    }
}
