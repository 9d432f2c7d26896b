@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import Service
import TestSupport
import Configuration

/// `org.freedesktop.DBus.Error.NAME`.
func std(_ name: String) -> String { "org.freedesktop.DBus.Error." + name }

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

/// A client of the service under test: a connection to the private bus, or a client of the embedded one.
protocol TestClient: AnyObject {
    var uniqueName: String { get }
    func callBlocking(destination: String?, path: String, interface: String?, method: String, values: [Value],
                      timeoutMs: Int32) throws(DBusError) -> [Value]
    func close()
}

extension Connection: TestClient {}
extension EmbeddedBus.Client: TestClient {}

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
/// `orientationd` on a private dbus-daemon (end to end), checking in tearDown that it ends with status
/// 0 on SIGTERM.
class DaemonTestCase: XCTestCase {
    /// Whether the service runs in this process, on an embedded bus, rather than as the daemon on a private one.
    class var inProcess: Bool { false }
    var bus: PrivateBus!
    /// The bus the service runs on in process.
    var embedded: EmbeddedBus!
    /// The service running in process.
    var inProcessDaemon: Daemon?
    var stateDir: String!
    var daemon: DaemonProcess?
    var clients: [TestClient] = []
    var recorders: [SignalRecorder] = []
    /// A client for reading and for privileged calls (the tests run as root).
    var probe: TestClient!
    /// The probe as a connection to the private bus, when the daemon runs out of process.
    var probeConnection: Connection { probe as! Connection }
    var scratch: String!

    /// Config file text for the daemon started in setUp, nil for none.
    var configText: String? { nil }
    var sensor: String { "simulated" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        scratch = makeTempDirectory()
        stateDir = scratch + "/state"
        if Self.inProcess {
            embedded = EmbeddedBus()
            probe = EmbeddedBus.Client(on: embedded)
        } else {
            bus = try PrivateBus()
            probe = try Connection(bus: .address(bus.address))
        }
        try startDaemon(config: configText, sensor: sensor)
    }

    override func tearDownWithError() throws {
        for recorder in recorders { recorder.close() }
        recorders = []
        for client in clients { client.close() }
        clients = []
        if let daemon {
            let running = daemon.isRunning
            let code = daemon.stop(SIGTERM)
            if running {
                XCTAssertEqual(code, 0, "orientationd did not exit 0 on SIGTERM; log:\n\(daemon.log)")
            } else {
                XCTFail("orientationd was no longer running at tearDown (status \(code)); log:\n\(daemon.log)")
            }
        }
        daemon = nil
        inProcessDaemon?.stop()
        inProcessDaemon = nil
        probe?.close()
        probe = nil
        bus?.stop()
        bus = nil
        if let scratch { _ = runTool(["rm", "-rf", scratch]) }
        try super.tearDownWithError()
    }

    /// Starts the daemon and waits for the well-known name to have an owner.
    func startDaemon(config: String? = nil, sensor: String = "simulated", extra: [String] = []) throws {
        var args = ["--sensor", sensor, "--state-dir", stateDir!]
        if let config {
            let path = scratch + "/orientationd.conf"
            writeText(path, config)
            args += ["--config", path]
        }
        if Self.inProcess {
            guard case .run(let settings, _) = try DaemonCommandLine.parse(args + extra) else {
                throw DBusError.failed("the daemon's command line \(args + extra) does not run it")
            }
            inProcessDaemon = try Daemon(settings: settings, bus: embedded)
            return
        }
        args = ["--address", bus.address] + args
        let process = try DaemonProcess(arguments: args + extra, logPath: scratch + "/daemon.log")
        daemon = process
        let up = waitUntil(5) {
            guard process.isRunning else { return true }
            let owned = try? probeConnection.callBusDriverBlocking("NameHasOwner", [.string(Orientation1.busName)])
            if owned?.first?.boolValue == true { return true }
            usleep(10_000)
            return false
        }
        guard up, process.isRunning else {
            throw DBusError.failed("orientationd did not come up; log:\n\(process.log)")
        }
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
        let code = daemon.stop(signal)
        // Wait until the bus has seen it go, so a successor can take the name.
        waitUntil(3) {
            let owned = try? probeConnection.callBusDriverBlocking("NameHasOwner", [.string(Orientation1.busName)])
            return owned?.first?.boolValue == false
        }
        return code
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

    // MARK: Calls and properties

    @discardableResult
    func call(_ c: TestClient? = nil, _ path: String = Orientation1.managerPath, _ iface: String = Orientation1.managerInterface,
              _ method: String, _ values: [Value] = []) throws -> [Value] {
        try (c ?? probe).callBlocking(destination: Orientation1.busName, path: path, interface: iface, method: method,
                                      values: values, timeoutMs: 5000)
    }

    func get(_ property: String, _ path: String = Orientation1.managerPath, _ iface: String? = nil, on c: TestClient? = nil) throws -> Value {
        let interface = iface ?? defaultInterface(path)
        let reply = try call(c, path, StandardInterface.properties, "Get", [.string(interface), .string(property)])
        guard let v = reply.first else { throw DBusError.failed("Get \(property) returned nothing") }
        return v.variantValue ?? v
    }

    func set(_ property: String, _ value: Value, _ path: String = Orientation1.managerPath, _ iface: String? = nil, on c: TestClient? = nil) throws {
        let interface = iface ?? defaultInterface(path)
        try call(c, path, StandardInterface.properties, "Set", [.string(interface), .string(property), .variant(value)])
    }

    func getAll(_ path: String = Orientation1.managerPath, _ iface: String? = nil) throws -> [String: Value] {
        let reply = try call(nil, path, StandardInterface.properties, "GetAll", [.string(iface ?? defaultInterface(path))])
        return reply.first?.stringKeyedDictionary ?? [:]
    }

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

    func defaultInterface(_ path: String) -> String {
        if path.contains("/window/") { return Orientation1.windowInterface }
        if path.contains("/controller/") { return Orientation1.controllerInterface }
        return Orientation1.managerInterface
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

    /// `SetDeviceOrientation(d)` by the (privileged) probe.
    func setDevice(_ d: UInt32) throws { try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "SetDeviceOrientation", [.uint32(d)]) }

    // MARK: Errors

    /// Asserts that `body` fails with the D-Bus error `name`; returns the message.
    @discardableResult
    func assertError(_ name: String, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) -> String {
        do {
            try body()
            XCTFail("expected \(name), but the call succeeded", file: file, line: line)
        } catch let error as DBusError {
            XCTAssertEqual(error.name, name, "message: \(error.message)", file: file, line: line)
            XCTAssertFalse(error.message.isEmpty, "an error must explain itself", file: file, line: line)
            return error.message
        } catch {
            XCTFail("expected \(name), got \(error)", file: file, line: line)
        }
        return ""
    }

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
