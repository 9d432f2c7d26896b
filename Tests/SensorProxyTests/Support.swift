// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import EventLoop
import TestSupport

typealias Child = ChildProcess

/// Whether the real peer can be run here: iio-sensor-proxy, umockdev-wrapper, dbus-monitor and
/// a /usr/bin/python3 with gi's UMockdev and Gio.
func peerMissing() -> String? {
    for tool in ["/usr/sbin/iio-sensor-proxy", "/usr/bin/umockdev-wrapper", "/usr/bin/dbus-monitor", "/usr/bin/python3"]
    where access(tool, X_OK) != 0 {
        return "\(tool) is not installed (apt: iio-sensor-proxy umockdev dbus-bin python3-gi gir1.2-umockdev-1.0)"
    }
    let check = pythonImports(["gi.repository.UMockdev@1.0", "gi.repository.Gio"])
    if check.status != 0 { return "/usr/bin/python3 cannot import gi's UMockdev and Gio: \(check.stderr)" }
    return nil
}

/// Skips the test when the peer cannot run here, but fails it under CI, where a missing package is a bug.
func requirePeer() throws {
    if let missing = peerMissing() { throw unavailable(missing) }
}
