// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import DBus
import OrientationAPI

/// A client of the service under test: a connection to a private bus, or a client of the embedded one.
public protocol TestClient: AnyObject {
    var uniqueName: String { get }
    func callBlocking(destination: String?, path: String, interface: String?, method: String, values: [Value],
                      timeoutMs: Int32) throws(DBusError) -> [Value]
    func close()
}

extension Connection: TestClient {}
extension EmbeddedBus.Client: TestClient {}

/// `org.freedesktop.DBus.Error.NAME`.
public func std(_ name: String) -> String { "org.freedesktop.DBus.Error." + name }

/// The calls every test of the service makes, through its `caller` unless told another client: one
/// set, shared by the end-to-end suites and the in-process ones.
public protocol ServiceCalls: AnyObject {
    /// The client calls go through when none is named (the privileged probe).
    var caller: TestClient { get }
}

extension ServiceCalls {
    /// Calls `method` of `destination` and waits up to 5 s for the answer.
    @discardableResult
    public func call(_ c: TestClient? = nil, destination: String = Orientation1.busName, _ path: String = Orientation1.managerPath,
                     _ iface: String = Orientation1.managerInterface, _ method: String, _ values: [Value] = []) throws -> [Value] {
        try (c ?? caller).callBlocking(destination: destination, path: path, interface: iface, method: method,
                                       values: values, timeoutMs: 5000)
    }

    /// A property's value; the interface, when not given, is the one orientationd exports at `path`.
    public func get(_ property: String, destination: String = Orientation1.busName, _ path: String = Orientation1.managerPath,
                    _ iface: String? = nil, on c: TestClient? = nil) throws -> Value {
        let interface = iface ?? Self.interface(at: path)
        let reply = try call(c, destination: destination, path, StandardInterface.properties, "Get", [.string(interface), .string(property)])
        guard let v = reply.first else { throw DBusError.failed("Get \(property) returned nothing") }
        return v.variantValue ?? v
    }

    public func set(_ property: String, _ value: Value, _ path: String = Orientation1.managerPath, _ iface: String? = nil,
                    on c: TestClient? = nil) throws {
        try call(c, path, StandardInterface.properties, "Set", [.string(iface ?? Self.interface(at: path)), .string(property), .variant(value)])
    }

    public func getAll(_ path: String = Orientation1.managerPath, _ iface: String? = nil) throws -> [String: Value] {
        let reply = try call(nil, path, StandardInterface.properties, "GetAll", [.string(iface ?? Self.interface(at: path))])
        return reply.first?.stringKeyedDictionary ?? [:]
    }

    /// `SetDeviceOrientation(d)` by the (privileged) caller.
    public func setDevice(_ d: UInt32) throws {
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "SetDeviceOrientation", [.uint32(d)])
    }

    /// orientationd's interface at `path`: a window's, a controller's, else the manager's.
    public static func interface(at path: String) -> String {
        if path.hasPrefix(Orientation1.windowPathPrefix) { return Orientation1.windowInterface }
        if path.hasPrefix(Orientation1.controllerPathPrefix) { return Orientation1.controllerInterface }
        return Orientation1.managerInterface
    }

    /// Asserts that `body` fails with the D-Bus error `name` and a message; returns the message.
    @discardableResult
    public func assertError(_ name: String, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) -> String {
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
}

/// The base of every end-to-end test: a `World` (a private bus, a scratch directory, a probe) made
/// before each test and torn down after it, a failure for each daemon that died or did not end
/// cleanly, and the shared calls. Subclasses start what they need through `world`.
open class EndToEndTestCase: XCTestCase, ServiceCalls {
    public var world: World!

    /// Whether the world is made in setUp; a subclass that runs the service in process says no.
    open class var startsWorld: Bool { true }
    /// The policy files of a system-like bus, nil for a permissive one.
    open var systemPolicyFiles: [String]? { nil }

    open var caller: TestClient { world.probe }

    open override func setUpWithError() throws {
        try super.setUpWithError()
        if Self.startsWorld { world = try World(systemPolicyFiles: systemPolicyFiles) }
    }

    open override func tearDownWithError() throws {
        if let world {
            for problem in world.tearDown() { XCTFail(problem) }
        }
        world = nil
        try super.tearDownWithError()
    }
}
