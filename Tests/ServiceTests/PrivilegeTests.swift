// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// dbus-api.md, "Privilege": privileged calls from clients running as other users, decided by a
/// polkit authority on the bus (python-dbusmock's polkitd) or, without a trusted one, by uid and `[Security]`.
class PrivilegeTestCase: DaemonTestCase {
    var authority: MockAuthority?

    static let lockRotation = "org.orientationd.Orientation1.lock-rotation"
    static let setDevice = "org.orientationd.Orientation1.set-device-orientation"
    static let takeKeyWindow = "org.orientationd.Orientation1.take-key-window"

    override func setUpWithError() throws {
        guard TestAccounts.available else { throw unavailable("running clients as other users needs root") }
        try super.setUpWithError()
    }

    override func tearDownWithError() throws {
        authority?.stop()
        authority = nil
        try super.tearDownWithError()
    }

    func startAuthority(held: Bool = false, as user: TestAccount? = nil) throws -> MockAuthority {
        if user != nil { openBusToEveryUser() }
        let started = try MockAuthority(in: world, held: held, user: user)
        authority = started
        return started
    }

    /// An authority that would allow everything but holds every check, and a client running as an ordinary user.
    func holdingAuthorityThatAllowsAll() throws -> (MockAuthority, Connection) {
        let polkit = try startAuthority(held: true)
        try polkit.mock("AllowUnknown", [.bool(true)])
        try polkit.hold()
        return (polkit, try connect(as: try TestAccounts.user()))
    }

    func setLock(_ locked: Bool, on client: Connection) throws { try set("RotationLocked", .bool(locked), on: client) }

    /// Sends a property Set without waiting; the answer lands in `answers[index]`.
    func sendSet(_ property: String, _ value: Value, on client: Connection, into answers: Answers, _ index: Int) {
        client.call(destination: Orientation1.busName, path: Orientation1.managerPath, interface: StandardInterface.properties,
                    method: "Set", values: [.string(Orientation1.managerInterface), .string(property), .variant(value)],
                    timeoutMs: 30_000) { result in
            answers.results[index] = result.map { _ in () }
        }
    }

    final class Answers {
        var results: [Int: Result<Void, DBusError>] = [:]
        func error(_ index: Int) -> DBusError? { if case .failure(let e)? = results[index] { return e }; return nil }
    }

    /// Runs busctl as `account`, so the flags on its messages are busctl's own.
    func busctl(as account: TestAccount, _ args: [String]) -> ToolResult {
        openBusToEveryUser()
        return runTool(["setpriv", "--reuid=\(account.uid)", "--regid=\(account.gid)", "--clear-groups",
                        "busctl", "--address=\(bus.address)"] + args)
    }
}

final class PolkitTests: PrivilegeTestCase {
    func testPolkitDecidesForOtherUsersAndIsAskedAboutTheCallerWithTheCallersOwnName() throws {
        let user = try TestAccounts.user()
        let polkit = try startAuthority()
        let client = try connect(as: user)
        var message = assertError(std("AccessDenied")) { try self.setLock(true, on: client) }
        XCTAssertTrue(message.contains("polkit refused") && message.contains(Self.lockRotation), message)
        XCTAssertEqual(try b("RotationLocked"), false)

        try polkit.allow([Self.lockRotation])
        try setLock(true, on: client)
        XCTAssertEqual(try b("RotationLocked"), true)
        message = assertError(std("AccessDenied")) { try self.call(client, Orientation1.managerPath, Orientation1.managerInterface,
                                                                   "SetDeviceOrientation", [.uint32(3)]) }
        XCTAssertTrue(message.contains(Self.setDevice), message)

        let checks = try polkit.checks()
        XCTAssertEqual(checks.map(\.action), [Self.lockRotation, Self.lockRotation, Self.setDevice])
        XCTAssertTrue(checks.allSatisfy { $0.subject == client.uniqueName }, "\(checks)")
        XCTAssertEqual(Set(checks.map(\.cancellation)).count, 3, "each check has its own cancellation id: \(checks)")
        XCTAssertTrue(checks.allSatisfy { $0.flags == 0 }, "libdbus does not allow interaction by default: \(checks)")

        // Root is authorized without asking (as polkit itself would answer), so it never waits for the authority.
        try set("RotationLocked", .bool(false))
        XCTAssertEqual(try polkit.checks().count, 3)

        // The setter methods are decided as the property writes are.
        try polkit.allow([])
        message = assertError(std("AccessDenied")) { try self.call(client, Orientation1.managerPath, Orientation1.managerInterface,
                                                                   "SetRotationLocked", [.bool(true)]) }
        XCTAssertTrue(message.contains(Self.lockRotation), message)
        XCTAssertEqual(try b("RotationLocked"), false)
        try polkit.allow([Self.lockRotation])
        try call(client, Orientation1.managerPath, Orientation1.managerInterface, "SetRotationLocked", [.bool(true)])
        XCTAssertEqual(try b("RotationLocked"), true)
    }

    func testTheInteractiveFlagIsTheCallers() throws {
        let user = try TestAccounts.user()
        let polkit = try startAuthority()
        try polkit.allow([Self.setDevice])
        for (allow, flags) in [("yes", UInt32(1)), ("no", UInt32(0))] {
            let r = busctl(as: user, ["--allow-interactive-authorization=\(allow)", "call", Orientation1.busName,
                                      Orientation1.managerPath, Orientation1.managerInterface, "SetDeviceOrientation", "u", "3"])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertEqual(try polkit.checks().last?.flags, flags, "busctl --allow-interactive-authorization=\(allow)")
        }
    }

    /// With no focus authority, polkit decides whether an ordinary user's window may take the key window
    /// from another client's (P6f): refused, nothing changes; allowed, the window is key and the
    /// interface orientation follows its mask.
    func testPolkitDecidesWhetherAWindowMayTakeTheKeyWindow() throws {
        let polkit = try startAuthority()
        let owner = try newClient()
        let first = try registerWindow(owner)
        try setRoot(owner, first, try createController(owner, mask: 2))
        XCTAssertEqual(try o("KeyWindow"), first)
        XCTAssertEqual(try u("InterfaceOrientation"), 1)

        let taker = try connect(as: try TestAccounts.user())
        let second = try registerWindow(taker)
        try setRoot(taker, second, try createController(taker, mask: 24))
        XCTAssertEqual(try o("KeyWindow"), first, "registering a window does not take the key window")

        // Every other privilege, not this one.
        try polkit.allow([Self.lockRotation, Self.setDevice])
        try set("RotationLocked", .bool(true))
        let before = try getAll()
        let message = assertError(std("AccessDenied")) { try self.call(taker, second, Orientation1.windowInterface, "MakeKeyAndVisible") }
        XCTAssertTrue(message.contains("polkit refused") && message.contains(Self.takeKeyWindow), message)
        XCTAssertEqual(try getAll(), before, "the refusal changed nothing")
        XCTAssertEqual(try o("KeyWindow"), first)
        XCTAssertEqual(try b("RotationLocked"), true)
        XCTAssertEqual(try u("InterfaceOrientation"), 1)
        try set("RotationLocked", .bool(false))

        try polkit.allow([Self.takeKeyWindow])
        try call(taker, second, Orientation1.windowInterface, "MakeKeyAndVisible")
        XCTAssertEqual(try o("KeyWindow"), second)
        XCTAssertEqual(try u("InterfaceOrientation"), 3, "the landscape-only window rules")
        XCTAssertEqual(try polkit.checks().map(\.action), [Self.takeKeyWindow, Self.takeKeyWindow],
                       "the root probe's calls are not checked; the taker's are, for this action")
    }

    func testAnAuthorityNotRunningAsRootIsNotTrusted() throws {
        let user = try TestAccounts.user()
        // Owned by an ordinary user, it would allow everything.
        let impostor = try startAuthority(as: TestAccounts.nobody)
        try impostor.mock("AllowUnknown", [.bool(true)])
        let client = try connect(as: user)
        let message = assertError(std("AccessDenied")) { try self.setLock(true, on: client) }
        XCTAssertTrue(message.contains("not listed in [Security]"), "decided without polkit: \(message)")
        XCTAssertEqual(try b("RotationLocked"), false)
        XCTAssertEqual(try impostor.checks().count, 0, "the impostor was never asked")
        XCTAssertTrue(daemon!.log.contains("not trusted"), daemon!.log)
    }

    func testChecksInFlightAreCappedPerClientCancelledWhenItLeavesAndNeverBlockAnotherClient() throws {
        let other = try TestAccounts.groupMember()
        let (polkit, client) = try holdingAuthorityThatAllowsAll()
        let answers = Answers()
        sendSet("RotationLocked", .bool(true), on: client, into: answers, 0)
        sendSet("ApplicationMask", .uint32(8), on: client, into: answers, 1)
        sendSet("RotationLocked", .bool(false), on: client, into: answers, 2)
        XCTAssertTrue(waitUntil { answers.results[2] != nil }, "the third check was not refused at once")
        XCTAssertEqual(answers.error(2)?.name, std("LimitsExceeded"), "\(String(describing: answers.results[2]))")
        XCTAssertTrue(waitUntil { polkit.heldCount == 2 }, "held: \(polkit.heldCount)")
        XCTAssertNil(answers.results[0])

        // The stalled authority blocks neither root nor another client's own check.
        let started = now()
        try set("RotationLocked", .bool(true))
        XCTAssertLessThan(now() - started, 1.0)
        let otherClient = try connect(as: other)
        sendSet("RotationLocked", .bool(false), on: otherClient, into: answers, 3)
        XCTAssertTrue(waitUntil { polkit.heldCount == 3 }, "the other client's check was not sent: \(polkit.heldCount)")

        // The client leaves: its two checks are withdrawn, the other's stays.
        let ids = try polkit.checks().filter { $0.subject == client.uniqueName }.map(\.cancellation)
        XCTAssertEqual(ids.count, 2)
        client.close()
        XCTAssertTrue(waitUntil { Set(polkit.cancelled) == Set(ids) }, "cancelled \(polkit.cancelled), expected \(ids)")
        XCTAssertEqual(polkit.heldCount, 1)
        XCTAssertEqual(try b("RotationLocked"), true, "nothing of the client that left took effect")
        XCTAssertEqual(try u("ApplicationMask"), 26)

        XCTAssertEqual(try polkit.releaseReversed(), 1)
        XCTAssertTrue(waitUntil { answers.results[3] != nil })
        XCTAssertNil(answers.error(3))
        XCTAssertEqual(try b("RotationLocked"), false)
    }

    /// An authority that never answers: a caller with libdbus's default timeout (25 s) gets the
    /// daemon's AccessDenied, naming the stall, well before it would give up with NoReply.
    func testAStalledAuthorityIsAnAccessDeniedWithinADefaultClientsTimeout() throws {
        let (_, client) = try holdingAuthorityThatAllowsAll()
        let started = now()
        let message = assertError(std("AccessDenied")) {
            _ = try client.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath,
                                        interface: Orientation1.managerInterface, method: "SetRotationLocked", values: [.bool(true)])
        }
        XCTAssertTrue(message.contains("polkit did not answer within 10 s"), message)
        XCTAssertLessThan(now() - started, 15, "the refusal must reach a default client well inside its 25 s")
        XCTAssertEqual(try b("RotationLocked"), false)
    }

    func testOneUserCannotTakeMoreThanEightChecks() throws {
        let user = try TestAccounts.user()
        let polkit = try startAuthority(held: true)
        try polkit.hold()
        let answers = Answers()
        for index in 0..<5 {
            let client = try connect(as: user)
            sendSet("RotationLocked", .bool(true), on: client, into: answers, 2 * index)
            sendSet("RotationLocked", .bool(false), on: client, into: answers, 2 * index + 1)
        }
        XCTAssertTrue(waitUntil { answers.results.count == 2 }, "\(answers.results)")
        XCTAssertEqual(polkit.heldCount, 8)
        for (_, result) in answers.results {
            guard case .failure(let error) = result else { return XCTFail("a check past the user's 8 was allowed") }
            XCTAssertEqual(error.name, std("LimitsExceeded"))
            XCTAssertTrue(error.message.contains("uid \(user.uid)"), error.message)
        }
    }

    func testOneClientsPrivilegedCallsTakeEffectInTheOrderSentWhenPolkitAnswersInReverse() throws {
        let (polkit, client) = try holdingAuthorityThatAllowsAll()
        let answers = Answers()
        sendSet("RotationLocked", .bool(true), on: client, into: answers, 0)
        sendSet("RotationLocked", .bool(false), on: client, into: answers, 1)
        XCTAssertTrue(waitUntil { polkit.heldCount == 2 }, "held: \(polkit.heldCount)")
        XCTAssertEqual(try polkit.releaseReversed(), 2)
        XCTAssertTrue(waitUntil { answers.results.count == 2 }, "\(answers.results)")
        XCTAssertNil(answers.error(0))
        XCTAssertNil(answers.error(1))
        XCTAssertEqual(try b("RotationLocked"), false, "true then false must end false")
    }
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
        guard TestAccounts.available else { throw unavailable("running clients as other users needs root") }
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

    func testWithATrustedPolkitTheSectionNoLongerApplies() throws {
        let polkit = try startAuthority()
        let listed = try connect(as: try TestAccounts.user())
        let message = assertError(std("AccessDenied")) { try self.setLock(true, on: listed) }
        XCTAssertTrue(message.contains("polkit refused"), message)
        try polkit.allow([Self.lockRotation])
        try setLock(true, on: listed)
        XCTAssertEqual(try b("RotationLocked"), true)
    }
}

/// applications.md: `report-focus` lets the session's shell report focus; while it is connected,
/// another reporter also needs `configure-application`; `configure-applications` guards overrides.
final class FocusReportPrivilegeTests: PrivilegeTestCase {
    static let reportFocus = "org.orientationd.Orientation1.report-focus"
    static let configureApplication = "org.orientationd.Orientation1.configure-application"
    static let configureApplications = "org.orientationd.Orientation1.configure-applications"

    func focus(_ app: String, _ pid: UInt32, on client: Connection) throws {
        try call(client, Orientation1.managerPath, Orientation1.managerInterface, "SetFocusedApplication", [.string(app), .uint32(pid)])
    }

    func testTheFirstReporterKeepsTheRoleAndOverridesNeedTheirOwnAction() throws {
        let user = try TestAccounts.user()
        let polkit = try startAuthority()
        let shell = try connect(as: user)
        var message = assertError(std("AccessDenied")) { try self.focus("org.example.A", 10, on: shell) }
        XCTAssertTrue(message.contains(Self.reportFocus), message)
        try polkit.allow([Self.reportFocus])
        try focus("org.example.A", 10, on: shell)
        XCTAssertEqual(try get("FocusedApplication"), .string("org.example.A"))

        let other = try connect(as: user)
        message = assertError(std("AccessDenied")) { try self.focus("org.example.B", 11, on: other) }
        XCTAssertTrue(message.contains(Self.configureApplication), message)
        message = assertError(std("AccessDenied")) {
            try self.call(other, Orientation1.managerPath, Orientation1.managerInterface, "SetFocusedProcess", [.uint32(11)])
        }
        XCTAssertEqual(try get("FocusedApplication"), .string("org.example.A"), "the refused reports changed nothing")
        XCTAssertEqual(try u("FocusedProcess"), 10)

        message = assertError(std("AccessDenied")) {
            try self.call(shell, Orientation1.managerPath, Orientation1.managerInterface, "SetApplicationOrientations",
                          [.string("org.example.A"), .uint32(2)])
        }
        XCTAssertTrue(message.contains(Self.configureApplications), message)
        try polkit.allow([Self.reportFocus, Self.configureApplications, Self.configureApplication])
        try call(shell, Orientation1.managerPath, Orientation1.managerInterface, "SetApplicationOrientations",
                 [.string("org.example.A"), .uint32(2)])
        XCTAssertEqual(try get("FocusedApplicationSource"), .string("override"))
        try focus("org.example.B", 11, on: other)
        XCTAssertEqual(try get("FocusedApplication"), .string("org.example.B"), "configure-application takes the role over")

        other.close()
        XCTAssertTrue(waitUntil(3) { (try? self.get("FocusedApplication")) == .string("") }, "cleared when the authority left")
        try focus("org.example.A", 12, on: shell)
        XCTAssertEqual(try u("FocusedProcess"), 12)
    }
}
