// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// Only the bus itself says who left: a client that sends a `NameOwnerChanged` of its own, even
/// straight to the daemon's unique name (which no match rule filters), ends nobody's claims or objects.
final class SpoofedSignalTests: DaemonTestCase {
    func testANameOwnerChangedFromAClientEndsNothing() throws {
        let victim = try newClient()
        try claim(victim)
        let window = try registerWindow(victim)
        try setDevice(3)
        XCTAssertEqual(try u("DeviceOrientation"), 3)
        let daemonName = try XCTUnwrap(probeConnection.callBusDriverBlocking("GetNameOwner", [.string(Orientation1.busName)]).first?.stringValue)

        let r = runTool(["/usr/bin/python3", packageRoot + "/Tests/ServiceTests/Fixtures/spoof-name-owner-changed.py", bus.address,
                         daemonName, victim.uniqueName])
        XCTAssertEqual(r.status, 0, r.stderr)
        // Let the daemon handle whatever reached it, then look.
        _ = try call(nil, Orientation1.managerPath, "org.freedesktop.DBus.Peer", "Ping")
        XCTAssertEqual(try o("KeyWindow"), window, "the victim's window is still there")
        XCTAssertTrue(tree().contains(window), tree())
        XCTAssertEqual(try u("DeviceOrientation"), 3, "the victim's claim still holds")
        // The real departure still counts.
        victim.close()
        XCTAssertTrue(waitUntil { (try? self.o("KeyWindow")) == "/" })
    }
}
