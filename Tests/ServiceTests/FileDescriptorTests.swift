// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

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
        let r = runTool(["/usr/bin/python3", packageRoot + "/Tests/ServiceTests/Fixtures/descriptor-calls.py", bus.address,
                         String(pid), "500"], timeoutMs: 60_000)
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
