// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import Service
import TestSupport
import Configuration

// MARK: Signals

/// One signal as a client saw it.
struct SignalEvent: CustomStringConvertible {
    let path: String
    let interface: String
    let member: String
    let args: [Value]
    let time: Double
    /// The one client it was addressed to; nil when broadcast.
    var destination: String? = nil

    /// For PropertiesChanged: the changed properties by name.
    var changed: [String: Value] {
        guard member == "PropertiesChanged", args.count >= 2 else { return [:] }
        return args[1].stringKeyedDictionary ?? [:]
    }

    var uints: [UInt32] { args.compactMap(\.uint32Value) }

    /// A short form: `WillChange(1,3)`, `DeviceOrientationDidChange(3)`, `PC[DeviceOrientation,…]`.
    var description: String {
        if member == "PropertiesChanged" {
            return "PC(\(path.replacingOccurrences(of: Orientation1.managerPath, with: "~")))[" + changed.keys.sorted().joined(separator: ",") + "]"
        }
        return "\(member)(\(uints.map(String.init).joined(separator: ",")))"
    }
}

/// A client that records every signal under the manager's path, in arrival order.
final class SignalRecorder {
    /// The connection it listens on; nil on the embedded bus, where it observes the bus itself.
    let connection: Connection?
    private let embedded: (bus: EmbeddedBus, observer: Int)?
    private(set) var events: [SignalEvent] = []

    init(address: String) throws {
        let connection = try Connection(bus: .address(address))
        self.connection = connection
        embedded = nil
        try connection.addMatch("type='signal',path_namespace='\(Orientation1.managerPath)'")
        connection.onSignal { [unowned self] message in record(message) }
    }

    init(embedded bus: EmbeddedBus) {
        connection = nil
        var observer = 0
        weak var weakSelf: SignalRecorder?
        observer = bus.observeSignals { message in weakSelf?.record(message) }
        embedded = (bus, observer)
        weakSelf = self
    }

    private func record(_ message: Message) {
        guard let path = message.path, path.hasPrefix(Orientation1.managerPath) else { return }
        events.append(SignalEvent(path: path, interface: message.interface ?? "", member: message.member ?? "",
                                  args: (try? message.arguments()) ?? [], time: now(), destination: message.destination))
    }

    func clear() { events.removeAll() }

    /// Manager signals only (WillChange, DidChange, DeviceOrientationDidChange, the manager's PropertiesChanged).
    var managerEvents: [SignalEvent] { events.filter { $0.path == Orientation1.managerPath } }

    /// Index of the first event matching `predicate`.
    func index(_ predicate: (SignalEvent) -> Bool) -> Int? { events.firstIndex(where: predicate) }

    func count(_ member: String) -> Int { events.filter { $0.member == member }.count }

    /// Waits until an event matches.
    @discardableResult
    func wait(timeout: Double = 3, for predicate: (SignalEvent) -> Bool) -> Bool {
        waitUntil(timeout) { events.contains(where: predicate) }
    }

    /// Lets signals in flight arrive: a round trip through the bus and the daemon, then the loop.
    func settle() {
        _ = try? connection?.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: "org.freedesktop.DBus.Peer", method: "Ping")
        waitUntil(0.05) { false }
    }

    func close() {
        connection?.close()
        if let embedded { embedded.bus.removeObserver(embedded.observer) }
    }
}

// MARK: The test case base

/// Starts the service once per test with `--sensor simulated` and a fresh state dir: in this process on
/// an embedded bus when the class says `inProcess` (the rules, the announcements, the limits), else as
/// `orientationd` in the test's `World` (end to end), which checks that it ends with status 0 on SIGTERM.
class DaemonTestCase: EndToEndTestCase {
    /// Whether the service runs in this process, on an embedded bus, rather than as the daemon on a private one.
    class var inProcess: Bool { false }
    override class var startsWorld: Bool { !inProcess }
    /// The private bus, when the daemon runs out of process.
    var bus: PrivateBus! { world?.bus }
    /// The bus the service runs on in process.
    var embedded: EmbeddedBus!
    /// The service running in process.
    var inProcessDaemon: Daemon?
    var stateDir: String!
    /// The daemon running out of process; set to nil by a test that has seen to its end itself.
    var daemon: ChildProcess? {
        didSet { if let old = oldValue, old !== daemon { world?.forget(old) } }
    }
    var clients: [TestClient] = []
    var recorders: [SignalRecorder] = []
    /// A client for reading and for privileged calls (the tests run as root).
    var probe: TestClient!
    override var caller: TestClient { probe }
    /// The probe as a connection to the private bus, when the daemon runs out of process.
    var probeConnection: Connection { probe as! Connection }
    var scratch: String!

    /// Config file text for the daemon started in setUp, nil for none.
    var configText: String? { nil }
    var sensor: String { "simulated" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        if Self.inProcess {
            scratch = makeTempDirectory()
            embedded = EmbeddedBus()
            probe = EmbeddedBus.Client(on: embedded)
        } else {
            scratch = world.scratch
            probe = world.probe
        }
        stateDir = scratch + "/state"
        try startDaemon(config: configText, sensor: sensor)
    }

    override func tearDownWithError() throws {
        for recorder in recorders { recorder.close() }
        recorders = []
        for client in clients { client.close() }
        clients = []
        inProcessDaemon?.stop()
        inProcessDaemon = nil
        if Self.inProcess {
            probe?.close()
            if let scratch { _ = runTool(["rm", "-rf", scratch]) }
        }
        probe = nil
        try super.tearDownWithError()
    }

    /// Starts the daemon and waits for the well-known name to have an owner.
    func startDaemon(config: String? = nil, sensor: String = "simulated", extra: [String] = []) throws {
        var args: [String] = []
        if let config {
            let path = scratch + "/orientationd.conf"
            writeText(path, config)
            args += ["--config", path]
        }
        if Self.inProcess {
            // A handset's chassis, as World.startDaemon gives a daemon run as a program.
            let line = ["--sensor", sensor, "--state-dir", stateDir!, "--machine-info", handsetMachineInfo(in: scratch)] + args + extra
            guard case .run(let settings, _) = try DaemonCommandLine.parse(line) else {
                throw DBusError.failed("the daemon's command line \(line) does not run it")
            }
            inProcessDaemon = try Daemon(settings: settings, bus: embedded)
            return
        }
        daemon = try world.startDaemon(args + extra, sensor: sensor, stateDirectory: stateDir)
    }

    /// Stops the running daemon with `signal` and returns its exit code.
    @discardableResult
    func stopDaemon(_ signal: Int32 = SIGTERM) -> Int32 {
        if let running = inProcessDaemon {
            running.stop()
            inProcessDaemon = nil
            return 0
        }
        guard let daemon else { return -1 }
        self.daemon = nil
        // Waits until the bus has seen it go, so a successor can take the name.
        return world.stop(daemon, signal, releasing: Orientation1.busName)
    }

    /// A new long-lived client (one simulated app), closed in tearDown.
    func newClient() throws -> TestClient {
        let c: TestClient = Self.inProcess ? EmbeddedBus.Client(on: embedded) : try Connection(bus: .address(bus.address))
        clients.append(c)
        return c
    }

    /// Sends a call from the probe without waiting for its answer, so the test's loop is waiting when
    /// what it causes arrives.
    func send(_ path: String, _ iface: String, _ method: String, _ values: [Value]) throws {
        if Self.inProcess {
            try embedded.send(from: probe.uniqueName, path: path, interface: iface, method: method, values: values)
        } else {
            probeConnection.call(destination: Orientation1.busName, path: path, interface: iface, method: method,
                                 values: values, timeoutMs: -1) { _ in }
        }
    }

    /// A new connection to the private bus, for what only a real connection does (match rules,
    /// calls without waiting); the daemon runs out of process then.
    func newConnection() throws -> Connection {
        let c = try Connection(bus: .address(bus.address))
        clients.append(c)
        return c
    }

    func newRecorder() throws -> SignalRecorder {
        let r = Self.inProcess ? SignalRecorder(embedded: embedded) : try SignalRecorder(address: bus.address)
        recorders.append(r)
        return r
    }

    // MARK: Typed properties

    func u(_ property: String, _ path: String = Orientation1.managerPath) throws -> UInt32 {
        let v = try get(property, path)
        guard let n = v.uint32Value else { throw DBusError.failed("\(property) is \(v), not u") }
        return n
    }

    func o(_ property: String, _ path: String = Orientation1.managerPath) throws -> String {
        let v = try get(property, path)
        guard let p = v.objectPathValue else { throw DBusError.failed("\(property) is \(v), not o") }
        return p
    }

    func b(_ property: String, _ path: String = Orientation1.managerPath) throws -> Bool {
        let v = try get(property, path)
        guard let x = v.boolValue else { throw DBusError.failed("\(property) is \(v), not b") }
        return x
    }

    // MARK: Building hierarchies (as an app would)

    func registerWindow(_ c: TestClient) throws -> String {
        guard let p = try call(c, Orientation1.managerPath, Orientation1.managerInterface, "RegisterWindow").first?.objectPathValue else {
            throw DBusError.failed("RegisterWindow returned no path")
        }
        return p
    }

    func createController(_ c: TestClient, _ kind: String = "view", mask: UInt32? = nil, preferred: UInt32? = nil,
                          autorotate: Bool? = nil) throws -> String {
        guard let p = try call(c, Orientation1.managerPath, Orientation1.managerInterface, "CreateController", [.string(kind)]).first?.objectPathValue else {
            throw DBusError.failed("CreateController returned no path")
        }
        if let mask { try set("SupportedMask", .uint32(mask), p, on: c) }
        if let preferred { try set("PreferredOrientation", .uint32(preferred), p, on: c) }
        if let autorotate { try set("ShouldAutorotate", .bool(autorotate), p, on: c) }
        return p
    }

    func setRoot(_ c: TestClient, _ window: String, _ controller: String) throws {
        try set("RootController", .objectPath(controller), window, on: c)
    }

    func ctl(_ c: TestClient, _ controller: String, _ method: String, _ values: [Value] = []) throws -> [Value] {
        try call(c, controller, Orientation1.controllerInterface, method, values)
    }

    /// Claims device orientation notifications for `c` (P16).
    func claim(_ c: TestClient) throws { try call(c, Orientation1.managerPath, Orientation1.managerInterface, "BeginGeneratingDeviceOrientationNotifications") }

    /// Runs a D-Bus tool against the private bus.
    func tool(_ argv: [String]) -> ToolResult { runTool(argv) }

    func busctl(_ args: [String]) -> ToolResult { runTool(["busctl", "--address=\(bus.address)"] + args) }

    /// The object paths `busctl tree` shows for the service, one per line; in process, the same
    /// walk of `Introspect` the tool makes.
    func tree() -> String {
        guard Self.inProcess else { return busctl(["tree", "--list", Orientation1.busName]).stdout }
        var paths: [String] = []
        var pending = ["/"]
        while let path = pending.popLast() {
            paths.append(path)
            guard let xml = try? call(nil, path, "org.freedesktop.DBus.Introspectable", "Introspect").first?.stringValue else { continue }
            for part in xml.components(separatedBy: "<node name=\"").dropFirst() {
                let name = part.prefix { $0 != "\"" }
                pending.append(path == "/" ? "/\(name)" : "\(path)/\(name)")
            }
        }
        return paths.sorted().map { $0 + "\n" }.joined()
    }
}
