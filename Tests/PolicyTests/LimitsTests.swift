// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
@testable import Policy
import XCTest

/// dbus-api.md, `[Limits]`: per client, per uid (any number of connections) and in all; each refusal
/// names the limit reached, leaves nothing changed, and room comes back when objects go.
final class LimitsTests: XCTestCase {
    private let small = Limits(windows: 2, controllers: 3, depth: 64, windowsPerUser: 3, controllersPerUser: 5,
                               totalWindows: 5, totalControllers: 8)

    private func message(_ body: () throws -> Void) -> String {
        do { try body() } catch let error as PolicyError { return error.message } catch {}
        return ""
    }

    func testOneUsersConnectionsShareThePerUserLimits() throws {
        let f = Fixture(PolicyConfiguration(limits: small))
        let user: UserID = 1000
        let clients = (1...4).map { ":1.\($0)" }
        _ = try f.policy.registerWindow(client: clients[0], user: user)
        _ = try f.policy.registerWindow(client: clients[0], user: user)
        assertRefused(.limitsExceeded, f, "a third window on one connection") {
            _ = try f.policy.registerWindow(client: clients[0], user: user)
        }
        _ = try f.policy.registerWindow(client: clients[1], user: user)
        assertRefused(.limitsExceeded, f, "a fourth window of the same uid on a new connection") {
            _ = try f.policy.registerWindow(client: clients[2], user: user)
        }
        XCTAssertTrue(message { _ = try f.policy.registerWindow(client: clients[2], user: user) }
            .contains("uid 1000 already owns 3 windows across its connections"), "names the per-user limit")
        for client in clients.prefix(2) {
            _ = try f.policy.createController(kind: "view", client: client, user: user)
            _ = try f.policy.createController(kind: "view", client: client, user: user)
        }
        _ = try f.policy.createController(kind: "view", client: clients[2], user: user)
        assertRefused(.limitsExceeded, f, "a sixth controller of the same uid") {
            _ = try f.policy.createController(kind: "view", client: clients[3], user: user)
        }
        // Another user is not held back by the first one's use.
        _ = try f.policy.registerWindow(client: ":1.50", user: 1001)
        _ = try f.policy.createController(kind: "view", client: ":1.50", user: 1001)
        // A connection leaving gives its user's room back.
        f.policy.clientLeft(clients[0])
        _ = try f.policy.registerWindow(client: clients[3], user: user)
        _ = try f.policy.createController(kind: "view", client: clients[3], user: user)
        XCTAssertEqual(f.policy.perUser[user]?.windows, 2)
        XCTAssertEqual(f.policy.perUser[user]?.controllers, 4)
    }

    func testTheTotalLimitsHoldAcrossUsers() throws {
        let f = Fixture(PolicyConfiguration(limits: small))
        for n in 1...5 { _ = try f.policy.registerWindow(client: ":1.\(n)", user: UserID(n)) }
        assertRefused(.limitsExceeded, f, "a sixth window in all") { _ = try f.policy.registerWindow(client: ":1.6", user: 6) }
        XCTAssertTrue(message { _ = try f.policy.registerWindow(client: ":1.6", user: 6) }
            .contains("the service already holds 5 windows"), "names the total limit")
        for n in 1...8 { _ = try f.policy.createController(kind: "view", client: ":1.\(n)", user: UserID(n)) }
        assertRefused(.limitsExceeded, f, "a ninth controller in all") {
            _ = try f.policy.createController(kind: "tab", client: ":1.9", user: 9)
        }
        let last = try XCTUnwrap(f.policy.controllerIDs.last)
        try f.policy.destroy(last, caller: f.policy.controller(last)!.owner)
        _ = try f.policy.createController(kind: "tab", client: ":1.9", user: 9)
    }

    func testAUserWhoOwnsNothingKeepsNoEntry() throws {
        let f = Fixture(PolicyConfiguration(limits: small))
        let w = try f.policy.registerWindow(client: ":1.1", user: 7)
        let c = try f.policy.createController(kind: "view", client: ":1.2", user: 7)
        try f.policy.closeWindow(w, caller: ":1.1")
        XCTAssertNotNil(f.policy.perUser[7])
        f.policy.clientLeft(":1.2")
        XCTAssertNil(f.policy.perUser[7], "no entry for a user with nothing, so churn of users leaves nothing behind")
        XCTAssertNil(f.policy.controller(c))
    }

    func testAClientLeavingAWideHierarchyCostsWhatItOwned() throws {
        let f = Fixture()
        let views = try (0..<4000).map { _ in try f.vc() }
        let nav = try f.nav(views)
        _ = try f.window(root: nav)
        let other = try f.window(B)
        f.collect()
        f.policy.clientLeft(A)
        XCTAssertTrue(f.policy.controllerIDs.isEmpty)
        XCTAssertEqual(f.policy.windowIDs, [other])
        XCTAssertEqual(f.policy.keyWindow, other)
        XCTAssertEqual(f.drain().filter { if case .controllerRemoved = $0 { true } else { false } }.count, 4001)
    }
}
