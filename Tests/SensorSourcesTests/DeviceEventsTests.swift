// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
@testable import SensorSources
import TestSupport

/// Every source that follows hotplug subscribes to one uevent socket: opened for the first
/// subscription, shared by the next, closed after the last.
final class DeviceEventsTests: XCTestCase {
    /// The sockets this process holds open.
    private func openSockets() -> Int {
        guard let dir = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(dir) }
        var count = 0
        var target = [CChar](repeating: 0, count: 256)
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let n = readlink("/proc/self/fd/" + name, &target, target.count - 1)
            if n > 0, String(decoding: target[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self).hasPrefix("socket:") { count += 1 }
        }
        return count
    }

    func testSubscriptionsShareOneSocketClosedAfterTheLast() throws {
        let events = DeviceEvents()
        let before = openSockets()
        var first = events.subscribe(subsystem: "iio") { _ in }
        guard first != nil else { throw unavailable("no uevent socket here (AF_NETLINK refused)") }
        var second = events.subscribe(subsystem: "iio") { _ in }
        XCTAssertNotNil(second)
        XCTAssertEqual(openSockets() - before, 1, "one socket for both subscriptions")
        var input = events.subscribe(subsystem: "input") { _ in }
        XCTAssertNotNil(input)
        XCTAssertEqual(openSockets() - before, 2, "a socket of its own for another subsystem")
        input = nil
        first = nil
        XCTAssertEqual(openSockets() - before, 1, "the socket stays while one subscribes")
        second = nil
        XCTAssertEqual(openSockets(), before, "closed after the last")
    }
}
