@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

// Helpers for the net.hadess.SensorProxy compatibility tests: the built daemon and other
// programs (monitor-sensor, a Python GIO client) run as child processes on a private bus.

func pause(_ seconds: Double) { waitUntil(seconds) { false } }

/// The test targets' one process helper, as the tests here start children: stdout and stderr in one
/// file, extra environment (e.g. `DBUS_SYSTEM_BUS_ADDRESS` pointing at the private bus), an optional
/// stdin pipe.
typealias Child = ChildProcess

extension ChildProcess {
    convenience init(_ argv: [String], output: String, environment: [String: String] = [:], stdinPipe: Bool = false) throws {
        try self.init(argv, output: .file(output), environment: environment, stdinPipe: stdinPipe)
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
                throw DBusError.failed("orientationd did not come up; log:\n\(child.log)")
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
