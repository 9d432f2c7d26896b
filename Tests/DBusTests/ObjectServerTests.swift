// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import EventLoop
import TestSupport

/// The object server's dispatch in this process, on the embedded bus: the same object the end-to-end
/// tests export to busctl, gdbus and dbus-send, called here through the queues and dispatch a
/// connection uses, without a dbus-daemon.
final class ObjectServerTests: XCTestCase {
    private var bus: EmbeddedBus!
    private var object: TestObject!
    private var client: EmbeddedBus.Client!
    private var signals: [Message] = []

    override func setUpWithError() throws {
        bus = EmbeddedBus()
        object = TestObject()
        try bus.objects.register(path: TestObject.path, interfaces: [object.table])
        XCTAssertTrue(try bus.requestName(TestObject.service, flags: .doNotQueue))
        client = EmbeddedBus.Client(on: bus)
        _ = bus.observeSignals { [unowned self] in signals.append($0) }
    }

    override func tearDown() {
        bus?.close()
        bus = nil
    }

    private func call(_ method: String, _ values: [Value] = [], interface: String = TestObject.interface,
                      path: String = TestObject.path) throws -> [Value] {
        try client.callBlocking(destination: TestObject.service, path: path, interface: interface, method: method, values: values)
    }

    /// The error `body` throws, as `name: message`.
    private func failure(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no error"
        } catch let error as DBusError {
            return "\(error.name): \(error.message)"
        } catch {
            return "\(error)"
        }
    }

    private let properties = "org.freedesktop.DBus.Properties"

    func testAMethodAnswersAndAWrongSignatureNamesBoth() throws {
        XCTAssertEqual(try call("Add", [.uint32(5), .uint32(6)]), [.uint32(11)])
        XCTAssertEqual(failure { _ = try call("Add", [.uint32(5)]) },
                       "org.freedesktop.DBus.Error.InvalidArgs: Add: expected signature 'uu', got 'u'")
    }

    func testUnknownMethodInterfaceAndObjectAreReportedByName() {
        XCTAssertTrue(failure { _ = try call("Nope") }.hasPrefix("org.freedesktop.DBus.Error.UnknownMethod: "))
        XCTAssertTrue(failure { _ = try call("Add", interface: "org.orientationd.Other") }.hasPrefix("org.freedesktop.DBus.Error.UnknownInterface: "))
        XCTAssertTrue(failure { _ = try call("Add", path: "/org/orientationd/Test/missing") }
            .hasPrefix("org.freedesktop.DBus.Error.UnknownObject: "))
    }

    func testPropertyErrorsAreReportedByNameAndChangeNothing() {
        XCTAssertTrue(failure { _ = try call("Set", [.string(TestObject.interface), .string("Name"), .variant(.string("x"))], interface: properties) }
            .hasPrefix("org.freedesktop.DBus.Error.PropertyReadOnly: "))
        XCTAssertTrue(failure { _ = try call("Get", [.string(TestObject.interface), .string("Nope")], interface: properties) }
            .hasPrefix("org.freedesktop.DBus.Error.UnknownProperty: "))
        XCTAssertTrue(failure { _ = try call("Set", [.string(TestObject.interface), .string("Counter"), .variant(.bool(true))], interface: properties) }
            .hasPrefix("org.freedesktop.DBus.Error.InvalidArgs: "))
        XCTAssertEqual(object.counter, 7)
        XCTAssertTrue(failure { _ = try call("GetAll", [.string("org.orientationd.Other")], interface: properties) }
            .hasPrefix("org.freedesktop.DBus.Error.UnknownInterface: "))
    }

    func testHandlerErrorsAndDeferredRepliesReachTheCaller() throws {
        XCTAssertEqual(failure { _ = try call("Refuse") }, "org.freedesktop.DBus.Error.AccessDenied: refused because this is a test")
        XCTAssertEqual(failure { _ = try call("BadError") }, "org.freedesktop.DBus.Error.Failed: oops")
        XCTAssertTrue(failure { _ = try call("BadReply") }.hasPrefix("org.freedesktop.DBus.Error.Failed: internal error"))
        XCTAssertEqual(try call("Later"), [.string("done later")])
    }

    func testADeferredSetterCanRefuseOrAccept() throws {
        XCTAssertTrue(failure { _ = try call("Set", [.string(TestObject.interface), .string("Locked"), .variant(.bool(true))], interface: properties) }
            .hasPrefix("org.freedesktop.DBus.Error.AccessDenied: "))
        XCTAssertEqual(try call("Set", [.string(TestObject.interface), .string("Locked"), .variant(.bool(false))], interface: properties), [])
    }

    func testPropertiesChangedCarriesChangedAndInvalidatedAndSignalsTheirArguments() throws {
        object.counter = 11
        object.cache = 3
        try bus.objects.emitPropertiesChanged(path: TestObject.path, interface: TestObject.interface, names: ["Counter", "Cache", "Name"])
        try bus.objects.emitSignal(path: TestObject.path, interface: TestObject.interface, name: "Poked", values: [.uint32(5)])
        XCTAssertEqual(signals.count, 2)
        let change = try XCTUnwrap(PropertiesChanged(signals[0]))
        XCTAssertEqual(change.changed.map(\.0), ["Counter"], "a const property is never announced")
        XCTAssertEqual(change.changed.first?.1, .uint32(11))
        XCTAssertEqual(change.invalidated, ["Cache"])
        XCTAssertEqual(signals[1].member, "Poked")
        XCTAssertEqual(try signals[1].arguments(), [.uint32(5)])
    }

    func testSignalsMustMatchTheirDeclaration() {
        XCTAssertThrowsError(try bus.objects.emitSignal(path: TestObject.path, interface: TestObject.interface,
                                                        name: "Poked", values: [.string("x")]))
        XCTAssertThrowsError(try bus.objects.emitSignal(path: TestObject.path, interface: TestObject.interface, name: "Undeclared"))
        XCTAssertThrowsError(try bus.objects.emitPropertiesChanged(path: TestObject.path, interface: TestObject.interface,
                                                                   names: ["Nope"]))
        XCTAssertThrowsError(try bus.objects.emitPropertiesChanged(
            path: TestObject.path, PropertiesChanged(interface: TestObject.interface, changed: [("Counter", .string("not a u"))])))
        XCTAssertThrowsError(try bus.objects.emitPropertiesChanged(
            path: TestObject.path, PropertiesChanged(interface: TestObject.interface, changed: [("Undeclared", .uint32(1))])))
        XCTAssertTrue(signals.isEmpty, "a refused signal was sent: \(signals.map { $0.member ?? "" })")
    }

    func testANameHeldByAnotherClientIsRefusedUntilItLeaves() throws {
        let other = EmbeddedBus.Client(on: bus)
        var changes: [(String, String, String)] = []
        bus.watchNameOwnerChanged { changes.append(($0, $1, $2)) }
        bus.own("org.orientationd.Other", by: other.uniqueName)
        XCTAssertFalse(try bus.requestName("org.orientationd.Other", flags: .doNotQueue))
        XCTAssertEqual(try bus.callBusDriverBlocking("GetNameOwner", [.string("org.orientationd.Other")]), [.string(other.uniqueName)])
        other.close()
        XCTAssertTrue(changes.contains { $0 == ("org.orientationd.Other", other.uniqueName, "") }, "\(changes)")
        XCTAssertTrue(changes.contains { $0 == (other.uniqueName, other.uniqueName, "") }, "\(changes)")
        XCTAssertTrue(try bus.requestName("org.orientationd.Other", flags: .doNotQueue))
    }
}
