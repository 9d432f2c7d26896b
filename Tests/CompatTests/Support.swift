@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

// Helpers for the net.hadess.SensorProxy compatibility tests: the built daemon and other
// programs (monitor-sensor, a Python GIO client) run as child processes on a private bus.

func pause(_ seconds: Double) { waitUntil(seconds) { false } }

/// A child process with stdout and stderr in one file, an optional stdin pipe and extra
/// environment variables (e.g. `DBUS_SYSTEM_BUS_ADDRESS` pointing at the private bus).
final class Child {
    let pid: pid_t
    let outputPath: String
    private var stdinFD: Int32 = -1
    private(set) var exitStatus: Int32?

    init(_ argv: [String], output: String, environment: [String: String] = [:], stdinPipe: Bool = false) throws {
        outputPath = output
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var fds: [Int32] = [-1, -1]
        if stdinPipe {
            guard pipe(&fds) == 0 else { throw DBusError.failed("pipe failed") }
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
            posix_spawn_file_actions_addclose(&actions, fds[0])
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var env: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            let key = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            if environment[key] == nil { env.append(text) }
            index += 1
        }
        env += environment.map { "\($0.key)=\($0.value)" }
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnv: [UnsafeMutablePointer<CChar>?] = env.map { strdup($0) } + [nil]
        defer { for a in cArgs { free(a) }; for e in cEnv { free(e) } }
        var p: pid_t = 0
        let rc = posix_spawnp(&p, argv[0], &actions, nil, &cArgs, &cEnv)
        if stdinPipe { close(fds[0]) }
        guard rc == 0 else {
            if stdinPipe { close(fds[1]) }
            throw DBusError.failed("cannot spawn \(argv[0]): \(String(cString: strerror(rc)))")
        }
        pid = p
        stdinFD = stdinPipe ? fds[1] : -1
    }

    deinit {
        if isRunning { _ = stop(SIGKILL) }
        if stdinFD >= 0 { close(stdinFD) }
    }

    /// What it has printed so far.
    var output: String { readText(outputPath) }

    /// Writes a line to its stdin.
    func send(_ line: String) {
        guard stdinFD >= 0 else { return }
        let text = line + "\n"
        _ = text.withCString { write(stdinFD, $0, strlen($0)) }
    }

    /// Whether it still runs (reaps it when it does not).
    var isRunning: Bool {
        if exitStatus != nil { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status; return false }
        return true
    }

    /// Sends `signal`, waits up to `timeout` s while the main loop runs; returns the exit code, or
    /// -signal when killed by a signal, -999 when it had to be killed.
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM, timeout: Double = 5) -> Int32 {
        if isRunning { kill(pid, signal) }
        waitUntil(timeout) { !isRunning }
        if isRunning {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            exitStatus = status
            return -999
        }
        return Child.code(exitStatus!)
    }

    /// Waits up to `timeout` s for it to end on its own; returns its exit code, nil when it still runs.
    func wait(timeout: Double) -> Int32? {
        waitUntil(timeout) { !isRunning }
        return exitStatus.map(Child.code)
    }

    static func code(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
    }
}

/// A private bus, a probe connection (privileged: the tests run as root, or as the daemon's uid),
/// and any number of daemons and children, all stopped in tearDown.
class CompatTestCase: XCTestCase {
    var bus: PrivateBus!
    var probe: Connection!
    var scratch: String!
    var children: [Child] = []
    var clients: [Connection] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        bus = try PrivateBus()
        scratch = makeTempDirectory()
        probe = try Connection(bus: .address(bus.address))
    }

    override func tearDownWithError() throws {
        for child in children.reversed() where child.isRunning { child.stop(SIGTERM) }
        children = []
        for client in clients { client.close() }
        clients = []
        probe?.close()
        probe = nil
        bus?.stop()
        bus = nil
        if let scratch { _ = runTool(["rm", "-rf", scratch]) }
        try super.tearDownWithError()
    }

    /// Starts `orientationd --address BUS --sensor simulated --state-dir … EXTRA` and, when `waitFor`
    /// is given, waits until that name has an owner (or the daemon has exited).
    @discardableResult
    func startDaemon(_ extra: [String], name: String = "daemon", waitFor: String? = Orientation1.busName,
                     environment: [String: String] = [:]) throws -> Child {
        let state = scratch + "/\(name)-state"
        let args = [programsDirectory() + "/orientationd", "--address", bus.address, "--sensor", "simulated",
                    "--state-dir", state] + extra
        let child = try Child(args, output: scratch + "/\(name).log", environment: environment)
        children.append(child)
        if let waitFor {
            let up = waitUntil(5) { !child.isRunning || hasOwner(waitFor) }
            guard up, child.isRunning else {
                throw DBusError.failed("orientationd did not come up; log:\n\(child.output)")
            }
        }
        return child
    }

    /// Runs a program with the private bus as its system bus.
    func startOnSystemBus(_ argv: [String], name: String, stdinPipe: Bool = false) throws -> Child {
        let child = try Child(argv, output: scratch + "/\(name).out",
                              environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address], stdinPipe: stdinPipe)
        children.append(child)
        return child
    }

    func newClient() throws -> Connection {
        let c = try Connection(bus: .address(bus.address))
        clients.append(c)
        return c
    }

    // MARK: The bus

    func busCall(_ method: String, _ values: [Value]) -> Value? {
        try? probe.callBusDriverBlocking(method, values).first
    }

    func hasOwner(_ name: String) -> Bool { busCall("NameHasOwner", [.string(name)])?.boolValue == true }

    func owner(_ name: String) -> String? { busCall("GetNameOwner", [.string(name)])?.stringValue }

    // MARK: Calls

    @discardableResult
    func call(_ c: Connection? = nil, destination: String = Orientation1.busName, _ path: String = Orientation1.managerPath,
              _ iface: String = Orientation1.managerInterface, _ method: String, _ values: [Value] = []) throws -> [Value] {
        try (c ?? probe).callBlocking(destination: destination, path: path, interface: iface, method: method,
                                      values: values, timeoutMs: 5000)
    }

    func get(_ property: String, destination: String = Orientation1.busName, _ path: String = Orientation1.managerPath,
             _ iface: String = Orientation1.managerInterface, on c: Connection? = nil) throws -> Value {
        let reply = try call(c, destination: destination, path, StandardInterface.properties, "Get", [.string(iface), .string(property)])
        guard let v = reply.first else { throw DBusError.failed("Get \(property) returned nothing") }
        return v.variantValue ?? v
    }

    func set(_ property: String, _ value: Value, _ path: String = Orientation1.managerPath, _ iface: String = Orientation1.managerInterface,
             on c: Connection? = nil) throws {
        try call(c, path, StandardInterface.properties, "Set", [.string(iface), .string(property), .variant(value)])
    }

    /// The compatibility object's `AccelerometerOrientation`.
    func proxyOrientation() throws -> String {
        try get("AccelerometerOrientation", destination: SensorProxy.busName, SensorProxy.path, SensorProxy.interface).stringValue ?? "?"
    }

    func deviceOrientation() throws -> UInt32 { try get("DeviceOrientation").uint32Value ?? 99 }

    func interfaceOrientation() throws -> UInt32 { try get("InterfaceOrientation").uint32Value ?? 99 }

    /// `SetDeviceOrientation(d)` by the (privileged) probe.
    func setDevice(_ d: UInt32) throws { try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "SetDeviceOrientation", [.uint32(d)]) }

    /// Asserts that `body` fails with the D-Bus error `name`.
    func assertError(_ name: String, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        do {
            try body()
            XCTFail("expected \(name), but the call succeeded", file: file, line: line)
        } catch let error as DBusError {
            XCTAssertEqual(error.name, name, "message: \(error.message)", file: file, line: line)
        } catch {
            XCTFail("expected \(name), got \(error)", file: file, line: line)
        }
    }
}
