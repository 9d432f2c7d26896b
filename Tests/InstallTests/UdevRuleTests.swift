// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import TestSupport

/// udev reads the installed rule and asks systemd for orientationd.service when an accelerometer
/// appears, but not for one in a laptop's base, which the daemon ignores too. `udevadm test` runs
/// the real rules engine on a fake device under umockdev; the rule is put in /run/udev/rules.d of a
/// private mount namespace, so the machine's udev never sees it.
final class UdevRuleTests: XCTestCase {
    static let devicePath = "/devices/platform/accel/iio:device0"
    static let accelerometer = ["name=accel_3d", "in_accel_x_raw=0", "in_accel_y_raw=-256", "in_accel_z_raw=0",
                                "in_accel_scale=0.038307"]

    /// `udevadm test` of the installed `rule` on an IIO device with `attributes`, or the device
    /// `description` gives (at `devicePath`), under umockdev in a private mount namespace.
    private func udevadmTest(rule: String, attributes: [String], scratch: String, devicePath: String = devicePath,
                             description text: String? = nil) throws -> ToolResult {
        let description = scratch + "/device.umockdev"
        writeText(description, text ?? """
            P: \(devicePath)
            N: iio:device0
            E: DEVNAME=/dev/iio:device0
            E: SUBSYSTEM=iio

            """ + attributes.map { "A: \($0)\n" }.joined())
        let script = """
            mount -t tmpfs tmpfs /run && mkdir -p /run/udev/rules.d && cp "$1" /run/udev/rules.d/ || exit 77
            exec umockdev-run -d "$2" -- udevadm test --action=add "/sys$3"
            """
        let result = runTool(["unshare", "--mount", "sh", "-c", script, "sh", rule, description, devicePath], timeoutMs: 60_000)
        if result.status == 77 || result.stderr.contains("unshare failed") {
            throw unavailable("no private mount namespace here: \(result.stderr)")
        }
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("/run/udev/rules.d/80-orientationd.rules"), "udev read the rule: \(result.stderr)")
        return result
    }

    /// The properties `udevadm test` ends with, for an IIO device with `attributes`, or the device
    /// `description` gives (at `devicePath`).
    private func properties(rule: String, attributes: [String] = [], scratch: String, devicePath: String = devicePath,
                            description text: String? = nil) throws -> [String: String] {
        let result = try udevadmTest(rule: rule, attributes: attributes, scratch: scratch, devicePath: devicePath, description: text)
        var found: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            found[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return found
    }

    /// A buffered accelerometer: the rule hands its node (read) and the attributes that turn its buffer
    /// on (write) to the daemon's group, and nothing else.
    func testABufferedAccelerometersBufferGoesToTheDaemonsGroupAndNothingElse() throws {
        try assertHanded(["buffer/enable=0", "buffer/length=2", "scan_elements/in_accel_x_en=0", "scan_elements/in_accel_y_en=0",
                          "scan_elements/in_accel_z_en=0", "scan_elements/in_timestamp_en=0", "trigger/current_trigger=",
                          "in_accel_hysteresis=0", "sampling_frequency=10"],
                         handed: ["buffer/enable", "buffer/length", "scan_elements/in_accel_x_en", "scan_elements/in_accel_y_en",
                                  "scan_elements/in_accel_z_en", "scan_elements/in_timestamp_en", "trigger/current_trigger",
                                  "in_accel_hysteresis"])
    }

    /// An accelerometer with motion events: the rule hands its node (read) and the rising and either
    /// events' enable attributes (write) to the daemon's group; a falling event (free fall), a threshold
    /// value and everything else stay root's.
    func testAnAccelerometersMotionEventsGoToTheDaemonsGroupAndNothingElse() throws {
        try assertHanded(["events/in_accel_x&y&z_mag_rising_en=0", "events/in_accel_thresh_either_en=0",
                          "events/in_accel_x&y&z_mag_falling_en=0", "events/in_accel_x&y&z_mag_rising_value=100",
                          "sampling_frequency=10"],
                         handed: ["events/in_accel_x&y&z_mag_rising_en", "events/in_accel_thresh_either_en"])
    }

    /// Runs the installed rule on an accelerometer with `extra` attributes: its node goes to the daemon's
    /// group, readable; `udevadm test` shows the commands the rule runs, which are then run on the fake
    /// device as udev would, and exactly the `handed` attributes become the group's to write.
    private func assertHanded(_ extra: [String], handed: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        for tool in ["udevadm", "umockdev-run", "unshare", "stat"] where !toolExists(tool) {
            throw unavailable("\(tool) is not installed")
        }
        guard getuid() == 0 else { throw unavailable("a mount namespace needs root") }
        if runTool(["getent", "group", "orientationd"]).status != 0 {
            XCTAssertEqual(runTool(["groupadd", "--system", "orientationd"]).status, 0, "the daemon's group (sysusers) is missing")
        }
        let install = try Installation()
        defer { install.remove() }
        let rule = "\(install.prefix)/lib/udev/rules.d/80-orientationd.rules"
        let result = try udevadmTest(rule: rule, attributes: Self.accelerometer + extra, scratch: install.root)
        let description = install.root + "/device.umockdev"
        let ruleLines = result.stderr.split(separator: "\n").filter { $0.contains("80-orientationd.rules:") }
        XCTAssertTrue(ruleLines.contains { $0.hasSuffix(" MODE 0640") }, "the node is readable by the group: \(ruleLines)",
                      file: file, line: line)
        XCTAssertTrue(ruleLines.contains { $0.contains(" GROUP ") }, "the node goes to the group: \(ruleLines)", file: file, line: line)
        let commands = result.stdout.split(separator: "\n").filter { $0.hasPrefix("run: '/bin/sh -c") }
            .map { String($0.dropFirst("run: '".count).dropLast()) }
        XCTAssertFalse(commands.isEmpty, result.stdout, file: file, line: line)

        // Run as udev runs it, on the fake device, then look at every attribute.
        let attributes = (Self.accelerometer + extra).map { String($0.split(separator: "=")[0]) }
        let base = "/sys" + Self.devicePath
        let check = runTool(["umockdev-run", "-d", description, "--", "sh", "-c",
                             commands.joined(separator: "; ") + "; cd \(base) && stat -c '%n %G %A' "
                                + attributes.map { "'\($0)'" }.joined(separator: " ")])
        XCTAssertEqual(check.status, 0, check.stderr, file: file, line: line)
        var owners: [String: String] = [:]
        for output in check.stdout.split(separator: "\n") {
            let parts = output.split(separator: " ")
            if parts.count == 3 { owners[String(parts[0])] = "\(parts[1]) \(parts[2])" }
        }
        for attribute in attributes {
            let owner = try XCTUnwrap(owners[attribute], "\(attribute): \(check.stdout)", file: file, line: line)
            if handed.contains(attribute) {
                XCTAssertEqual(owner, "orientationd -rw-rw-r--", attribute, file: file, line: line)
            } else {
                // "root -rw-r--r--": the mode's sixth character is the group's write bit.
                let mode = Array(owner.dropFirst("root ".count))
                XCTAssertTrue(owner.hasPrefix("root ") && mode.count == 10 && mode[5] != "w",
                              "\(attribute) stays root's, not group-writable: \(owner)", file: file, line: line)
            }
        }
    }

    /// The project installed in a scratch prefix, where `udevadm test` can run the rule: skipped
    /// without the tools or without root (a mount namespace).
    private func installation() throws -> Installation {
        for tool in ["udevadm", "umockdev-run", "unshare"] where !toolExists(tool) {
            throw unavailable("\(tool) is not installed")
        }
        guard getuid() == 0 else { throw unavailable("a mount namespace needs root") }
        return try Installation()
    }

    func testAnAccelerometerWantsTheService() throws {
        let install = try installation()
        defer { install.remove() }
        let rule = "\(install.prefix)/lib/udev/rules.d/80-orientationd.rules"

        let accelerometer = try properties(rule: rule, attributes: Self.accelerometer, scratch: install.root)
        XCTAssertTrue(accelerometer["SYSTEMD_WANTS"]?.split(separator: " ").contains("orientationd.service") == true,
                      "\(accelerometer)")
        XCTAssertTrue(accelerometer["TAGS"]?.contains(":systemd:") == true, "\(accelerometer)")

        let inTheBase = try properties(rule: rule, attributes: Self.accelerometer + ["location=base"], scratch: install.root)
        XCTAssertEqual(inTheBase["SUBSYSTEM"], "iio")
        XCTAssertFalse(inTheBase["SYSTEMD_WANTS"]?.contains("orientationd.service") == true, "\(inTheBase)")

        // Two axes are not an accelerometer the daemon can use; a light sensor is none at all.
        for attributes in [["name=accel_2d", "in_accel_x_raw=0", "in_accel_y_raw=0"], ["name=als", "in_illuminance_raw=12"]] {
            let other = try properties(rule: rule, attributes: attributes, scratch: install.root)
            XCTAssertEqual(other["SUBSYSTEM"], "iio")
            XCTAssertFalse(other["SYSTEMD_WANTS"]?.contains("orientationd.service") == true, "\(attributes): \(other)")
        }

        // An evdev accelerometer wants it too; another input device does not.
        func input(_ accelerometer: Bool) throws -> [String: String] {
            try properties(rule: rule, scratch: install.root, devicePath: "/devices/platform/lis3lv02d/input/input7/event7",
                           description: """
                               P: /devices/platform/lis3lv02d/input/input7/event7
                               N: input/event7
                               E: DEVNAME=/dev/input/event7
                               E: SUBSYSTEM=input
                               E: ID_INPUT=1
                               \(accelerometer ? "E: ID_INPUT_ACCELEROMETER=1\n" : "E: ID_INPUT_KEYBOARD=1\n")A: dev=13:71

                               """)
        }
        let evdev = try input(true)
        XCTAssertTrue(evdev["SYSTEMD_WANTS"]?.split(separator: " ").contains("orientationd.service") == true, "\(evdev)")
        let keyboard = try input(false)
        XCTAssertEqual(keyboard["SUBSYSTEM"], "input")
        XCTAssertFalse(keyboard["SYSTEMD_WANTS"]?.contains("orientationd.service") == true, "\(keyboard)")
    }

    /// A touchscreen and a pen: the daemon's group gets read access to the node by an ACL entry, the
    /// node keeps its group, and the service is not asked for; a keyboard gets nothing (P20).
    func testTouchscreensAndPensAreReadableByTheDaemonsGroup() throws {
        let install = try installation()
        defer { install.remove() }
        let rule = "\(install.prefix)/lib/udev/rules.d/80-orientationd.rules"
        func run(_ property: String) throws -> ToolResult {
            let path = "/devices/platform/i2c-ELAN2514:00/input/input12/event12"
            return try udevadmTest(rule: rule, attributes: [], scratch: install.root, devicePath: path, description: """
                P: \(path)
                N: input/event12
                E: DEVNAME=/dev/input/event12
                E: SUBSYSTEM=input
                E: ID_INPUT=1
                E: \(property)=1
                A: dev=13:76

                """)
        }
        for property in ["ID_INPUT_TOUCHSCREEN", "ID_INPUT_TABLET", "ID_INPUT_KEYBOARD"] {
            let result = try run(property)
            let commands = result.stdout.split(separator: "\n").filter { $0.hasPrefix("run: ") }
            let acl = commands.filter { $0.contains("setfacl -m g:orientationd:r /dev/input/event12") }
            let ruleLines = result.stderr.split(separator: "\n").filter { $0.contains("80-orientationd.rules:") }
            XCTAssertFalse(ruleLines.contains { $0.contains(" GROUP ") }, "\(property): the node keeps its group: \(ruleLines)")
            XCTAssertFalse(result.stdout.contains("SYSTEMD_WANTS=orientationd.service"), "\(property): \(result.stdout)")
            if property == "ID_INPUT_KEYBOARD" {
                XCTAssertTrue(acl.isEmpty, "a keyboard is never the daemon's: \(commands)")
            } else {
                XCTAssertEqual(acl.count, 1, "\(property): \(result.stdout)")
            }
        }
    }
}
