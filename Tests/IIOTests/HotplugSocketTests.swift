// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// Sends one forged iio uevent on a netlink uevent socket. argv: FORMAT (udev | kernel), TO (unicast |
/// multicast), PORT_OR_GROUP, SYSNAME. The udev format carries libudev's header with the subsystem's
/// MurmurHash2, as udevd writes it; the kernel format puts ACTION, DEVPATH and SUBSYSTEM first, as the
/// kernel does.
private let senderScript = fixtureText("IIOTests/Fixtures/uevent-sender.py")

/// The hotplug socket on the real kernel, not umockdev's emulation (which fakes every sender as udev):
/// which multicast group it joins, and which senders it believes. Each daemon runs in its own network
/// namespace (so forged events reach no other process of the machine) and mount namespace (so
/// `/run/udev/control`, which says whether udev runs, is what the test wants).
final class HotplugSocketTests: EndToEndTestCase {
    var daemon: ChildProcess?
    var bus: PrivateBus { world.bus }
    var scratch: String { world.scratch }

    override func setUpWithError() throws {
        guard getuid() == 0, runTool(["unshare", "--net", "--mount", "true"]).status == 0 else {
            throw unavailable("needs root and unshare(1) allowed to make network and mount namespaces")
        }
        try super.setUpWithError()
    }

    var log: String { daemon?.log ?? "" }

    /// Starts `orientationd --sensor iio` in new namespaces, with `/run/udev/control` when `udevRuns`.
    func start(udevRuns: Bool) throws {
        let setup = "mount -t tmpfs tmpfs /run && " + (udevRuns ? "mkdir /run/udev && touch /run/udev/control && " : "")
        // unshare and sh exec the daemon, so the child's pid is the daemon's.
        let child = try world.start(["unshare", "--net", "--mount", "sh", "-c", setup + "exec \"$0\" \"$@\"",
                                     programsDirectory() + "/orientationd", "--address", bus.address, "--sensor", "iio",
                                     "--state-dir", scratch + "/state"], name: "daemon", waitFor: Orientation1.busName, timeout: 10)
        world.check(child, as: "orientationd")
        daemon = child
    }

    /// The daemon's uevent socket as its network namespace lists it: netlink port and groups.
    func ueventSocket() throws -> (port: UInt32, groups: UInt32) {
        let pid = daemon!.pid
        let inodes = Set((try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")).compactMap {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)"))
        }.filter { $0.hasPrefix("socket:[") }.map { String($0.dropFirst(8).dropLast()) })
        for line in readText("/proc/\(pid)/net/netlink").split(separator: "\n").dropFirst() {
            let f = line.split(separator: " ")
            guard f.count >= 10, f[1] == "15", inodes.contains(String(f[9])),
                  let port = UInt32(f[2]), let groups = UInt32(f[3], radix: 16) else { continue }
            return (port, groups)
        }
        throw DBusError.failed("no uevent socket of orientationd in /proc/\(pid)/net/netlink; log:\n\(log)")
    }

    /// Sends a forged event from inside the daemon's network namespace, as `uid` (0, or another with
    /// CAP_NET_ADMIN kept, as a process in a container may have: without it the kernel lets no one but
    /// root send on a uevent socket at all).
    func send(_ format: String, _ to: String, _ portOrGroup: UInt32, _ sysname: String, uid: Int) {
        let script = scratch + "/send.py"
        writeText(script, senderScript)
        chmod(scratch, 0o755)
        chmod(script, 0o644)
        let user = uid == 0 ? [] : ["setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups",
                                    "--inh-caps=+net_admin", "--ambient-caps=+net_admin"]
        let r = runTool(["nsenter", "--net=/proc/\(daemon!.pid)/ns/net"] + user
                        + ["/usr/bin/python3", script, format, to, "\(portOrGroup)", sysname])
        XCTAssertEqual(r.status, 0, "sending \(format) \(to) as uid \(uid): \(r.stderr)")
    }

    func lines(_ text: String) -> Int { log.split(separator: "\n").filter { $0.contains(text) }.count }

    // MARK: Tests

    func testEventsComeFromUdevsGroupWhenUdevRunsAndOnlyRootsAreBelieved() throws {
        try start(udevRuns: true)
        let socket = try ueventSocket()
        XCTAssertEqual(socket.groups, UInt32(2), "udev's group, whose events come after its rules and hwdb; log:\n\(log)")
        XCTAssertEqual(lines("hotplug: device events from udev"), 1, log)
        // What udevd does: root, multicast on its group.
        send("udev", "multicast", 2, "iio:device7", uid: 0)
        XCTAssertTrue(waitUntil(3) { self.lines("iio:device7: device event 'add'") == 1 }, "root's multicast was not taken:\n\(log)")
        // udev's group, but not root: not udev.
        send("udev", "multicast", 2, "iio:device8", uid: 65534)
        XCTAssertTrue(waitUntil(3) { self.lines("its sender is neither the kernel nor root") == 1 }, log)
        XCTAssertEqual(lines("uid 65534"), 1, log)
        // Root, but to this socket alone: not udev either.
        send("udev", "unicast", socket.port, "iio:device9", uid: 0)
        XCTAssertTrue(waitUntil(3) { self.lines("sent to this socket alone") == 1 }, log)
        XCTAssertEqual(lines("iio:device8") + lines("iio:device9"), 0, "a forged event was believed:\n\(log)")
        XCTAssertTrue(daemon!.isRunning)
    }

    func testEventsComeFromTheKernelsGroupWithoutUdevAndOnlyTheKernelIsBelieved() throws {
        try start(udevRuns: false)
        let socket = try ueventSocket()
        XCTAssertEqual(socket.groups, UInt32(1), "the kernel's group when udev does not run; log:\n\(log)")
        XCTAssertEqual(lines("hotplug: device events from the kernel"), 1, log)
        // Root may multicast on the kernel's group, but it is not the kernel (its port is not 0).
        send("kernel", "multicast", 1, "iio:device7", uid: 0)
        XCTAssertTrue(waitUntil(3) { self.lines("claims the kernel's group but the kernel did not send it") == 1 }, log)
        send("kernel", "multicast", 1, "iio:device8", uid: 0)
        send("kernel", "unicast", socket.port, "iio:device9", uid: 0)
        XCTAssertTrue(waitUntil(3) { self.lines("sent to this socket alone") == 1 }, log)
        XCTAssertEqual(lines("device event 'add'"), 0, "a forged event was believed:\n\(log)")
        XCTAssertEqual(lines("claims the kernel's group"), 1, "logged once for each reason, then silent")
        XCTAssertTrue(daemon!.isRunning)
    }
}
