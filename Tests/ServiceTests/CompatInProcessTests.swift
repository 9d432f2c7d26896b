// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// `net.hadess.SensorProxy` served in this process, on the embedded bus: its changes leave through
/// the service's one announcer, after the manager's own, and its refusals leave the service serving.
final class CompatInProcessTests: DaemonTestCase {
    override class var inProcess: Bool { true }
    override var configText: String? { "[Compat]\nSensorProxy=true\n" }

    /// Every signal of the embedded bus, in the order the service sent them.
    private var signals: [Message] = []
    private var observer: Int?

    override func setUpWithError() throws {
        try super.setUpWithError()
        observer = embedded.observeSignals { [unowned self] message in signals.append(message) }
    }

    override func tearDownWithError() throws {
        if let observer { embedded.removeObserver(observer) }
        try super.tearDownWithError()
    }

    /// `member@path` of each signal, with the names of the properties a PropertiesChanged carries.
    private func described(_ messages: [Message]) -> [String] {
        messages.map { message in
            let what = "\(message.member ?? "")@\(message.path ?? "")"
            guard message.member == "PropertiesChanged", let args = try? message.arguments(), args.count >= 2,
                  let changed = args[1].stringKeyedDictionary else { return what }
            return what + "[" + changed.keys.sorted().joined(separator: ",") + "]"
        }
    }

    private func proxy(_ method: String, _ c: TestClient? = nil) throws {
        try call(c, SensorProxy.path, SensorProxy.interface, method)
    }

    private func proxyProperty(_ name: String) throws -> Value {
        try get(name, SensorProxy.path, SensorProxy.interface)
    }

    func testATurnIsAnnouncedOnBothInterfacesByOneAnnouncerManagerFirst() throws {
        let app = try newClient()
        try proxy("ClaimAccelerometer", app)
        XCTAssertEqual(try proxyProperty("AccelerometerOrientation").stringValue, "normal")
        signals.removeAll()
        try setDevice(3)
        XCTAssertTrue(waitUntil(3) { self.described(self.signals).contains { $0.hasPrefix("PropertiesChanged@\(SensorProxy.path)") } },
                      "no PropertiesChanged of the compatibility object: \(described(signals))")
        let order = described(signals)
        let compat = try XCTUnwrap(order.firstIndex { $0.hasPrefix("PropertiesChanged@\(SensorProxy.path)") })
        XCTAssertTrue(order[compat].contains("AccelerometerOrientation"), "\(order)")
        let didChange = try XCTUnwrap(order.firstIndex { $0.hasPrefix("DidChange@") }, "\(order)")
        XCTAssertLessThan(didChange, compat, "the compatibility object changed before the manager said so: \(order)")
        XCTAssertEqual(try proxyProperty("AccelerometerOrientation").stringValue, "right-up")
        XCTAssertEqual(order.filter { $0.hasPrefix("PropertiesChanged@\(SensorProxy.path)") }.count, 1,
                       "one turn, one PropertiesChanged of the compatibility object: \(order)")
    }

    func testNothingIsAnnouncedOnTheCompatibilityObjectWhenNothingOfItChanged() throws {
        try proxy("ClaimAccelerometer")
        signals.removeAll()
        try set("RotationLocked", .bool(true))
        waitUntil(0.2) { false }
        XCTAssertFalse(described(signals).contains { $0.contains(SensorProxy.path) }, "\(described(signals))")
    }

    func testAClaimOfASensorThatIsNotThereAnswersAndAnnouncesNothing() throws {
        XCTAssertEqual(try proxyProperty("HasAmbientLight").boolValue, false)
        signals.removeAll()
        try proxy("ClaimLight")
        try proxy("ReleaseLight")
        waitUntil(0.1) { false }
        XCTAssertFalse(described(signals).contains { $0.contains(SensorProxy.path) }, "\(described(signals))")
    }

    func testANameHeldByAnotherProcessLeavesTheServiceServingWithoutTheCompatibilityObject() throws {
        stopDaemon()
        let peer = EmbeddedBus.Client(on: embedded)
        clients.append(peer)
        embedded.own(SensorProxy.busName, by: peer.uniqueName)
        try startDaemon(config: configText)
        XCTAssertNil(embedded.objects.interfaces(at: SensorProxy.path), "the refused interface stayed exported")
        try claim(probe)
        try setDevice(2)
        XCTAssertEqual(try u("DeviceOrientation"), 2)
    }
}
