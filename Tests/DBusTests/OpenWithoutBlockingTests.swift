// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import EventLoop
import TestSupport

/// `Connection.open(bus:completion:)`: registration with the bus runs on the loop, so a bus that
/// never answers costs the caller nothing but its completion coming late, with an error.
final class OpenWithoutBlockingTests: XCTestCase {
    func testOpeningRegistersWithTheBusAndGetsAUniqueName() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        var result: Result<Connection, DBusError>?
        Connection.open(bus: .address(bus.address)) { result = $0 }
        XCTAssertTrue(MainLoop.iterate(until: { result != nil }))
        let connection = try XCTUnwrap(result).get()
        defer { connection.close() }
        XCTAssertTrue(connection.uniqueName.hasPrefix(":"), connection.uniqueName)
        // libdbus knows the name too: the bus driver answers calls made through it.
        let owner = try connection.callBusDriverBlocking("GetNameOwner", [.string(connection.uniqueName)])
        XCTAssertEqual(owner.first?.stringValue, connection.uniqueName)
        XCTAssertTrue(try connection.requestName("org.orientationd.OpenTest"))
    }

    func testASilentBusFailsTheOpeningAfterTheTimeoutWhileTheLoopRuns() throws {
        // A listening socket that never accepts: the kernel completes the connect and takes what
        // libdbus writes, and nothing ever comes back.
        let directory = makeTempDirectory("orientationd-silent")
        defer { _ = runTool(["rm", "-rf", directory]) }
        let path = directory + "/bus"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(listener, 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (i, byte) in path.utf8.enumerated() { bytes[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(listener, 4), 0)

        var result: Result<Connection, DBusError>?
        var ticks = 0
        let tick = EventLoop.Timer(everyMs: 50) { ticks += 1 }
        defer { tick.cancel() }
        Connection.open(bus: .address("unix:path=\(path)"), timeoutMs: 500) { result = $0 }
        XCTAssertNil(result, "the completion ran before the bus could answer")
        XCTAssertTrue(MainLoop.iterate(until: { result != nil }, timeoutMs: 5000))
        guard case .failure(let error) = try XCTUnwrap(result) else { return XCTFail("a silent bus registered a connection") }
        XCTAssertEqual(error.name, DBusError.standardName("NoReply"), "\(error)")
        XCTAssertGreaterThanOrEqual(ticks, 5, "the loop did not run while the bus was silent")
    }

    func testAnAddressThatCannotBeOpenedFailsLater() {
        var result: Result<Connection, DBusError>?
        Connection.open(bus: .address("unix:path=/nonexistent/orientationd-bus")) { result = $0 }
        XCTAssertNil(result)
        XCTAssertTrue(MainLoop.iterate(until: { result != nil }))
        guard case .failure(let error) = result else { return XCTFail("opened a connection to nothing") }
        XCTAssertTrue(error.message.contains("/nonexistent/orientationd-bus"), "\(error)")
    }
}
