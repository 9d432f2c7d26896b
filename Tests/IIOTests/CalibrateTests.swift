// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// 1 g as raw counts with scale 9.81/256.
private let g = 256.0
private let scale = "0.038320312"
private let dmi = "dmi:bvnINSYDECorp.:bvrV1.05:bd05/10/2021:br1.5:efr1.5:svnCHUWIInnovationAndTechnology(ShenZhen)co.,Ltd:pnMiniBookX:pvrDefaultString:rvnCHUWIInnovationAndTechnology(ShenZhen)co.,Ltd:rnMiniBookX:rvrDefaultString:cvnDefaultString:ct10:cvrDefaultString:skuCWI526:"
private let parentModalias = "acpi:BOSC0200:BOSC0200:"

/// Every signed permutation of the axes: the 48 ways a sensor sits square in a device.
private func signedPermutations() -> [[[Int]]] {
    var result: [[[Int]]] = []
    for permutation in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
        for signs in 0..<8 {
            var rows = [[Int]](repeating: [0, 0, 0], count: 3)
            for row in 0..<3 { rows[row][permutation[row]] = (signs >> row) & 1 == 0 ? 1 : -1 }
            result.append(rows)
        }
    }
    return result
}

/// `a, b, c; d, e, f; g, h, i`.
private func text(_ m: [[Int]]) -> String { m.map { $0.map(String.init).joined(separator: ", ") }.joined(separator: "; ") }

/// The raw attributes a sensor mounted with `mount` (device = mount × raw) shows when the device
/// reads `device` in g: the transpose undoes a signed permutation.
private func rawAttributes(_ device: (Double, Double, Double), mount m: [[Int]]) -> [String: String] {
    let d = [device.0, device.1, device.2]
    var values: [String: String] = [:]
    for (column, axis) in ["x", "y", "z"].enumerated() {
        let value = (0..<3).reduce(0.0) { $0 + Double(m[$1][column]) * d[$1] } * g
        values["in_accel_\(axis)_raw"] = String(Int(value.rounded()))
    }
    return values
}

/// `orientationctl calibrate` driven through its prompts under umockdev, with a daemon reading the
/// same accelerometer (Docs/sensors.md, "Calibration").
final class CalibrateTests: TestbedTestCase {
    var claimant: Connection?
    let upright = (0.0, -1.0, 0.0), rightEdgeUp = (-1.0, 0.0, 0.0), faceUp = (0.0, 0.0, 1.0)

    override func tearDownWithError() throws {
        claimant?.close()
        claimant = nil
        try super.tearDownWithError()
    }

    /// A machine with DMI data and an accelerometer on an ACPI parent mounted as `mount`.
    @discardableResult
    func addMachine(mount: [[Int]], label: String? = nil, name: String = "iio:device0",
                    parent: String = "i2c-BOSC0200:00") throws -> String {
        if (try? testbed.read("/sys/class/dmi/id/modalias")) ?? "" == "" {
            try testbed.add("id", subsystem: "dmi", attributes: ["modalias": dmi, "sys_vendor": "CHUWI Innovation And Technology(ShenZhen)co.,Ltd",
                                                                 "product_name": "MiniBook X"])
        }
        let parentPath = try testbed.add(parent, subsystem: "i2c", attributes: ["modalias": parentModalias])
        var attributes = rawAttributes(upright, mount: mount)
        attributes["name"] = "bmi160"
        attributes["in_accel_scale"] = scale
        if let label { attributes["label"] = label }
        return try testbed.add(name, parent: parentPath, attributes: attributes)
    }

    /// One step of a script: what the test does when the tool asks (`prompt` is a word of the
    /// line that asks), then whether it presses Enter.
    struct Step {
        var prompt = "press Enter"
        var before: () throws -> Void = {}
        /// Done about 300 ms after Enter, while the tool reads.
        var during: (() throws -> Void)?
        var answer = ""
    }

    /// Runs `orientationctl calibrate ARGUMENTS` in the testbed and plays `steps`; its whole output and exit status.
    /// Without `stdinPipe`, standard input is /dev/null: the input ends at once.
    func calibrate(_ arguments: [String], _ steps: [Step], environment: [String: String]? = nil,
                   stdinPipe: Bool = true) throws -> (output: String, status: Int32) {
        let child = try ChildProcess([programsDirectory() + "/orientationctl", "--address", bus.address, "calibrate"] + arguments,
                                     output: .pipe(stderr: scratch + "/calibrate.err"), environment: environment ?? testbedEnvironment,
                                     stdinPipe: stdinPipe)
        var output = ""
        for step in steps {
            while true {
                let line = try child.readLine(timeout: 20)
                output += line + "\n"
                if line.contains(step.prompt) { break }
            }
            try step.before()
            child.send(step.answer)
            if let during = step.during {
                usleep(300_000)
                try during()
            }
        }
        while let line = try? child.readLine(timeout: 20) { output += line + "\n" }
        let status = child.waitForExit(timeout: 20) ?? -1
        return (output + readText(scratch + "/calibrate.err"), status)
    }

    /// The three poses of a sensor mounted as `mount`, at `path`.
    func poses(_ path: String, _ mount: [[Int]]) -> [Step] {
        [upright, rightEdgeUp, faceUp].map { pose in Step(before: { try self.testbed.set(path, rawAttributes(pose, mount: mount)) }) }
    }

    func property(_ name: String) throws -> Value {
        let reply = try probe.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: StandardInterface.properties,
                                           method: "Get", values: [.string(Orientation1.managerInterface), .string(name)], timeoutMs: 5000)
        return reply.first?.variantValue ?? reply.first ?? .string("")
    }

    func claim() throws {
        let c = try Connection(bus: .address(bus.address))
        _ = try c.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: Orientation1.managerInterface,
                               method: "BeginGeneratingDeviceOrientationNotifications", timeoutMs: 5000)
        claimant = c
    }

    func reads(_ name: String, _ expected: Value, within seconds: Double = 3) -> Bool {
        waitUntil(seconds) {
            if (try? property(name)) == expected { return true }
            usleep(20_000)
            return false
        }
    }

    func hwdb(_ root: String) -> String { readText(root + "/etc/udev/hwdb.d/61-sensor-local.hwdb") }

    /// What `argv` prints and its exit status.
    func output(_ argv: [String]) throws -> (String, Int32) {
        runs += 1
        let child = try ChildProcess(argv, output: .file(scratch + "/tool-\(runs).log"))
        let status = child.waitForExit(timeout: 30) ?? -1
        return (child.log, status)
    }
    private var runs = 0

    // MARK: The 48 mounts

    /// For each of the 48 ways a sensor can sit, the tool finds the matrix, and the daemon, given it as
    /// udev would after `systemd-hwdb update`, reports all six poses right.
    func testEveryMountIsFoundAndMakesTheDaemonReportAllSixPoses() throws {
        let mounts = signedPermutations()
        let path = try addMachine(mount: mounts[0])
        writeText(scratch + "/orientationd.conf", "[Classifier]\nSettleMs=0\nHoldOffMs=0\n")
        try launch(["--sensor", "iio", "--config", scratch + "/orientationd.conf"])
        try claim()
        let sixPoses: [((Double, Double, Double), UInt32)] = [(upright, 1), ((0, 1, 0), 2), (rightEdgeUp, 3), ((1, 0, 0), 4),
                                                               (faceUp, 5), ((0, 0, -1), 6)]
        let root = scratch + "/root"
        for (n, mount) in mounts.enumerated() {
            let run = try calibrate(["--root", root, "--yes", "--hold-ms", "150"], poses(path, mount))
            XCTAssertEqual(run.status, 0, run.output)
            XCTAssertTrue(run.output.contains("iio:device0: measured \(text(mount))"), "mount \(n) \(text(mount)):\n\(run.output)")
            if run.output.contains("they differ") {
                let entries = hwdb(root).split(separator: "\n").filter { $0.hasPrefix(" ACCEL_MOUNT_MATRIX=") }
                XCTAssertEqual(entries, [" ACCEL_MOUNT_MATRIX=" + Substring(text(mount))], "mount \(n):\n\(run.output)")
            } else {
                // Only the first: the matrix in force (the identity) is already right.
                XCTAssertEqual(n, 0, run.output)
                XCTAssertTrue(run.output.contains("nothing to write"), run.output)
            }
            // udev's part, as `systemd-hwdb update` and `udevadm trigger` would do it.
            try testbed.setProperty(path, "ACCEL_MOUNT_MATRIX", text(mount))
            try testbed.uevent(path, "change")
            for (pose, expected) in sixPoses {
                try testbed.set(path, rawAttributes(pose, mount: mount))
                XCTAssertTrue(reads("DeviceOrientation", .uint32(expected)),
                              "mount \(text(mount)), pose \(pose): \((try? property("DeviceOrientation")).map { "\($0)" } ?? "?")\n\(daemon!.log.suffix(2000))")
            }
        }
    }

    // MARK: Refusals

    func testAMovedOffOrAmbiguousPoseIsRefusedAndAskedAgain() throws {
        let mount = [[0, -1, 0], [1, 0, 0], [0, 0, 1]]
        let path = try addMachine(mount: mount)
        func set(_ device: (Double, Double, Double)) -> () throws -> Void { { try self.testbed.set(path, rawAttributes(device, mount: mount)) } }
        let root = scratch + "/root"
        let run = try calibrate(["--root", root, "--yes"], [
            Step(before: set(upright), during: set(rightEdgeUp)),                    // moved while read
            Step(before: set((0, -1.3, 0))),                                          // 1.3 g
            Step(before: set((0.6, -0.8, 0))),                                        // between two edges
            Step(before: set(upright)),
            Step(before: set((0, 1, 0))),                                             // upside down: the same axis
            Step(before: set(rightEdgeUp)),
            Step(before: set(faceUp)),
        ])
        XCTAssertEqual(run.status, 0, run.output)
        for reason in ["Refused: the device moved", "Refused: the magnitude read is 1.3 g", "Refused: the pose is between two",
                       "Refused: gravity is along the sensor's x axis again, as in the upright pose"] {
            XCTAssertTrue(run.output.contains(reason), "\(reason)\n\(run.output)")
        }
        XCTAssertTrue(hwdb(root).contains(" ACCEL_MOUNT_MATRIX=0, -1, 0; 1, 0, 0; 0, 0, 1\n"), hwdb(root))
        XCTAssertTrue(run.output.contains("measured 0, -1, 0; 1, 0, 0; 0, 0, 1; in force 1, 0, 0; 0, 1, 0; 0, 0, 1: they differ"), run.output)
    }

    func testTheInputEndingWritesNothing() throws {
        try addMachine(mount: [[0, -1, 0], [1, 0, 0], [0, 0, 1]])
        let root = scratch + "/root"
        let run = try calibrate(["--root", root, "--yes"], [], stdinPipe: false)
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertTrue(run.output.contains("the input ended before the upright pose was read; nothing was written"), run.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/etc/udev/hwdb.d/61-sensor-local.hwdb"))
    }

    // MARK: What udev reads

    /// The file passes `systemd-hwdb --strict` and udev's lookup string for the device finds the matrix;
    /// a second run replaces the entry instead of adding one.
    func testTheEntryIsWhatSystemdHwdbReadsForTheDevice() throws {
        guard access("/usr/bin/systemd-hwdb", X_OK) == 0 || access("/bin/systemd-hwdb", X_OK) == 0 else {
            throw XCTSkip("systemd-hwdb is not installed (apt: udev)")
        }
        let mount = [[0, 0, -1], [-1, 0, 0], [0, 1, 0]]
        let path = try addMachine(mount: mount)
        let root = scratch + "/root"
        for _ in 0..<2 {
            let run = try calibrate(["--root", root, "--yes", "--hold-ms", "200"], poses(path, mount))
            XCTAssertEqual(run.status, 0, run.output)
            XCTAssertTrue(run.output.contains("send this to systemd"), run.output)
        }
        let file = hwdb(root)
        XCTAssertEqual(file.components(separatedBy: "sensor:modalias:").count, 2, "one entry: \(file)")
        XCTAssertTrue(file.contains("# CHUWI Innovation And Technology(ShenZhen)co.,Ltd MiniBook X\n"
                                    + "sensor:modalias:acpi:BOSC0200*:dmi:*:svnCHUWIInnovationAndTechnology(ShenZhen)co.,Ltd:pnMiniBookX:*\n"
                                    + " ACCEL_MOUNT_MATRIX=0, 0, -1; -1, 0, 0; 0, 1, 0\n"), file)
        let (updated, status) = try output(["systemd-hwdb", "--strict", "--root", root, "update"])
        XCTAssertEqual(status, 0, updated)
        let (found, queried) = try output(["systemd-hwdb", "--root", root, "query", "sensor:modalias:\(parentModalias):\(dmi)"])
        XCTAssertEqual(queried, 0, found)
        XCTAssertEqual(found.trimmingCharacters(in: .whitespacesAndNewlines), "ACCEL_MOUNT_MATRIX=0, 0, -1; -1, 0, 0; 0, 1, 0")
        let (other, _) = try output(["systemd-hwdb", "--root", root, "query", "sensor:modalias:\(parentModalias):dmi:bvnX:svnOther:pnThing:"])
        XCTAssertEqual(other.trimmingCharacters(in: .whitespacesAndNewlines), "", "another machine is not matched")
    }

    /// A convertible with labelled accelerometers in the display and the base, held closed: one
    /// entry each, in the label form, and each matrix makes both read the same.
    func testLabelledDisplayAndBaseAccelerometersGetTheLabelForm() throws {
        let displayMount = [[0, 1, 0], [-1, 0, 0], [0, 0, 1]], baseMount = [[-1, 0, 0], [0, 0, 1], [0, 1, 0]]
        let display = try addMachine(mount: displayMount, label: "accel-display")
        let base = try addMachine(mount: baseMount, label: "accel-base", name: "iio:device1", parent: "i2c-BOSC0200:01")
        let root = scratch + "/root"
        let steps = [upright, rightEdgeUp, faceUp].map { pose in
            Step(before: {
                try self.testbed.set(display, rawAttributes(pose, mount: displayMount))
                try self.testbed.set(base, rawAttributes(pose, mount: baseMount))
            })
        }
        let run = try calibrate(["--root", root, "--yes", "--hold-ms", "200"], steps)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.output.contains("hold the device closed"), run.output)
        let file = hwdb(root)
        let pattern = ":modalias:acpi:BOSC0200*:dmi:*:svnCHUWIInnovationAndTechnology(ShenZhen)co.,Ltd:pnMiniBookX:*\n"
        XCTAssertTrue(file.contains("sensor:accel-display" + pattern + " ACCEL_MOUNT_MATRIX=" + text(displayMount) + "\n"), file)
        XCTAssertTrue(file.contains("sensor:accel-base" + pattern + " ACCEL_MOUNT_MATRIX=" + text(baseMount) + "\n"), file)
        if access("/usr/bin/systemd-hwdb", X_OK) == 0 || access("/bin/systemd-hwdb", X_OK) == 0 {
            XCTAssertEqual(try output(["systemd-hwdb", "--strict", "--root", root, "update"]).1, 0)
            let (found, _) = try output(["systemd-hwdb", "--root", root, "query", "sensor:accel-base:modalias:\(parentModalias):\(dmi)"])
            XCTAssertEqual(found.trimmingCharacters(in: .whitespacesAndNewlines), "ACCEL_MOUNT_MATRIX=" + text(baseMount))
        }
    }

    // MARK: The hinge

    /// A hinge whose computed angle stops at 152°: tablet posture never comes with the defaults; the
    /// tool measures the range, writes thresholds inside it, has the daemon read them (SIGHUP), and
    /// folded back the device is a tablet.
    func testAHingeThatStopsAt152ReachesTabletAfterCalibration() throws {
        try addMachine(mount: [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
        let hinge = try testbed.add("iio:device2", attributes: ["name": "hinge", "in_angl0_raw": "0", "in_angl_scale": "0.017453293"])
        let config = scratch + "/orientationd.conf"
        writeText(config, "")
        try launch(["--sensor", "iio", "--config", config])
        try claim()
        func fold(_ degrees: Int) -> () throws -> Void { { try self.testbed.set(hinge, "in_angl0_raw", "\(degrees)") } }
        try fold(152)()
        XCTAssertTrue(waitUntil(3) { abs(((try? self.property("HingeAngle"))?.doubleValue ?? 0) - 152) < 0.01 }, daemon!.log)
        XCTAssertEqual(try property("Posture"), .string("laptop"), "152° is a laptop with the defaults")
        let run = try calibrate(["hinge", "--config", config, "--yes"], [
            Step(before: fold(0)), Step(before: fold(100)), Step(before: fold(128)), Step(before: fold(152)),
        ], environment: [:])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.output.contains("The hinge reached 0° to 152°, flat at 128°."), run.output)
        XCTAssertTrue(run.output.contains("tablet posture is out of reach (entered at 350°)"), run.output)
        XCTAssertEqual(readText(config + ".d/50-calibration.conf").split(separator: "\n").dropFirst().joined(separator: "\n"),
                       "[Posture]\nLaptopAngle=130\nTabletAngle=148\nHysteresis=2")
        XCTAssertTrue(run.output.contains("orientationd now reads the posture tablet at 152°."), run.output)
        XCTAssertEqual(try property("Posture"), .string("tablet"))
        XCTAssertTrue(daemon!.log.contains("reload: [Posture] LaptopAngle=130.0 TabletAngle=148.0 Hysteresis=2.0"), daemon!.log)
        // Opened back to a laptop, it is one again.
        try fold(100)()
        XCTAssertTrue(reads("Posture", .string("laptop")), daemon!.log)
    }

    /// A reload that finds a bad value keeps what is in force; keys other than the hinge's wait for a restart.
    func testAReloadKeepsTheConfigurationInForceOnABadValue() throws {
        let hinge = try testbed.add("iio:device2", attributes: ["name": "hinge", "in_angl0_raw": "200", "in_angl_scale": "0.017453293"])
        let config = scratch + "/orientationd.conf"
        writeText(config, "[Posture]\nTabletAngle=300\n")
        try launch(["--sensor", "iio", "--config", config])
        try claim()
        XCTAssertTrue(reads("Posture", .string("stand")), daemon!.log)
        writeText(config, "[Posture]\nTabletAngle=400\n")
        daemon!.signal(SIGHUP)
        XCTAssertTrue(waitUntil(3) { self.daemon!.log.contains("reload: ") }, daemon!.log)
        XCTAssertTrue(daemon!.log.contains("TabletAngle=400: accepted: degrees from 100.0 to 360.0; the configuration in force stays"), daemon!.log)
        writeText(config, "[Posture]\nLaptopAngle=150\nTabletAngle=180\n[Sensor]\nPollHz=10\n")
        daemon!.signal(SIGHUP)
        XCTAssertTrue(reads("Posture", .string("tablet")), daemon!.log)
        XCTAssertTrue(daemon!.log.contains("reload: [Sensor] PollHz changed in the files; it takes effect when orientationd restarts"), daemon!.log)
        try testbed.set(hinge, "in_angl0_raw", "100")
        XCTAssertTrue(reads("Posture", .string("laptop")), daemon!.log)
        XCTAssertTrue(daemon!.isRunning)
    }

    // MARK: A matrix that is probably wrong

    /// In laptop posture the display stands upright: reading another edge up for 10 s is logged once
    /// and shown as MountMatrixSuspect, which a matrix that reads upright clears.
    func testALaptopWhoseDisplayReadsSidewaysIsSuspected() throws {
        let path = try addMachine(mount: [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
        try testbed.add("iio:device2", attributes: ["name": "hinge", "in_angl0_raw": "110", "in_angl_scale": "0.017453293"])
        try launch(["--sensor", "iio"])
        try claim()
        XCTAssertTrue(reads("Posture", .string("laptop")), daemon!.log)
        try testbed.set(path, rawAttributes(rightEdgeUp, mount: [[1, 0, 0], [0, 1, 0], [0, 0, 1]]))
        XCTAssertTrue(reads("DeviceOrientation", .uint32(3)), daemon!.log)
        usleep(8_000_000)
        XCTAssertEqual(try property("MountMatrixSuspect"), .bool(false), "not before 10 s")
        XCTAssertTrue(reads("MountMatrixSuspect", .bool(true), within: 4), daemon!.log)
        XCTAssertEqual(daemon!.log.components(separatedBy: "its mount matrix is probably wrong; 'orientationctl calibrate'").count, 2,
                       daemon!.log)
        let status = try output([programsDirectory() + "/orientationctl", "--address", bus.address, "status"])
        XCTAssertTrue(status.0.split(separator: "\n").contains { $0.hasPrefix("MountMatrixSuspect:") && $0.hasSuffix(" yes") }, status.0)
        XCTAssertTrue(status.0.contains("'sudo orientationctl calibrate' measures it"), status.0)
        // The fix: udev's new matrix turns the reading upright.
        try testbed.setProperty(path, "ACCEL_MOUNT_MATRIX", "0, -1, 0; 1, 0, 0; 0, 0, 1")
        try testbed.uevent(path, "change")
        XCTAssertTrue(reads("DeviceOrientation", .uint32(1)), daemon!.log)
        XCTAssertTrue(reads("MountMatrixSuspect", .bool(false)), daemon!.log)
    }
}
