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

        let script = """
            import sys
            from gi.repository import Gio, GLib
            bus = Gio.DBusConnection.new_for_address_sync(sys.argv[1],
                Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
            args = GLib.Variant('(sss)', (sys.argv[3], sys.argv[3], ''))
            for destination in (sys.argv[2], None):
                bus.emit_signal(destination, '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'NameOwnerChanged', args)
            bus.flush_sync(None)
            """
        let r = runTool(["/usr/bin/python3", "-c", script, bus.address, daemonName, victim.uniqueName])
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
