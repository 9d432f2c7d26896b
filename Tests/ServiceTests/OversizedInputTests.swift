// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// dbus-api.md, "Privilege": argument types are checked against the signature before any value is
/// decoded, and arrays and strings are bounded while read, so an oversized or wrongly typed message
/// costs no more than its rejection (Docs/security.md: a 30 MiB wrongly typed value refused in under 1 s
/// with under 100 MB of peak growth). The payloads come from a Python GIO client
/// (Fixtures/oversized-call.py), which builds them without holding millions of values itself; each
/// prints the error, the seconds to it, and the daemon's peak growth.
final class OversizedInputTests: DaemonTestCase {
    /// Sends one of Fixtures/oversized-call.py's calls and returns the D-Bus error name and the
    /// seconds until it came back.
    private func send(_ name: String, _ object: String? = nil) -> (error: String, seconds: Double, output: String) {
        let r = runTool(["/usr/bin/python3", packageRoot + "/Tests/ServiceTests/Fixtures/oversized-call.py", bus.address, name]
                        + (object.map { [$0] } ?? []), timeoutMs: 60_000)
        let first = r.stdout.split(separator: "\n").first?.split(separator: " ") ?? []
        return (first.first.map(String.init) ?? "none: \(r.stderr)", first.count > 1 ? Double(first[1]) ?? -1 : -1, r.stdout)
    }

    private func kB(_ field: String) -> Int {
        guard let pid = daemon?.pid else { return 0 }
        let line = readText("/proc/\(pid)/status").split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Runs `body`, then asserts the refusal, prints the figures, and checks the daemon's peak growth.
    private func assertCheaplyRefused(_ what: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line,
                                      _ body: () -> (error: String, seconds: Double, output: String)) {
        let before = kB("VmRSS")
        let result = body()
        let growthMB = Double(kB("VmHWM") - before) / 1024
        print("\(what): \(result.error) after \(String(format: "%.3f", result.seconds)) s; daemon peak growth \(String(format: "%.1f", growthMB)) MB")
        XCTAssertEqual(result.error, expected, result.output, file: file, line: line)
        XCTAssertLessThan(growthMB, 100, "\(what): the daemon grew by \(growthMB) MB to refuse it", file: file, line: line)
        // A generous bound, not the target: the machine is shared.
        XCTAssertLessThan(result.seconds, 10, "\(what): refused only after \(result.seconds) s", file: file, line: line)
        XCTAssertTrue(daemon?.isRunning ?? false, "\(what): the daemon must survive", file: file, line: line)
    }

    func testA30MiBValueOfTheWrongTypeIsRefusedFromItsSignature() throws {
        try set("RotationLocked", .bool(false))
        assertCheaplyRefused("Set RotationLocked to 30 MiB of bytes", std("InvalidArgs")) {
            send("set-30mib-bytes")
        }
        XCTAssertEqual(try b("RotationLocked"), false, "state unchanged")
    }

    func testMillionsOfPathsAreRefusedAtTheArrayBound() throws {
        let app = try newClient()
        let nav = try createController(app, "navigation")
        // Short paths, so a million fit easily in the bus's 32 MiB.
        assertCheaplyRefused("SetViewControllers with 1,000,000 paths", std("LimitsExceeded")) {
            send("million-paths", nav)
        }
        XCTAssertEqual(try get("ViewControllers", nav, on: app), .objectPaths([]), "state unchanged")
    }

    func testA30MiBStringIsRefusedBeforeItIsCopied() throws {
        assertCheaplyRefused("CreateController with a 30 MiB kind", std("LimitsExceeded")) {
            send("30mib-kind")
        }
        assertCheaplyRefused("Get with a 30 MiB interface name", std("LimitsExceeded")) {
            send("30mib-interface")
        }
        XCTAssertFalse(tree().contains("/controller/"), "nothing was created")
    }

    func testWrongSignaturesAreRefusedWithoutDecoding() throws {
        // Right method, arguments of another type: refused from the header's signature.
        assertCheaplyRefused("SetDeviceOrientation with 30 MiB of bytes", std("InvalidArgs")) {
            send("device-30mib-bytes")
        }
        XCTAssertEqual(try u("DeviceOrientation"), 0)
    }
}
