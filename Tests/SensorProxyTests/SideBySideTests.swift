@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// iio-sensor-proxy's `AccelerometerOrientation` strings as device orientations (spec/sensors.md,
/// the axis table): what the peer says must be what we say.
let sideBySidePeerOrientation: [String: UInt32] = ["normal": 1, "bottom-up": 2, "right-up": 3, "left-up": 4]

/// Side by side: ONE umockdev fake accelerometer read by the REAL iio-sensor-proxy 3.0 and by
/// `orientationd --sensor iio`, both spawned inside the same testbed by one driver
/// (SideBySideDriverScript.swift) on a private bus (the proxy's "system" bus). Both are claimed from
/// this process (ClaimAccelerometer; BeginGeneratingDeviceOrientationNotifications); for each
/// unambiguous pose the device is set, both are polled until they settle, and the peer's string,
/// mapped through the table, must equal our `DeviceOrientation`.
final class SideBySideTests: XCTestCase {
    /// One g in raw counts at scale 9.81/256 (the peer's test vectors).
    static let g = 256

    var bus: PrivateBus!
    var scratch: String!
    var driver: Child?
    var client: Connection!

    override func setUpWithError() throws {
        try super.setUpWithError()
        try requirePeer()
        bus = try PrivateBus()
        scratch = makeTempDirectory()
        client = try Connection(bus: .address(bus.address))
    }

    override func tearDownWithError() throws {
        client?.close()
        if let driver {
            // "bye DAEMON PROXY": exit statuses after SIGTERM ("died:N" when already gone).
            let bye = (try? driver.command("quit")) ?? "no answer"
            driver.stop(0)
            let words = bye.split(separator: " ").map(String.init)
            XCTAssertEqual(words.count == 3 ? words[1] : bye, "0",
                           "orientationd did not run to a clean exit on SIGTERM (\(bye)); log:\n\(log("daemon.log"))")
        }
        bus?.stop()
        if let scratch { _ = runTool(["rm", "-rf", scratch]) }
        try super.tearDownWithError()
    }

    // MARK: Helpers

    func log(_ name: String) -> String { scratch.map { readText($0 + "/" + name) } ?? "" }

    /// Creates the fake device in `initial` (raw counts), with `ACCEL_MOUNT_MATRIX` when given, and
    /// starts iio-sensor-proxy and orientationd on it; then claims both.
    func start(initial: (Int, Int, Int), mountMatrix: String? = nil) throws {
        let daemonPath = productsDirectory() + "/orientationd"
        guard access(daemonPath, X_OK) == 0 else { throw DBusError.failed("no orientationd at \(daemonPath)") }
        let script = scratch + "/side-by-side.py"
        writeText(script, sideBySideDriverScript)
        let child = try Child(["/usr/bin/python3", script, bus.address, scratch, daemonPath,
                               "\(initial.0)", "\(initial.1)", "\(initial.2)"] + (mountMatrix.map { [$0] } ?? []),
                              logPath: scratch + "/driver.log", pipes: true)
        driver = child
        let first = try child.readLine()
        guard first.hasPrefix("ok ") else {
            throw DBusError.failed("the driver did not start both: \(first)\ndriver log:\n\(log("driver.log"))\n"
                                   + "iio-sensor-proxy log:\n\(log("iio-sensor-proxy.log"))\norientationd log:\n\(log("daemon.log"))")
        }
        _ = try client.callBlocking(destination: SensorProxy.busName, path: SensorProxy.path, interface: SensorProxy.busName,
                                    method: "ClaimAccelerometer", timeoutMs: 5000)
        _ = try client.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: Orientation1.managerInterface,
                                    method: "BeginGeneratingDeviceOrientationNotifications", timeoutMs: 5000)
    }

    func property(_ destination: String, _ path: String, _ interface: String, _ name: String) -> Value? {
        let reply = try? client.callBlocking(destination: destination, path: path, interface: StandardInterface.properties,
                                             method: "Get", values: [.string(interface), .string(name)], timeoutMs: 2000)
        return reply?.first.map { $0.variantValue ?? $0 }
    }

    /// What each says now: the peer's `AccelerometerOrientation`, our `DeviceOrientation`.
    func readings() -> (peer: String?, ours: UInt32?) {
        (property(SensorProxy.busName, SensorProxy.path, SensorProxy.busName, "AccelerometerOrientation")?.stringValue,
         property(Orientation1.busName, Orientation1.managerPath, Orientation1.managerInterface, "DeviceOrientation")?.uint32Value)
    }

    /// Sets the fake device (raw counts, scale 9.81/256); returns what both said just before.
    func pose(_ raw: (Int, Int, Int)) throws -> (peer: String?, ours: UInt32?) {
        let before = readings()
        let answer = try driver!.command("pose \(raw.0) \(raw.1) \(raw.2)")
        XCTAssertEqual(answer, "ok", "driver: pose \(raw)")
        return before
    }

    /// Polls both (the peer polls its device every 700 ms), up to `timeout` s, until each has left
    /// what it said `before` the pose (so neither is still reporting the previous pose: consecutive
    /// poses must differ) and reports `expected` (ours) or its string for it (theirs); then both say
    /// the same thing, and it is the table's.
    func expectBoth(_ expected: UInt32, _ what: String, changedFrom before: (peer: String?, ours: UInt32?)? = nil,
                    timeout: Double = 4, file: StaticString = #filePath, line: UInt = #line) {
        var last: (peer: String?, ours: UInt32?) = (nil, nil)
        func stale() -> Bool { before.map { last.peer == $0.peer || last.ours == $0.ours } ?? false }
        let settled = waitUntil(timeout) {
            last = readings()
            if !stale() && last.peer.flatMap({ sideBySidePeerOrientation[$0] }) == expected && last.ours == expected { return true }
            usleep(20_000)
            return false
        }
        if settled { return }
        let theirs = last.peer.flatMap { sideBySidePeerOrientation[$0] }
        var said = "iio-sensor-proxy says \(last.peer.map { "'\($0)'" } ?? "nothing") (→ \(theirs.map(String.init) ?? "none")), "
            + "orientationd says \(last.ours.map(String.init) ?? "nothing")"
        if let before {
            said += "; before the pose: '\(before.peer ?? "nothing")', \(before.ours.map(String.init) ?? "nothing")"
        }
        let logs = "\norientationd log:\n\(log("daemon.log"))\niio-sensor-proxy log (tail):\n"
            + log("iio-sensor-proxy.log").split(separator: "\n").suffix(15).joined(separator: "\n")
        if stale() {
            XCTFail("\(what): not both changed after \(timeout) s: \(said)\(logs)", file: file, line: line)
        } else if theirs != last.ours {
            XCTFail("\(what): they disagree after \(timeout) s: \(said)\(logs)", file: file, line: line)
        } else {
            XCTFail("\(what): they agree, but not on \(expected) (the table) after \(timeout) s: \(said)\(logs)", file: file, line: line)
        }
    }

    // MARK: Tests

    /// The four edges flat on, then each slightly tilted (10° off the edge, towards a neighbour);
    /// every pose differs from the one before it, so each one is a change both must follow.
    func testSameOrientationAsTheRealProxyOnOneFakeDevice() throws {
        let g = Self.g
        // 256·(sin 10°, cos 10°) ≈ (44, 252).
        let s = Int((Double(g) * sin(10 * Double.pi / 180)).rounded()), c = Int((Double(g) * cos(10 * Double.pi / 180)).rounded())
        try start(initial: (0, g, 0))
        expectBoth(2, "upside down from the start (bottom-up)")
        let poses: [(raw: (Int, Int, Int), expected: UInt32, what: String)] = [
            ((0, -g, 0), 1, "(0, -g, 0): portrait / normal"),
            ((-g, 0, 0), 3, "(-g, 0, 0): landscape-left / right-up"),
            ((g, 0, 0), 4, "(+g, 0, 0): landscape-right / left-up"),
            ((0, g, 0), 2, "(0, +g, 0): portrait-upside-down / bottom-up"),
            ((s, -c, 0), 1, "portrait tilted 10° towards left-up"),
            ((-c, s, 0), 3, "right-up tilted 10° towards bottom-up"),
            ((c, -s, 0), 4, "left-up tilted 10° towards normal"),
            ((-s, c, 0), 2, "bottom-up tilted 10° towards right-up"),
        ]
        for p in poses {
            expectBoth(p.expected, p.what, changedFrom: try pose(p.raw))
        }
    }

    /// A mount matrix from the udev property `ACCEL_MOUNT_MATRIX` (which both read): reading = M·raw,
    /// here (x, y, z) → (y, −x, z). Ignoring or transposing it would give other orientations.
    func testSameOrientationWithAMountMatrix() throws {
        let g = Self.g
        try start(initial: (g, 0, 0), mountMatrix: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        expectBoth(1, "raw (+g, 0, 0) reads (0, -g, 0): normal")
        for (raw, expected, what) in [((0, -g, 0), UInt32(3), "raw (0, -g, 0) reads (-g, 0, 0): right-up"),
                                      ((-g, 0, 0), 2, "raw (-g, 0, 0) reads (0, +g, 0): bottom-up"),
                                      ((0, g, 0), 4, "raw (0, +g, 0) reads (+g, 0, 0): left-up")] {
            expectBoth(expected, what, changedFrom: try pose(raw))
        }
        XCTAssertTrue(log("daemon.log").contains("from udev property ACCEL_MOUNT_MATRIX"), log("daemon.log"))
    }
}
