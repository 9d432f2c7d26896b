// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import DBus
import OrientationAPI
import TestSupport

/// What generated bindings and object managers need (dbus-api.md, "Signals", and each interface's
/// setter methods): `org.freedesktop.DBus.ObjectManager` on the manager, every object's coming and
/// going announced, writes as methods whose refusals are errors, only changed values in
/// PropertiesChanged, and folder nodes that describe only what they answer.
final class ObjectManagerTests: DaemonTestCase {
    override class var inProcess: Bool { true }
    private let objectManager = StandardInterface.objectManager

    /// `GetManagedObjects` as path → interface → properties.
    private func managedObjects() throws -> [String: [String: [String: Value]]] {
        guard case .dict(_, _, let entries)? = try call(nil, Orientation1.managerPath, objectManager, "GetManagedObjects").first else {
            throw DBusError.failed("GetManagedObjects answered no dictionary")
        }
        var objects: [String: [String: [String: Value]]] = [:]
        for (path, interfaces) in entries {
            guard case .dict(_, _, let byInterface) = interfaces else { continue }
            var table: [String: [String: Value]] = [:]
            for (name, properties) in byInterface { table[name.stringValue ?? ""] = properties.stringKeyedDictionary?.mapValues { $0.variantValue ?? $0 } }
            objects[path.objectPathValue ?? ""] = table
        }
        return objects
    }

    private func added(_ recorder: SignalRecorder) -> [String] {
        recorder.events.filter { $0.member == "InterfacesAdded" }.compactMap { $0.args.first?.objectPathValue }
    }

    private func removed(_ recorder: SignalRecorder) -> [String] {
        recorder.events.filter { $0.member == "InterfacesRemoved" }.compactMap { $0.args.first?.objectPathValue }
    }

    func testObjectsAreListedAndTheirComingAndGoingAnnouncedWhateverTheReason() throws {
        let recorder = try newRecorder()
        let app = try newClient()
        let window = try registerWindow(app)
        let home = try createController(app, "navigation", mask: 2)
        let other = try createController(app)
        try setRoot(app, window, home)
        XCTAssertTrue(recorder.wait { _ in self.added(recorder).count == 3 }, "\(recorder.events)")
        XCTAssertEqual(added(recorder), [window, home, other])
        // The object manager's signals and the objects' changes go to their owner alone; the manager's to everyone.
        for event in recorder.events {
            XCTAssertEqual(event.destination, event.path == Orientation1.managerPath && event.member != "InterfacesAdded"
                           && event.member != "InterfacesRemoved" || event.interface == Orientation1.managerInterface
                           ? nil : app.uniqueName, "\(event)")
        }
        // The signal carries the new object's properties, as GetAll would read them then.
        let controllerAdded = try XCTUnwrap(recorder.events.first { $0.member == "InterfacesAdded" && $0.args.first?.objectPathValue == home })
        guard case .dict(_, _, let interfaces)? = controllerAdded.args.dropFirst().first else { return XCTFail("\(controllerAdded)") }
        XCTAssertEqual(interfaces.map { $0.0.stringValue }, [Orientation1.controllerInterface])
        let kind = interfaces.first?.1.stringKeyedDictionary?["Kind"]
        XCTAssertEqual(kind?.variantValue ?? kind, .string("navigation"))

        let objects = try managedObjects()
        XCTAssertEqual(Set(objects.keys), [window, home, other])
        XCTAssertEqual(objects[window]?[Orientation1.windowInterface]?["RootController"], .objectPath(home))
        XCTAssertEqual(objects[home]?[Orientation1.controllerInterface]?["SupportedMask"], .uint32(2))
        XCTAssertEqual(objects[window]?[Orientation1.windowInterface]?.count, try getAll(window).count, "every property, as GetAll")

        // Destroy and Close: each announced to the owner. The owner leaving: nothing is sent, as nobody would receive it.
        _ = try ctl(app, other, "Destroy")
        try call(app, window, Orientation1.windowInterface, "Close")
        XCTAssertTrue(recorder.wait { _ in self.removed(recorder).count == 2 }, "\(recorder.events)")
        XCTAssertEqual(removed(recorder), [other, window])
        let gone = try XCTUnwrap(recorder.events.first { $0.member == "InterfacesRemoved" })
        XCTAssertEqual(gone.args.last, .array(elementSignature: "s", [.string(Orientation1.controllerInterface)]))
        app.close()
        XCTAssertTrue(waitUntil { (try? self.managedObjects().count) == 0 }, "the departed owner's objects stayed")
        XCTAssertEqual(removed(recorder).count, 2, "a removal was sent to a client that left: \(recorder.events)")
    }

    func testEachWritablePropertyHasASetterMethodWhoseRefusalIsAnError() throws {
        let app = try newClient(), stranger = try newClient()
        let window = try registerWindow(app)
        let tab = try createController(app, "tab")
        let child = try createController(app)
        for (method, value, property) in [("SetSupportedMask", Value.uint32(24), "SupportedMask"), ("SetShouldAutorotate", .bool(false), "ShouldAutorotate"),
                                          ("SetPreferredOrientation", .uint32(3), "PreferredOrientation"),
                                          ("SetForwardsToChild", .bool(false), "ForwardsToChild")] {
            _ = try ctl(app, tab, method, [value])
            XCTAssertEqual(try get(property, tab), value, method)
        }
        _ = try ctl(app, tab, "SetViewControllers", [.objectPaths([child])])
        _ = try ctl(app, tab, "SetSelectedIndex", [.uint32(0)])
        try call(app, window, Orientation1.windowInterface, "SetRootController", [.objectPath(tab)])
        XCTAssertEqual(try get("RootController", window), .objectPath(tab))
        try call(app, window, Orientation1.windowInterface, "SetDelegateMask", [.uint32(8)])
        XCTAssertEqual(try get("DelegateMask", window), .uint32(8))

        // Refusals: as errors to the caller, with nothing changed.
        assertError(std("InvalidArgs")) { _ = try self.ctl(app, tab, "SetSupportedMask", [.uint32(1)]) }
        assertError(std("InvalidArgs")) { _ = try self.ctl(app, tab, "SetSelectedIndex", [.uint32(5)]) }
        assertError(std("AccessDenied")) { _ = try self.ctl(stranger, tab, "SetSupportedMask", [.uint32(2)]) }
        assertError(std("InvalidArgs")) { _ = try self.ctl(app, tab, "SetSupportedMask", [.string("portrait")]) }
        assertError(Orientation1.errorName("NoCommonOrientation")) {
            try self.call(app, window, Orientation1.windowInterface, "SetDelegateMask", [.uint32(2)])
        }
        XCTAssertEqual(try get("SupportedMask", tab), .uint32(24))
        XCTAssertEqual(try get("DelegateMask", window), .uint32(8))

        // The manager's privileged writes (the probe runs as root).
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "SetRotationLocked", [.bool(true)])
        XCTAssertEqual(try b("RotationLocked"), true)
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "SetApplicationMask", [.uint32(30)])
        XCTAssertEqual(try u("ApplicationMask"), 30)
        assertError(std("InvalidArgs")) { try self.call(nil, Orientation1.managerPath, Orientation1.managerInterface, "SetApplicationMask", [.uint32(0)]) }
        XCTAssertEqual(try u("ApplicationMask"), 30)
        // Who may call them is decided as for the property writes (PrivilegeTests, with polkit).
    }

    func testFolderNodesDescribeOnlyWhatTheyAnswerAndListChildrenInNumericOrder() throws {
        let app = try newClient()
        var controllers: [String] = []
        for _ in 0..<12 { controllers.append(try createController(app)) }
        for folder in ["/", "/org", "/org/orientationd", String(Orientation1.controllerPathPrefix.dropLast())] {
            let xml = try XCTUnwrap(try call(nil, folder, StandardInterface.introspectable, "Introspect").first?.stringValue)
            let interfaces = xml.matches(of: /<interface name="([^"]+)"/).map { String($0.output.1) }
            XCTAssertEqual(interfaces, [StandardInterface.peer, StandardInterface.introspectable], folder)
        }
        let folder = String(Orientation1.controllerPathPrefix.dropLast())
        let xml = try XCTUnwrap(try call(nil, folder, StandardInterface.introspectable, "Introspect").first?.stringValue)
        let children = xml.matches(of: /<node name="([^"]+)"/).map { Orientation1.controllerPathPrefix + $0.output.1 }
        XCTAssertEqual(children, controllers, "numeric order: 2 before 10")
        // The manager is an object: it has Properties, and the ObjectManager.
        let manager = try XCTUnwrap(try call(nil, Orientation1.managerPath, StandardInterface.introspectable, "Introspect").first?.stringValue)
        XCTAssertTrue(manager.contains(StandardInterface.properties) && manager.contains(objectManager))
    }

    /// With a screen size, a rotation between the two landscapes changes no bounds: ScreenBounds is
    /// not sent again, only InterfaceOrientation.
    func testAnUnchangedScreenBoundsIsNotSentAgain() throws {
        try restartDaemon(config: "[Screen]\nPortraitSize=1080x1920\n")
        try claim(try newClient())
        let recorder = try newRecorder()
        try setDevice(3)
        XCTAssertTrue(recorder.wait { $0.member == "DidChange" })
        XCTAssertEqual(recorder.events.compactMap { $0.changed["ScreenBounds"] }, [.structure([.uint32(1920), .uint32(1080)])])
        recorder.clear()
        try setDevice(4)
        XCTAssertTrue(recorder.wait { $0.member == "DidChange" })
        recorder.settle()
        let changes = recorder.managerEvents.filter { $0.member == "PropertiesChanged" }.map(\.changed)
        XCTAssertEqual(changes.compactMap { $0["InterfaceOrientation"] }, [.uint32(4)])
        XCTAssertEqual(changes.compactMap { $0["ScreenBounds"] }, [], "the bounds did not change: \(changes)")
    }

    private func restartDaemon(config: String) throws {
        stopDaemon()
        try startDaemon(config: config)
    }
}
