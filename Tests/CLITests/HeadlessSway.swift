// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import TestSupport

/// A real sway on the headless wlroots backend, for the tests of `orientationctl follow sway`.
///
/// sway refuses to run as root, so under root (CI) it runs as an unprivileged user created on
/// first use, with its own `XDG_RUNTIME_DIR`; the Wayland clients of the tests run as that user
/// too, which also makes them unprivileged orientationd clients. The test process, root, reaches
/// sway's sockets all the same.
final class HeadlessSway {
    /// The user sway and the test's Wayland clients run as, when the tests run as root.
    static let userName = "swaytest"

    let runtimeDirectory: String
    let logPath: String
    let configPath: String
    /// The uid and gid sway runs as; nil when it runs as the test's own user.
    let user: (uid: uid_t, gid: gid_t)?
    private(set) var process: Background?
    private(set) var socketPath = ""
    private(set) var waylandDisplay = ""
    private var generation = 0

    /// Why sway cannot run here, or nil when it can. Only a missing sway counts: a sway that is
    /// installed but does not start is a failure, not a skip.
    static var unavailability: String? {
        for tool in ["sway", "swaymsg"] where !toolExists(tool) {
            return "\(tool) is not installed (scripts/install-deps installs it)"
        }
        if getuid() == 0, !toolExists("setpriv") { return "setpriv is not installed (util-linux)" }
        return nil
    }

    /// Starts sway with one 800×600 output, HEADLESS-1, and waits until its IPC answers.
    init(scratch: String) throws {
        user = getuid() == 0 ? try Self.unprivilegedUser() : nil
        var template = Array("/tmp/sway-run-XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template) else { throw HarnessError("mkdtemp failed") }
        runtimeDirectory = String(cString: dir)
        if let user { chown(runtimeDirectory, user.uid, user.gid) }
        chmod(runtimeDirectory, 0o700)
        logPath = scratch + "/sway.log"
        configPath = runtimeDirectory + "/config"
        // Xwayland is not needed, and is not installed on a minimal machine.
        writeText(configPath, "output HEADLESS-1 mode 800x600\nxwayland disable\n")
        if let user { chown(configPath, user.uid, user.gid) }
        try start()
    }

    /// Starts (or starts again, after `crash()`) sway in the same runtime directory.
    func start() throws {
        generation += 1
        let environment = ["HOME=\(runtimeDirectory)", "XDG_RUNTIME_DIR=\(runtimeDirectory)", "WLR_BACKENDS=headless",
                           "WLR_RENDERER=pixman", "WLR_LIBINPUT_NO_DEVICES=1", "PATH=/usr/bin:/bin"]
        // -V logs each IPC command as sway handles it ("Handling command '…'"), which the tests read.
        let sway = try Background(asUser(["env", "-i"] + environment + ["sway", "-V", "-c", configPath]),
                                  in: dirname(logPath), name: "sway-\(generation)")
        process = sway
        let up = waitUntil(15) {
            guard sway.isRunning else { return true }
            guard let socket = self.entries(prefix: "sway-ipc.").first(where: { $0.hasSuffix(".sock") }),
                  let display = self.entries(prefix: "wayland-").first(where: { !$0.hasSuffix(".lock") })
            else { return false }
            self.socketPath = self.runtimeDirectory + "/" + socket
            self.waylandDisplay = display
            return self.swaymsg(["-t", "get_outputs"]).status == 0
        }
        guard up, sway.isRunning else {
            sway.kill9()
            throw HarnessError("headless sway did not start:\n\(sway.stderr)")
        }
    }

    /// The log of the sway started last (stderr, where `-V` writes).
    var log: String { process?.stderr ?? "" }

    /// Runs swaymsg against this sway.
    func swaymsg(_ arguments: [String]) -> ToolResult {
        runTool(["swaymsg", "-s", socketPath] + arguments, timeoutMs: 5000)
    }

    /// Each output's name and transform, as `swaymsg -t get_outputs` reports them.
    func transforms() -> [String: String] {
        let result = swaymsg(["-r", "-t", "get_outputs"])
        guard result.status == 0, let outputs = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
        else { return [:] }
        var found: [String: String] = [:]
        for output in outputs {
            if let name = output["name"] as? String { found[name] = output["transform"] as? String ?? "?" }
        }
        return found
    }

    /// HEADLESS-1's transform.
    var transform: String? { transforms()["HEADLESS-1"] }

    /// The pid of the view that has the keyboard focus, from `swaymsg -t get_tree`; nil when none.
    func focusedPid() -> Int32? {
        let result = swaymsg(["-r", "-t", "get_tree"])
        guard result.status == 0, let tree = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        else { return nil }
        func search(_ node: [String: Any]) -> Int32? {
            if node["focused"] as? Bool == true { return (node["pid"] as? NSNumber)?.int32Value }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [[String: Any]] ?? [] { if let pid = search(child) { return pid } }
            }
            return nil
        }
        return search(tree)
    }

    /// The environment sway's own children would get, for `follow sway` and Wayland clients.
    var clientEnvironment: [String] {
        ["XDG_RUNTIME_DIR=\(runtimeDirectory)", "WAYLAND_DISPLAY=\(waylandDisplay)", "SWAYSOCK=\(socketPath)",
         "HOME=\(runtimeDirectory)"]
    }

    /// A GTK window from python3-gi titled `title`, on this sway, registered with orientationd on
    /// `busAddress` with `mask` as its window's `DelegateMask`; with mask 0 an unmodified application
    /// that registers no window. `appID` becomes its Wayland app_id. Returns once it is mapped.
    func startClient(title: String, mask: UInt32, busAddress: String, scratch: String, appID: String? = nil) throws -> FocusClient {
        // In sway's runtime directory, which its user may read.
        let script = runtimeDirectory + "/focus-client.py"
        if access(script, R_OK) != 0 {
            writeText(script, focusClientScript)
            if let user { chown(script, user.uid, user.gid) }
        }
        let environment = clientEnvironment + ["GDK_BACKEND=wayland", "NO_AT_BRIDGE=1", "GSETTINGS_BACKEND=memory",
                                               "PATH=/usr/bin:/bin"]
        let client = try Background(asUser(["env", "-i"] + environment + ["python3", script, busAddress, title, String(mask)] + (appID.map { [$0] } ?? [])),
                                    in: scratch, name: "client-\(title)")
        guard waitUntil(20, { !client.isRunning || client.stdout.hasPrefix("ready ") }), client.isRunning else {
            client.kill9()
            throw HarnessError("the GTK client \(title) did not start:\n\(client.stderr)")
        }
        let words = client.stdout.split(separator: "\n")[0].split(separator: " ")
        guard words.count == 3, let pid = Int32(words[1]) else { throw HarnessError("unexpected client output: \(client.stdout)") }
        // GTK reports the window mapped before sway has shown it; sway focuses a new view when it
        // maps it, so wait for that, or the view could take the focus after the test has moved it.
        guard waitUntil(10, { self.focusedPid() == pid }) else {
            throw HarnessError("sway did not show and focus the window of \(title) (pid \(pid)):\n\(client.stderr)")
        }
        return FocusClient(process: client, pid: pid, windowPath: String(words[2]), title: title)
    }

    /// Kills sway at once, as a crash would.
    func crash() {
        process?.kill9()
        for entry in entries(prefix: "sway-ipc.") + entries(prefix: "wayland-") { unlink(runtimeDirectory + "/" + entry) }
    }

    /// Ends sway and removes its runtime directory.
    func stop() {
        process?.signal(SIGTERM)
        if process?.waitForExit(timeout: 5) == nil { process?.kill9() }
        _ = runTool(["rm", "-rf", runtimeDirectory])
    }

    deinit { stop() }

    // MARK: Helpers

    /// `argv` run as the unprivileged user when the tests run as root.
    func asUser(_ argv: [String]) -> [String] {
        guard let user else { return argv }
        return ["/usr/bin/setpriv", "--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups"] + argv
    }

    private func entries(prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// The test user, created when missing (CI starts from a fresh machine).
    private static func unprivilegedUser() throws -> (uid: uid_t, gid: gid_t) {
        if let entry = getpwnam(userName) { return (entry.pointee.pw_uid, entry.pointee.pw_gid) }
        let made = runTool(["useradd", "--system", "--user-group", "--no-create-home", "--home-dir", "/nonexistent",
                            "--shell", "/usr/sbin/nologin", userName])
        // Another test run may have created it meanwhile.
        guard let entry = getpwnam(userName) else {
            throw HarnessError("cannot create the user \(userName) to run sway as: \(made.stderr)")
        }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }
}

/// One GTK window of `HeadlessSway.startClient`.
struct FocusClient {
    let process: Background
    let pid: Int32
    let windowPath: String
    let title: String

    /// Asks the client to call `MakeKeyAndVisible` on its window; returns its answer line
    /// (`ok` or `error NAME MESSAGE`).
    func makeKeyAndVisible() -> String {
        let before = process.stdout.split(separator: "\n").count
        kill(process.pid, SIGUSR1)
        var answer = ""
        waitUntil(10) {
            let lines = process.stdout.split(separator: "\n")
            guard lines.count > before else { return false }
            answer = String(lines[before])
            return true
        }
        return answer
    }
}

/// A harness failure with a message.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
