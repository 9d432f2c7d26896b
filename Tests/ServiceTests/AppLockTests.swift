// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import DBus
import OrientationAPI
import TestSupport

/// P17 on the bus: a controller's `PrefersOrientationLocked` (property and method) holds the interface
/// orientation against device turns while it decides, and the manager says so.
final class AppLockTests: DaemonTestCase {
    override class var inProcess: Bool { true }
    func testP17_aVideoPlayerHoldsItsOrientationWithoutTheUsersLock() throws {
        let app = try newClient()
        try claim(app)
        let window = try registerWindow(app)
        let player = try createController(app)
        try setRoot(app, window, player)
        let recorder = try newRecorder()
        _ = try ctl(app, player, "SetPrefersOrientationLocked", [.bool(true)])
        XCTAssertEqual(try b("InterfaceLockedByApplication"), true)
        XCTAssertEqual(try b("RotationLocked"), false, "the user's lock is left alone")
        XCTAssertTrue(recorder.wait { $0.changed["InterfaceLockedByApplication"] == .bool(true) }, "\(recorder.events)")

        try setDevice(3)
        XCTAssertEqual(try u("DeviceOrientation"), 3)
        XCTAssertEqual(try u("InterfaceOrientation"), 1, "a device turn rotated the held orientation")

        // Written as a property too; unlocking catches up with the device.
        try set("PrefersOrientationLocked", .bool(false), player, on: app)
        XCTAssertTrue(recorder.wait { $0.member == "DidChange" && $0.uints == [1, 3] }, "\(recorder.events)")
        XCTAssertEqual(try b("InterfaceLockedByApplication"), false)
        assertError(std("AccessDenied")) { _ = try self.ctl(try self.newClient(), player, "SetPrefersOrientationLocked", [.bool(true)]) }
    }
}
