// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

// The IIO source under umockdev: a Python driver owns a `UMockdev.Testbed` (fake /sys, fake /dev nodes
// backed by ptys, emulated uevents) and obeys JSON commands on stdin; the daemon runs with
// `libumockdev-preload.so.0` and `UMOCKDEV_DIR` pointing at the testbed, on a private bus.

/// Debian's python3: it has `gi.repository.UMockdev` (a pyenv python on PATH may not).
let systemPython = "/usr/bin/python3"
let preloadLibrary = "libumockdev-preload.so.0"

/// The Python side: one JSON command per line in, one JSON reply per line out.
private let driverScript = fixtureText("IIOTests/Fixtures/umockdev-driver.py")

struct TestbedError: Error, CustomStringConvertible { let description: String }

/// A running umockdev testbed, driven through the Python script above.
final class Testbed {
    private let driver: ChildProcess
    let root: String

    init(scratch: String) throws {
        let script = scratch + "/umockdev-driver.py"
        writeText(script, driverScript)
        // The driver's own libudev (used to build uevents) must see the testbed too; a testbed this
        // process may run in is not the driver's.
        driver = try ChildProcess([systemPython, script], output: .pipe(stderr: scratch + "/umockdev-driver.err"),
                                  environment: ["LD_PRELOAD": preloadLibrary], unsetting: ["UMOCKDEV_DIR"], stdinPipe: true)
        guard let root = try Testbed.reply(driver.readLine())["root"] as? String else { throw TestbedError(description: "no testbed root") }
        self.root = root
    }

    private static func reply(_ line: String) throws -> [String: Any] {
        guard let reply = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw TestbedError(description: "the umockdev driver said '\(line)'")
        }
        if let error = reply["error"] as? String { throw TestbedError(description: "umockdev: \(error)") }
        return reply
    }

    @discardableResult
    func command(_ command: [String: Any]) throws -> [String: Any] {
        let data = try JSONSerialization.data(withJSONObject: command)
        return try Testbed.reply(driver.command(String(decoding: data, as: UTF8.self)))
    }

    /// Adds a device of `subsystem` (iio unless said), under `parent` (a path `add` returned) when
    /// given; returns its sysfs path (`/sys/devices/NAME`, or the parent's path and `/NAME`).
    @discardableResult
    func add(_ name: String, subsystem: String = "iio", parent: String? = nil, attributes: [String: String],
             properties: [String: String] = [:]) throws -> String {
        var request: [String: Any] = ["op": "add", "subsystem": subsystem, "name": name, "attrs": attributes, "props": properties]
        if let parent { request["parent"] = parent }
        guard let path = try command(request)["path"] as? String else {
            throw TestbedError(description: "add \(name) returned no path")
        }
        return path
    }

    func add(description: String) throws { try command(["op": "addstr", "text": description]) }

    func set(_ path: String, _ attribute: String, _ value: String) throws {
        try command(["op": "set", "path": path, "attr": attribute, "value": value])
    }

    /// Sets several attributes.
    func set(_ path: String, _ values: [String: String]) throws {
        for (k, v) in values { try set(path, k, v) }
    }

    /// Makes the attribute at `path` (`/sys/...` inside the testbed) a link to `target` outside it.
    func symlink(_ path: String, to target: String) throws {
        try command(["op": "symlink", "path": path, "target": target])
    }

    /// Sets a udev property (it appears in the device's `uevent` file, as udev's database would hold it).
    func setProperty(_ path: String, _ name: String, _ value: String) throws {
        try command(["op": "set_property", "path": path, "name": name, "value": value])
    }

    func uevent(_ path: String, _ action: String) throws { try command(["op": "uevent", "path": path, "action": action]) }

    func remove(_ path: String) throws { try command(["op": "remove", "path": path]) }

    /// Answers the ioctls on `node` from `file`, umockdev's ioctl record (`@DEV node`, then one line per
    /// request and its answer).
    func loadIoctl(_ node: String, _ file: String) throws { try command(["op": "load_ioctl", "node": node, "file": file]) }

    /// Answers `IIO_GET_EVENT_FD_IOCTL` on `node` with `fds`, one per call (descriptors the daemon was
    /// started holding: umockdev cannot make one in its process), then EBUSY; other requests as before.
    func answerEventDescriptor(_ node: String, fds: [Int32]) throws {
        try command(["op": "event_fd", "node": node, "fds": fds.map(Int.init)])
    }

    /// Has the driver stand for evdev on `node`: every ioctl and read made on it recorded in order,
    /// `EVIOCSMASK` and `EVIOCGRAB` accepted, `EVIOCGKEY` answered with the keys set by `evdevKeys`.
    func recordEvdev(_ node: String) throws { try command(["op": "evdev_recorder", "node": node]) }

    /// The keys `EVIOCGKEY` on `node` reports down from now on (`BTN_TOUCH` is 330).
    func evdevKeys(_ node: String, _ bits: [Int]) throws { try command(["op": "evdev_keys", "node": node, "bits": bits]) }

    /// What was made on `node` since `recordEvdev`, in order: `["call": "EVIOCSMASK", "type": 1,
    /// "bits": [330]]`, `["call": "read"]` (consecutive reads once), `["call": "EVIOCGKEY"]`, …
    func evdevLog(_ node: String) throws -> [[String: Any]] {
        try command(["op": "evdev_log", "node": node])["log"] as? [[String: Any]] ?? []
    }

    /// Writes bytes to the fake character device, as if the kernel had pushed them into the buffer.
    func writeDevice(_ node: String, _ bytes: [UInt8]) throws {
        try command(["op": "write_dev", "node": node, "hex": bytes.map { String(format: "%02x", $0) }.joined()])
    }

    /// An attribute's contents as the daemon would read them (`/sys/...` inside the testbed).
    func read(_ path: String) throws -> String {
        (try command(["op": "read", "path": path])["value"] as? String ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func stop() {
        _ = driver.stop()
        _ = try? FileManager.default.removeItem(atPath: root)
    }
}

/// One `struct input_event` of a 64-bit kernel, as a test writes it into an input device's node: a
/// zero timeval, type, code, value.
func inputEvent(type: UInt16, code: UInt16, value: Int32) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: 16)
    withUnsafeBytes(of: type.littleEndian) { bytes += $0 }
    withUnsafeBytes(of: code.littleEndian) { bytes += $0 }
    withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    return bytes
}

/// A test with a umockdev testbed beside its `World` (a private bus and a probe), made in setUp and
/// stopped in tearDown (skipped where umockdev is missing); the daemon runs in the testbed.
class TestbedTestCase: EndToEndTestCase {
    var testbed: Testbed!
    var bus: PrivateBus { world.bus }
    var probe: Connection { world.probe }
    var scratch: String { world.scratch }
    /// The daemon a test started, which tearDown expects still running and ending with status 0.
    var daemon: ChildProcess?

    /// What a process needs to run in the testbed.
    var testbedEnvironment: [String: String] { World.testbedEnvironment(root: testbed.root) }

    /// Starts orientationd in the testbed with `arguments` and waits until `name` has an owner.
    /// `wrapper` runs it (a shell that opens descriptors for it, say).
    func launch(_ arguments: [String], as user: TestAccount? = nil, wrapper: [String] = [],
                waitingFor name: String = Orientation1.busName) throws {
        daemon = try world.startDaemon(arguments, sensor: nil, stateDirectory: scratch + "/state", environment: testbedEnvironment,
                                       user: user, wrapper: wrapper, waitFor: name)
    }

    override func setUpWithError() throws {
        guard access(systemPython, X_OK) == 0,
              pythonImports(["gi.repository.UMockdev@1.0"], python: systemPython).status == 0 else {
            throw unavailable("umockdev is not installed (apt: umockdev gir1.2-umockdev-1.0 python3-gi)")
        }
        try super.setUpWithError()
        testbed = try Testbed(scratch: scratch)
    }

    override func tearDownWithError() throws {
        daemon = nil
        // The daemon is stopped (and its end checked) before the testbed it runs in goes.
        try super.tearDownWithError()
        testbed?.stop()
        testbed = nil
    }
}

extension ChildProcess {
    /// `voluntary_ctxt_switches + nonvoluntary_ctxt_switches` of every thread, from /proc.
    var contextSwitches: Int { TestSupport.contextSwitches(of: pid) }
}
