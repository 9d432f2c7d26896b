// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// P19 on the bus (Docs/policy.md, P19): with rotation locked, a turn of the device
/// is offered with `RotationSuggested` and `SuggestedOrientation`, and one call accepts it while the
/// lock stays on. P18's members read what no posture source gives.
final class SuggestionTests: DaemonTestCase {
    override class var inProcess: Bool { true }
    override var configText: String? { "[Lock]\nSuggestionSeconds=1\n" }

    func accept() throws {
        try call(nil, Orientation1.managerPath, Orientation1.managerInterface, "AcceptSuggestedOrientation")
    }

    func testALockedTurnIsSuggestedAndOneCallAcceptsIt() throws {
        let app = try newClient()
        try claim(app)
        try setDevice(1)
        try set("RotationLocked", .bool(true))
        let recorder = try newRecorder()
        try setDevice(3)
        XCTAssertTrue(recorder.wait { $0.member == "RotationSuggested" }, "\(recorder.events)")
        recorder.settle()
        XCTAssertEqual(recorder.managerEvents.first { $0.member == "RotationSuggested" }?.uints, [3])
        XCTAssertEqual(recorder.managerEvents.last { $0.changed["SuggestedOrientation"] != nil }?.changed["SuggestedOrientation"],
                       .uint32(3))
        XCTAssertEqual(try u("SuggestedOrientation"), 3)
        XCTAssertEqual(try u("InterfaceOrientation"), 1, "locked: offered, not made")
        XCTAssertEqual(recorder.count("WillChange"), 0)

        recorder.clear()
        try accept()
        XCTAssertTrue(recorder.wait { $0.member == "DidChange" }, "\(recorder.events)")
        XCTAssertEqual(recorder.managerEvents.first { $0.member == "WillChange" }?.uints, [1, 3])
        XCTAssertEqual(try u("InterfaceOrientation"), 3)
        XCTAssertEqual(try u("SuggestedOrientation"), 0)
        XCTAssertEqual(try b("RotationLocked"), true, "the lock stays on, now held in landscape")

        let message = assertError(Orientation1.errorPrefix + "NoSuggestion") { try self.accept() }
        XCTAssertTrue(message.contains("no rotation is suggested"), message)
        XCTAssertEqual(try u("InterfaceOrientation"), 3, "the error changed nothing")
    }

    func testTheSuggestionEndsAfterSuggestionSecondsAndWhenUnlocked() throws {
        let app = try newClient()
        try claim(app)
        try setDevice(1)
        try set("RotationLocked", .bool(true))
        try setDevice(4)
        XCTAssertEqual(try u("SuggestedOrientation"), 4)
        let recorder = try newRecorder()
        XCTAssertTrue(recorder.wait(timeout: 3) { $0.changed["SuggestedOrientation"] == .uint32(0) }, "\(recorder.events)")
        XCTAssertEqual(try u("InterfaceOrientation"), 1)

        try setDevice(1)
        try setDevice(3)
        XCTAssertEqual(try u("SuggestedOrientation"), 3, "a new turn, a new suggestion")
        try set("RotationLocked", .bool(false))
        XCTAssertEqual(try u("SuggestedOrientation"), 0, "unlocking ends it")
        XCTAssertEqual(try u("InterfaceOrientation"), 3, "and the device turns the screen")
    }

    func testPostureReadsUnknownWithoutAPostureSource() throws {
        XCTAssertEqual(try get("Posture"), .string("unknown"))
        XCTAssertEqual(try get("HingeAngle"), .double(-1))
        XCTAssertEqual(try u("SuggestedOrientation"), 0)
    }
}

/// `AcceptSuggestedOrientation` needs the lock's privilege, as setting `RotationLocked` does.
final class SuggestionPrivilegeTests: PrivilegeTestCase {
    func testAcceptingNeedsTheLockPrivilege() throws {
        let polkit = try startAuthority()
        let user = try connect(as: try TestAccounts.user())
        try claim(user)
        try setDevice(1)
        try set("RotationLocked", .bool(true))
        try setDevice(3)
        XCTAssertEqual(try u("SuggestedOrientation"), 3)
        let accept = { try self.call(user, Orientation1.managerPath, Orientation1.managerInterface, "AcceptSuggestedOrientation") }
        let message = assertError(std("AccessDenied")) { try accept() }
        XCTAssertTrue(message.contains(Self.lockRotation), message)
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        XCTAssertEqual(try u("SuggestedOrientation"), 3, "a refused call leaves the suggestion standing")
        try polkit.allow([Self.lockRotation])
        try accept()
        XCTAssertTrue(waitUntil(3) { (try? self.u("InterfaceOrientation")) == 3 })
    }
}
