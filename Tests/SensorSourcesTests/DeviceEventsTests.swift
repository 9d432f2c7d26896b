// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import SystemCalls
@testable import SensorSources
import TestSupport

/// Every source that follows hotplug subscribes to one uevent socket: opened for the first
/// subscription, shared by the next, closed after the last.
final class DeviceEventsTests: XCTestCase {
    /// The sockets this process holds open.
    private func openSockets() -> Int {
        FileSystem.list("/proc/self/fd").filter { FileSystem.linkTarget("/proc/self/fd/" + $0)?.hasPrefix("socket:") ?? false }.count
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
