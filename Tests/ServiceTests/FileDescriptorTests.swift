@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// No method of the service takes a file descriptor, and a call that brings some is refused at once,
/// so a client cannot fill the daemon's descriptor table (which would cost it its bus connection).
final class FileDescriptorTests: DaemonTestCase {
    func testCallsCarryingFileDescriptorsAreRefusedAndNotKept() throws {
        let pid = try XCTUnwrap(daemon?.pid)
        let script = """
            import os, sys
            from gi.repository import Gio, GLib
            bus = Gio.DBusConnection.new_for_address_sync(sys.argv[1],
                Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
            def call(no_reply):
                m = Gio.DBusMessage.new_method_call('\(Orientation1.busName)', '\(Orientation1.managerPath)',
                                                    '\(Orientation1.managerInterface)', 'AttemptRotationToDeviceOrientation')
                fds = Gio.UnixFDList.new()
                for _ in range(16):
                    fd = os.open('/dev/null', os.O_RDONLY)
                    fds.append(fd)
                    os.close(fd)
                m.set_unix_fd_list(fds)
                if no_reply:
                    m.set_flags(Gio.DBusMessageFlags.NO_REPLY_EXPECTED)
                    bus.send_message(m, Gio.DBusSendMessageFlags.NONE)
                    return None
                return bus.send_message_with_reply_sync(m, Gio.DBusSendMessageFlags.NONE, 10000, None)[0]
            before = len(os.listdir('/proc/%s/fd' % sys.argv[2]))
            most = 0
            for i in range(500):
                call(True)
                if i % 10 == 0:
                    most = max(most, len(os.listdir('/proc/%s/fd' % sys.argv[2])))
            reply = call(False)
            print(reply.get_error_name() if reply.get_message_type() == Gio.DBusMessageType.ERROR else 'ok')
            print(reply.get_body().unpack()[0] if reply.get_body() else '')
            print(most - before)
            """
        let r = runTool(["/usr/bin/python3", "-c", script, bus.address, String(pid)], timeoutMs: 60_000)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, std("InvalidArgs"), r.stdout + r.stderr)
        XCTAssertTrue(lines.count > 1 && lines[1].contains("file descriptors"), r.stdout)
        let most = Int(lines.last ?? "") ?? -1
        print("500 calls of 16 descriptors each: the daemon had at most \(most) more descriptors open than before")
        // libdbus holds at most 64 received ones open, plus those of the message being read.
        XCTAssertLessThanOrEqual(most, 64 + 16, "the daemon kept the descriptors sent to it")
        XCTAssertTrue(daemon?.isRunning ?? false)
        XCTAssertNotEqual(try u("InterfaceOrientation"), 0, "still answering")
    }
}
