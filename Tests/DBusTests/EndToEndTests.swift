// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import EventLoop
import TestSupport

/// The object the end-to-end tests export: a method, properties of every change
/// behaviour, a deferred method and a deferred setter, and a signal.
final class TestObject {
    static let service = "org.orientationd.Test"
    static let path = "/org/orientationd/Test/obj1"
    static let interface = "org.orientationd.Test1"

    var counter: UInt32 = 7
    var cache: UInt32 = 0
    var locked = false
    var timers: [EventLoop.Timer] = []

    var table: Interface {
        Interface(name: Self.interface, methods: [
            Method("Add", in: ("a", UInt32.self), ("b", UInt32.self), out: [Arg("sum", "u")]) { _, a, b in
                .values([.uint32(a &+ b)])
            },
            Method("Later", out: [Arg("answer", "s")]) { [unowned self] call in
                timers.append(EventLoop.Timer(afterMs: 20) { call.reply([.string("done later")]) })
                return .deferred
            },
            Method("Refuse") { _ in .error(.accessDenied("refused because this is a test")) },
            Method("BadError") { _ in .error(DBusError(name: "not an error name", message: "oops")) },
            Method("BadReply", out: [Arg("n", "u")]) { _ in .values([.string("not a u")]) },
        ], properties: [
            Property("Counter", type: UInt32.self, get: { [unowned self] in .uint32(counter) },
                     set: { [unowned self] _, v in counter = v; return .done }),
            Property("Name", type: "s", emits: .const, get: { .string("test object") }),
            Property("Cache", type: "u", emits: .invalidates, get: { [unowned self] in .uint32(cache) }),
            Property("Locked", type: "b", access: .readwrite, get: { [unowned self] in .bool(locked) },
                     set: { [unowned self] call, v in
                         // Answer later, as a polkit check would.
                         timers.append(EventLoop.Timer(afterMs: 10) {
                             if v.boolValue! { call.fail(.accessDenied("\(call.sender) may not lock")) } else {
                                 self.locked = false
                                 call.reply()
                             }
                         })
                         return .deferred
                     }),
        ], signals: [
            Signal("Poked", args: [Arg("value", "u")]),
        ])
    }
}

final class EndToEndTests: XCTestCase {
    private var bus: PrivateBus!
    private var server: Connection!
    private var object: TestObject!

    override func setUpWithError() throws {
        bus = try PrivateBus()
        server = try Connection(bus: .address(bus.address))
        object = TestObject()
        try server.objects.register(path: TestObject.path, interfaces: [object.table])
        XCTAssertTrue(try server.requestName(TestObject.service))
    }

    override func tearDown() {
        server?.close()
        server = nil
        bus?.stop()
        bus = nil
    }

    private func busctl(_ args: String...) -> ToolResult {
        runTool(["busctl", "--address=\(bus.address)"] + args)
    }

    private func dbusSend(_ args: String...) -> ToolResult {
        runTool(["dbus-send", "--bus=\(bus.address)", "--print-reply", "--dest=\(TestObject.service)"] + args)
    }

    func testBusctlCallsAMethod() {
        let r = busctl("call", TestObject.service, TestObject.path, TestObject.interface, "Add", "uu", "2", "40")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "u 42\n")
    }

    func testBusctlGetsAndSetsAProperty() {
        var r = busctl("get-property", TestObject.service, TestObject.path, TestObject.interface, "Counter")
        XCTAssertEqual(r.stdout, "u 7\n", r.stderr)
        r = busctl("set-property", TestObject.service, TestObject.path, TestObject.interface, "Counter", "u", "9")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(object.counter, 9)
        r = busctl("get-property", TestObject.service, TestObject.path, TestObject.interface, "Name")
        XCTAssertEqual(r.stdout, "s \"test object\"\n", r.stderr)
    }

    func testBusctlIntrospectShowsEveryInterfaceAndMember() {
        let r = busctl("introspect", TestObject.service, TestObject.path)
        XCTAssertEqual(r.status, 0, r.stderr)
        for expected in ["org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Properties",
                         "org.orientationd.Test1", ".Add", ".Counter", ".Name", ".Poked", "PropertiesChanged"] {
            XCTAssertTrue(r.stdout.contains(expected), "missing \(expected) in\n\(r.stdout)")
        }
        XCTAssertTrue(r.stdout.contains("emits-invalidation"), r.stdout)
        XCTAssertTrue(r.stdout.contains("writable"), r.stdout)
    }

    func testBusctlTreeShowsIntermediateNodes() throws {
        try server.objects.register(path: "/org/orientationd/Test/obj1/child/2", interfaces: [])
        let r = busctl("tree", "--list", TestObject.service)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.split(separator: "\n").map(String.init), [
            "/", "/org", "/org/orientationd", "/org/orientationd/Test", "/org/orientationd/Test/obj1",
            "/org/orientationd/Test/obj1/child", "/org/orientationd/Test/obj1/child/2",
        ])
    }

    func testPeerPingAndMachineIdAreAnswered() {
        var r = busctl("call", TestObject.service, "/", "org.freedesktop.DBus.Peer", "Ping")
        XCTAssertEqual(r.status, 0, r.stderr)
        r = busctl("call", TestObject.service, TestObject.path, "org.freedesktop.DBus.Peer", "GetMachineId")
        XCTAssertTrue(r.stdout.hasPrefix("s \""), r.stdout + r.stderr)
    }

    func testDbusSendCallsAMethod() {
        let r = dbusSend(TestObject.path, "\(TestObject.interface).Add", "uint32:1", "uint32:2")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("uint32 3"), r.stdout)
    }

    func testWrongSignatureAnswersInvalidArgsWithBothSignatures() {
        let r = dbusSend(TestObject.path, "\(TestObject.interface).Add", "uint32:1")
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), r.stderr)
        XCTAssertTrue(r.stderr.contains("expected signature 'uu', got 'u'"), r.stderr)
    }

    func testUnknownMethodInterfaceAndObjectAreReportedByName() {
        var r = dbusSend(TestObject.path, "\(TestObject.interface).Nope")
        XCTAssertTrue(r.stderr.contains("org.freedesktop.DBus.Error.UnknownMethod"), r.stderr)
        r = dbusSend(TestObject.path, "org.orientationd.Other.Add")
        XCTAssertTrue(r.stderr.contains("org.freedesktop.DBus.Error.UnknownInterface"), r.stderr)
        r = dbusSend("/org/orientationd/Test/missing", "\(TestObject.interface).Add")
        XCTAssertTrue(r.stderr.contains("org.freedesktop.DBus.Error.UnknownObject"), r.stderr)
    }

    func testPropertyErrorsAreReportedByName() {
        let props = "org.freedesktop.DBus.Properties"
        var r = dbusSend(TestObject.path, "\(props).Set", "string:\(TestObject.interface)", "string:Name", "variant:string:x")
        XCTAssertTrue(r.stderr.contains("org.freedesktop.DBus.Error.PropertyReadOnly"), r.stderr)
        r = dbusSend(TestObject.path, "\(props).Get", "string:\(TestObject.interface)", "string:Nope")
        XCTAssertTrue(r.stderr.contains("org.freedesktop.DBus.Error.UnknownProperty"), r.stderr)
        r = dbusSend(TestObject.path, "\(props).Set", "string:\(TestObject.interface)", "string:Counter", "variant:boolean:true")
        XCTAssertTrue(r.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), r.stderr)
        XCTAssertEqual(object.counter, 7)
        r = dbusSend(TestObject.path, "\(props).GetAll", "string:org.orientationd.Other")
        XCTAssertTrue(r.stderr.contains("org.freedesktop.DBus.Error.UnknownInterface"), r.stderr)
    }

    func testHandlerErrorsAndDeferredRepliesReachTheCaller() {
        var r = dbusSend(TestObject.path, "\(TestObject.interface).Refuse")
        XCTAssertTrue(r.stderr.contains("org.freedesktop.DBus.Error.AccessDenied: refused because this is a test"), r.stderr)
        r = dbusSend(TestObject.path, "\(TestObject.interface).BadError")
        XCTAssertTrue(r.stderr.contains("org.freedesktop.DBus.Error.Failed: oops"), r.stderr)
        r = dbusSend(TestObject.path, "\(TestObject.interface).BadReply")
        XCTAssertTrue(r.stderr.contains("org.freedesktop.DBus.Error.Failed: internal error"), r.stderr)
        r = dbusSend(TestObject.path, "\(TestObject.interface).Later")
        XCTAssertTrue(r.stdout.contains("done later"), r.stdout + r.stderr)
    }

    func testDeferredSetterCanRefuseOrAccept() {
        let props = "org.freedesktop.DBus.Properties"
        var r = dbusSend(TestObject.path, "\(props).Set", "string:\(TestObject.interface)", "string:Locked", "variant:boolean:true")
        XCTAssertTrue(r.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), r.stderr)
        r = dbusSend(TestObject.path, "\(props).Set", "string:\(TestObject.interface)", "string:Locked", "variant:boolean:false")
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testGdbusCallsAMethodAndIntrospects() throws {
        if !toolExists("gdbus") { throw unavailable("gdbus is not installed") }
        var r = runTool(["gdbus", "call", "--address", bus.address, "--dest", TestObject.service,
                         "--object-path", TestObject.path, "--method", "\(TestObject.interface).Add", "5", "6"])
        XCTAssertEqual(r.stdout, "(uint32 11,)\n", r.stderr)
        r = runTool(["gdbus", "introspect", "--address", bus.address, "--dest", TestObject.service,
                     "--object-path", "/org", "--recurse"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("node /org/orientationd/Test/obj1"), r.stdout)
        XCTAssertTrue(r.stdout.contains("readwrite u Counter"), r.stdout)
        r = runTool(["gdbus", "call", "--address", bus.address, "--dest", TestObject.service,
                     "--object-path", TestObject.path, "--method", "\(TestObject.interface).Nope"])
        XCTAssertTrue(r.stderr.contains("org.freedesktop.DBus.Error.UnknownMethod"), r.stderr)
    }

    func testSecondConnectionReceivesPropertiesChangedAndSignals() throws {
        let client = try Connection(bus: .address(bus.address))
        defer { client.close() }
        try client.addMatch("type='signal',sender='\(TestObject.service)',path='\(TestObject.path)'")
        var received: [Message] = []
        client.onSignal { if $0.path == TestObject.path { received.append($0) } }

        object.counter = 11
        object.cache = 3
        try server.objects.emitPropertiesChanged(path: TestObject.path, interface: TestObject.interface,
                                                 names: ["Counter", "Cache", "Name"])
        try server.objects.emitSignal(path: TestObject.path, interface: TestObject.interface, name: "Poked", values: [.uint32(5)])
        XCTAssertTrue(MainLoop.iterate(until: { received.count >= 2 }))

        XCTAssertEqual(received[0].member, "PropertiesChanged")
        XCTAssertEqual(try received[0].arguments(), [
            .string(TestObject.interface),
            .stringVariantDict([("Counter", .uint32(11))]),
            .array(elementSignature: "s", [.string("Cache")]),
        ])
        let change = try XCTUnwrap(PropertiesChanged(received[0]))
        XCTAssertEqual(change.interface, TestObject.interface)
        XCTAssertEqual(change.changed.map(\.0), ["Counter"])
        XCTAssertEqual(change.changed.first?.1, .uint32(11), "the variant unwrapped")
        XCTAssertEqual(change.invalidated, ["Cache"])
        XCTAssertNil(PropertiesChanged(received[1]), "a signal of another kind")
        XCTAssertEqual(received[1].member, "Poked")
        XCTAssertEqual(try received[1].arguments(), [.uint32(5)])
        XCTAssertEqual(received[1].sender, server.uniqueName)
    }

    func testAsynchronousCallsComplete() throws {
        let client = try Connection(bus: .address(bus.address))
        defer { client.close() }
        var sum: Result<[Value], DBusError>?
        var wrong: Result<[Value], DBusError>?
        client.call(destination: TestObject.service, path: TestObject.path, interface: TestObject.interface,
                    method: "Add", values: [.uint32(20), .uint32(22)]) { sum = $0 }
        client.call(destination: TestObject.service, path: TestObject.path, interface: TestObject.interface,
                    method: "Add", values: [.uint32(20)]) { wrong = $0 }
        XCTAssertTrue(MainLoop.iterate(until: { sum != nil && wrong != nil }))
        XCTAssertEqual(try sum?.get(), [.uint32(42)])
        guard case .failure(let e) = wrong else { return XCTFail("expected an error") }
        XCTAssertEqual(e.name, "org.freedesktop.DBus.Error.InvalidArgs")
        XCTAssertEqual(e.message, "Add: expected signature 'uu', got 'u'")
    }

    func testInvalidCallArgumentsFailTheCompletionInsteadOfCrashing() throws {
        var result: Result<[Value], DBusError>?
        server.call(destination: TestObject.service, path: "not a path", interface: nil, method: "Add") { result = $0 }
        XCTAssertTrue(MainLoop.iterate(until: { result != nil }))
        guard case .failure(let e) = result else { return XCTFail("expected an error") }
        XCTAssertEqual(e.name, "org.freedesktop.DBus.Error.InvalidArgs")
    }

    func testBlockingCallsReachTheBus() throws {
        let names = try server.callBusDriverBlocking("ListNames")
        XCTAssertTrue(names.first?.arrayValues?.contains(.string(TestObject.service)) ?? false)
        XCTAssertThrowsError(try server.callBusDriverBlocking("NoSuchMethod")) { error in
            XCTAssertEqual((error as? DBusError)?.name, "org.freedesktop.DBus.Error.UnknownMethod")
        }
    }

    func testClientLeavingIsReportedByNameOwnerChanged() throws {
        var left: [String] = []
        server.watchNameOwnerChanged { name, old, new in
            if new.isEmpty && name == old { left.append(name) }
        }
        let client = try Connection(bus: .address(bus.address))
        let name = client.uniqueName
        client.close()
        XCTAssertTrue(MainLoop.iterate(until: { left.contains(name) }))
    }

    func testUnixUserOfACallerIsLookedUp() throws {
        var uid: Result<UInt32, DBusError>?
        server.getConnectionUnixUser(server.uniqueName) { uid = $0 }
        XCTAssertTrue(MainLoop.iterate(until: { uid != nil }))
        XCTAssertEqual(try uid?.get(), getuid())
    }

    func testRequestingAnOwnedNameIsRefused() throws {
        let other = try Connection(bus: .address(bus.address))
        defer { other.close() }
        XCTAssertFalse(try other.requestName(TestObject.service))
        XCTAssertTrue(try server.releaseName(TestObject.service))
        XCTAssertTrue(try other.requestName(TestObject.service))
    }

    func testBusGoingAwayCallsOnDisconnected() throws {
        var disconnected = false
        server.onDisconnected = { disconnected = true }
        bus.stop()
        XCTAssertTrue(MainLoop.iterate(until: { disconnected }))
        XCTAssertFalse(server.isConnected)
    }
}
