// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import EventLoop
import Orientation
import OrientationAPI
import SensorSources
import TestSupport

/// The source in-process, against proxies served from this test: a proxy owned by this very
/// process is never used (the daemon may serve net.hadess.SensorProxy itself with
/// `--sensor-proxy-compat`).
final class SensorProxySourceTests: XCTestCase {
    final class Sink: SensorSink {
        var reports: [DeviceOrientation] = []
        var presenceChanges = 0
        func sensorReported(_ report: SensorReport) {
            switch report {
            case .orientation(let orientation): reports.append(orientation)
            case .accelerometerPresence: presenceChanges += 1
            default: break
            }
        }
    }

    func testMapsTheProxyStrings() {
        let map = SensorProxySource.orientation
        XCTAssertEqual(map("normal", nil), .portrait)
        XCTAssertEqual(map("bottom-up", nil), .portraitUpsideDown)
        XCTAssertEqual(map("right-up", nil), .landscapeLeft)
        XCTAssertEqual(map("left-up", nil), .landscapeRight)
        XCTAssertEqual(map("undefined", nil), .unknown)
        XCTAssertEqual(map("sideways", nil), .unknown)
        XCTAssertEqual(map("normal", "vertical"), .portrait)
        XCTAssertEqual(map("right-up", "tilted-up"), .landscapeLeft)
        XCTAssertEqual(map("left-up", "tilted-down"), .landscapeRight)
        XCTAssertEqual(map("normal", "face-up"), .faceUp, "flat wins over the edge")
        XCTAssertEqual(map("undefined", "face-down"), .faceDown)
    }

    /// Serves a minimal net.hadess.SensorProxy on `connection`, counting claims.
    func serveProxy(on connection: Connection, claims: UnsafeMutablePointer<Int>) throws {
        let iface = Interface(name: SensorProxy.interface, methods: [
            Method("ClaimAccelerometer") { _ in claims.pointee += 1; return .values([]) },
            Method("ReleaseAccelerometer") { _ in claims.pointee -= 1; return .values([]) },
        ], properties: [
            Property("HasAccelerometer", type: "b", get: { .bool(true) }),
            Property("AccelerometerOrientation", type: "s", get: { .string("right-up") }),
        ])
        try connection.objects.register(path: SensorProxy.path, interfaces: [iface])
        XCTAssertTrue(try connection.requestName(SensorProxy.busName))
    }

    func testNeverUsesAProxyServedByThisProcess() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let server = try Connection(bus: .address(bus.address))
        defer { server.close() }
        let claims = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        defer { claims.deallocate() }
        claims.pointee = 0
        try serveProxy(on: server, claims: claims)

        // Not told the name: found by pid.
        let sink = Sink()
        let source = try SensorProxySource(sink: sink, ownUniqueNames: [], bus: .address(bus.address))
        source.setRunning(true)
        MainLoop.iterate(until: { false }, timeoutMs: 500)
        XCTAssertFalse(source.isPresent)
        XCTAssertEqual(claims.pointee, 0, "never claims from itself")
        XCTAssertEqual(sink.reports, [])
        source.close()

        // Told the name.
        let sink2 = Sink()
        let source2 = try SensorProxySource(sink: sink2, ownUniqueNames: [server.uniqueName], bus: .address(bus.address))
        source2.setRunning(true)
        MainLoop.iterate(until: { false }, timeoutMs: 300)
        XCTAssertFalse(source2.isPresent)
        XCTAssertEqual(claims.pointee, 0)
        source2.close()
    }
}
