// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import TestSupport

/// systemd itself reads the installed unit: `systemd-analyze verify` checks its keys, that the
/// program it starts exists, and that the manual pages it names are found.
final class SystemdUnitTests: XCTestCase {
    func testTheInstalledUnitVerifies() throws {
        guard toolExists("systemd-analyze") else { throw unavailable("systemd-analyze is not installed") }
        let install = try Installation()
        defer { install.remove() }
        let unit = "\(install.prefix)/lib/systemd/system/orientationd.service"
        let result = runTool(["env", "MANPATH=\(install.prefix)/share/man", "systemd-analyze", "verify", unit], timeoutMs: 60_000)
        XCTAssertEqual(result.status, 0, result.stderr)
        // Other units of the machine may have their own complaints; none may be about this one.
        let ours = result.stderr.split(separator: "\n").filter { $0.contains("orientationd") }
        XCTAssertEqual(ours, [], result.stderr)
    }
}
