@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// dbus-api.md, "Privilege": privileged calls from clients running as other users.
class PrivilegeTestCase: DaemonTestCase {
    func setLock(_ locked: Bool, on client: Connection) throws { try set("RotationLocked", .bool(locked), on: client) }
}

/// `InjectAcceleration` checks the privilege before anything else, so its answer tells an
/// unprivileged caller nothing about the daemon's sensor.
final class InjectAccelerationPrivilegeTests: PrivilegeTestCase {
    override var sensor: String { "none" }

    func testThePrivilegeIsCheckedBeforeNotSimulatedAndInvalidArgs() throws {
        let client = try connect(as: try TestAccounts.user())
        for sample in [[1.0, 2.0, 9.8], [Double.nan, 0, 0]] {
            let message = assertError(std("AccessDenied")) {
                try self.call(client, Orientation1.managerPath, Orientation1.managerInterface, "InjectAcceleration", sample.map { .double($0) })
            }
            XCTAssertTrue(message.contains("InjectAcceleration"), message)
        }
        assertError(Orientation1.errorName("NotSimulated")) {
            try self.call(nil, Orientation1.managerPath, Orientation1.managerInterface, "InjectAcceleration", [.double(1), .double(2), .double(9.8)])
        }
        stopDaemon()
        try startDaemon(sensor: "simulated")
        let again = try connect(as: try TestAccounts.user())
        assertError(std("AccessDenied")) {
            try self.call(again, Orientation1.managerPath, Orientation1.managerInterface, "InjectAcceleration", [.double(.nan), .double(0), .double(0)])
        }
        assertError(std("InvalidArgs")) {
            try self.call(nil, Orientation1.managerPath, Orientation1.managerInterface, "InjectAcceleration", [.double(.nan), .double(0), .double(0)])
        }
    }
}

/// Without polkit, `[Security] PrivilegedUsers` and `PrivilegedGroups` name who else may make privileged calls.
final class SecuritySectionTests: PrivilegeTestCase {
    override var configText: String? {
        "[Security]\nPrivilegedUsers=orientationd-test\nPrivilegedGroups=\(TestAccounts.groupName)\n"
    }

    override func setUpWithError() throws {
        // The names must exist when the daemon resolves them at start.
        _ = try TestAccounts.user()
        _ = try TestAccounts.groupMember()
        try super.setUpWithError()
    }

    func testListedUsersAndGroupMembersAreAllowedOthersRefused() throws {
        let listed = try connect(as: try TestAccounts.user())
        try setLock(true, on: listed)
        XCTAssertEqual(try b("RotationLocked"), true)
        let member = try connect(as: try TestAccounts.groupMember())
        try setLock(false, on: member)
        XCTAssertEqual(try b("RotationLocked"), false)
        try call(member, Orientation1.managerPath, Orientation1.managerInterface, "SetDeviceOrientation", [.uint32(3)])

        let stranger = try connect(as: TestAccounts.nobody)
        let message = assertError(std("AccessDenied")) { try self.setLock(true, on: stranger) }
        XCTAssertTrue(message.contains("uid 65534") && message.contains("[Security]"), message)
        XCTAssertEqual(try b("RotationLocked"), false)
    }
}
