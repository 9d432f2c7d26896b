// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import DBus
import Orientation
import OrientationAPI
@testable import Policy
@testable import Service
import TestSupport

/// Values read by the announcer in these tests: each property reads its name and its object's key.
private struct Values: AnnouncedValues {
    var bounds: [InterfaceOrientation: Value] = [:]

    func value(_ property: String, of object: AnnouncedObject) -> Value? {
        property == "Missing" ? nil : .string("\(property)@\(object.key)")
    }

    func properties(of object: AnnouncedObject) -> [(String, Value)] {
        [("A", .string("a@\(object.key)")), ("B", .string("b@\(object.key)"))]
    }

    func screenBounds(_ orientation: InterfaceOrientation) -> Value {
        bounds[orientation] ?? .structure([.uint32(0), .uint32(0)])
    }

    /// Window and controller N belong to `:1.N`.
    func owner(of object: AnnouncedObject) -> String? {
        if case .manager = object { return nil }
        return ":1.\(object.key)"
    }
}

private let W1 = WindowID(rawValue: 1)
private let W2 = WindowID(rawValue: 2)
private let C1 = ControllerID(rawValue: 1)

/// The announcer turns named changes into messages in the contract's order, with no bus.
final class AnnouncerTests: XCTestCase {
    private func changes(events: [PolicyEvent] = [], manager: ManagerProperties = [],
                         windows: [WindowID: WindowProperties] = [:],
                         controllers: [ControllerID: ControllerProperties] = [:]) -> Changes {
        var c = Changes()
        c.events = events
        c.manager = manager
        for (id, names) in windows { c.name(names, of: id) }
        for (id, names) in controllers { c.name(names, of: id) }
        return c
    }

    private func properties(_ object: AnnouncedObject, _ names: [String]) -> Announcement {
        .properties(object, names.map { .init(name: $0, value: .string("\($0)@\(object.key)")) },
                    to: Values().owner(of: object))
    }

    func testPropertyChangesWithoutASignalWaitForTheTurnsEnd() {
        var announcer = Announcer()
        XCTAssertEqual(announcer.announce(changes(windows: [W1: .delegateMask]), Values()), [])
        XCTAssertEqual(announcer.announce(changes(windows: [W1: [.supportedMask, .effectiveMask]]), Values()), [],
                       "a second batch joins the first")
        XCTAssertTrue(announcer.hasPending)
        XCTAssertEqual(announcer.takePending(Values()), [properties(.window(W1), ["SupportedMask", "DelegateMask", "EffectiveMask"])],
                       "one PropertiesChanged per object, its properties in the contract's order")
        XCTAssertFalse(announcer.hasPending)
        XCTAssertEqual(announcer.takePending(Values()), [], "what was announced is forgotten")
    }

    func testEverythingWaitingGoesBeforeASignal() {
        var announcer = Announcer()
        _ = announcer.announce(changes(controllers: [C1: .supportedMask]), Values())
        let out = announcer.announce(changes(events: [.deviceOrientationChanged(from: .portrait, to: .landscapeLeft),
                                                      .willChange(from: .portrait, to: .landscapeRight)],
                                             manager: .supportedMask, windows: [W1: .effectiveMask]), Values())
        XCTAssertEqual(out, [
            properties(.manager, ["SupportedMask"]),
            properties(.window(W1), ["EffectiveMask"]),
            properties(.controller(C1), ["SupportedMask"]),
            .properties(.manager, [.init(name: "DeviceOrientation", value: .uint32(DeviceOrientation.landscapeLeft.rawValue))], to: nil),
            .manager("DeviceOrientationDidChange", [.uint32(DeviceOrientation.landscapeLeft.rawValue)]),
            .manager("WillChange", [.uint32(1), .uint32(3)]),
            .properties(.manager, [.init(name: "InterfaceOrientation", value: .uint32(3))], to: nil),
        ])
        XCTAssertFalse(announcer.hasPending)
    }

    func testARotationIsWillChangeThenTheOrientationThenDidChange() {
        var announcer = Announcer()
        let bounds = Values(bounds: [.portrait: .structure([.uint32(800), .uint32(1280)]),
                                     .portraitUpsideDown: .structure([.uint32(800), .uint32(1280)]),
                                     .landscapeRight: .structure([.uint32(1280), .uint32(800)])])
        XCTAssertEqual(announcer.announce(changes(events: [.willChange(from: .portrait, to: .landscapeRight)]), bounds), [
            .manager("WillChange", [.uint32(1), .uint32(3)]),
            .properties(.manager, [.init(name: "InterfaceOrientation", value: .uint32(3)),
                                   .init(name: "ScreenBounds", value: .structure([.uint32(1280), .uint32(800)]))], to: nil),
        ])
        XCTAssertEqual(announcer.announce(changes(events: [.didChange(from: .portrait, to: .landscapeRight)]), bounds),
                       [.manager("DidChange", [.uint32(1), .uint32(3)])])
        XCTAssertEqual(announcer.announce(changes(events: [.willChange(from: .portrait, to: .portraitUpsideDown)]), bounds), [
            .manager("WillChange", [.uint32(1), .uint32(2)]),
            .properties(.manager, [.init(name: "InterfaceOrientation", value: .uint32(2))], to: nil),
        ], "turning upside down leaves the bounds as they were, so they are not announced")
    }

    func testANewObjectIsAnnouncedWholeByItsCreation() {
        var announcer = Announcer()
        let out = announcer.announce(changes(events: [.windowAdded(W2), .willChange(from: .portrait, to: .landscapeLeft)],
                                             windows: [W2: [.isKey, .supportedMask]]), Values())
        XCTAssertEqual(out.first, .signal(interface: StandardInterface.objectManager, member: "InterfacesAdded", [
            .objectPath(Orientation1.windowPath(2)),
            .dict(keySignature: "s", valueSignature: "a{sv}", [
                (.string(Orientation1.windowInterface), .stringVariantDict([("A", .string("a@2")), ("B", .string("b@2"))])),
            ]),
        ], to: ":1.2"), "to its owner alone")
        XCTAssertFalse(out.contains { if case .properties(.window, _, _) = $0 { true } else { false } },
                       "its properties are not announced again: \(out)")
    }

    func testAnObjectGoneIsRemovedWithNothingLeftToAnnounce() {
        var announcer = Announcer()
        _ = announcer.announce(changes(controllers: [C1: .parent]), Values())
        var removal = changes(events: [.controllerRemoved(C1), .didChange(from: .portrait, to: .landscapeLeft)])
        removal.removedControllerOwners[C1] = ":1.7"
        let out = announcer.announce(removal, Values())
        XCTAssertEqual(out, [
            .signal(interface: StandardInterface.objectManager, member: "InterfacesRemoved", [
                .objectPath(Orientation1.controllerPath(1)), .array(elementSignature: "s", [.string(Orientation1.controllerInterface)]),
            ], to: ":1.7"),
            .manager("DidChange", [.uint32(1), .uint32(4)]),
        ])
        XCTAssertFalse(announcer.hasPending)
    }

    func testAChangeOutsideThePolicyJoinsTheManagersWaitingChanges() {
        var announcer = Announcer()
        announcer.name(managerProperty: "HasAccelerometer")
        _ = announcer.announce(changes(manager: [.keyWindow, .supportedMask]), Values())
        announcer.name(managerProperty: "HasAccelerometer")
        XCTAssertEqual(announcer.takePending(Values()), [properties(.manager, ["HasAccelerometer", "SupportedMask", "KeyWindow"])])
    }

    func testWaitingChangesAreTakenAFewObjectsAtATime() {
        var announcer = Announcer()
        var windows: [WindowID: WindowProperties] = [:]
        for n in 1...10 { windows[WindowID(rawValue: UInt64(n))] = .isKey }
        _ = announcer.announce(changes(manager: .keyWindow, windows: windows), Values())
        var seen: [AnnouncedObject] = []
        var turns = 0
        while announcer.hasPending {
            let out = announcer.takePending(Values(), limit: 4)
            XCTAssertLessThanOrEqual(out.count, 4)
            for case .properties(let object, _, _) in out { seen.append(object) }
            turns += 1
        }
        XCTAssertEqual(turns, 3)
        XCTAssertEqual(seen.count, 11)
        XCTAssertEqual(Set(seen).count, 11, "each object once")
    }

    func testAPropertyTheObjectDoesNotHaveIsLeftOut() {
        var announcer = Announcer()
        announcer.name(managerProperty: "Missing")
        announcer.name(managerProperty: "HasAccelerometer")
        XCTAssertEqual(announcer.takePending(Values()), [properties(.manager, ["HasAccelerometer"])])
    }

    /// The names the policy gives are the contract's, in the order of its XML, and every property
    /// whose value can change is among them or announced by an event or by the service.
    func testThePolicysNamesAreTheContractsInItsOrder() throws {
        func xmlProperties(_ file: String) throws -> [(name: String, const: Bool)] {
            let xml = try String(contentsOfFile: "\(packageRoot)/dbus/\(file)", encoding: .utf8)
            var found: [(String, Bool)] = []
            for part in xml.components(separatedBy: "<property name=\"").dropFirst() {
                let name = String(part.prefix { $0 != "\"" })
                let tag = part.prefix { $0 != ">" }
                let body = part.components(separatedBy: "</property>").first ?? ""
                found.append((name, !tag.hasSuffix("/") && body.contains("EmitsChangedSignal\" value=\"const\"")))
            }
            return found
        }
        func check<P: NamedProperties>(_ type: P.Type, _ file: String, announcedElsewhere: Set<String>) throws {
            let xml = try xmlProperties(file)
            let named = P.named.map(\.1)
            let order = xml.map(\.name).filter { named.contains($0) }
            XCTAssertEqual(order, named, "\(P.self) lists the properties of \(file) in its order")
            for (name, const) in xml where !const && !announcedElsewhere.contains(name) {
                XCTAssertTrue(named.contains(name), "\(file): \(name) can change but the policy never names it")
            }
        }
        try check(ManagerProperties.self, "org.orientationd.Orientation1.xml",
                  announcedElsewhere: ["DeviceOrientation", "InterfaceOrientation", "ScreenBounds", "HasAccelerometer",
                                       "MountMatrixSuspect"])
        try check(WindowProperties.self, "org.orientationd.Orientation1.Window.xml", announcedElsewhere: [])
        try check(ControllerProperties.self, "org.orientationd.Orientation1.Controller.xml", announcedElsewhere: [])
    }
}
