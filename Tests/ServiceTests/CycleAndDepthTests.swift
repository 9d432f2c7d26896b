// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// Hierarchies as an attacker builds them: as deep as the default limit allows (64), then one more,
/// and cycles through every kind of placement. Each refusal leaves everything as it was, and a
/// client that leaves takes its whole deep hierarchy with it.
final class CycleAndDepthTests: DaemonTestCase {
    override class var inProcess: Bool { true }
    func testTheDefaultDepthHoldsAndCyclesAreRefusedEverywhere() throws {
        let app = try newClient()
        let window = try registerWindow(app)
        // 64 navigation controllers, each pushed onto the one before: a chain 64 deep.
        var chain = [try createController(app, "navigation")]
        try setRoot(app, window, chain[0])
        for _ in 1..<64 {
            let next = try createController(app, "navigation")
            try ctl(app, chain[chain.count - 1], "PushViewController", [.objectPath(next)])
            chain.append(next)
        }
        let top = chain[chain.count - 1], bottom = chain[0]
        let extra = try createController(app)
        let before = tree()
        let windowBefore = try getAll(window)
        var message = assertError(std("LimitsExceeded")) { try self.ctl(app, top, "PushViewController", [.objectPath(extra)]) }
        XCTAssertTrue(message.contains("65 deep") && message.contains("64"), message)
        assertError(std("LimitsExceeded")) { try self.ctl(app, top, "PresentViewController", [.objectPath(extra)]) }

        // Cycles: the bottom under the top, by each way of placing a controller.
        message = assertError(Orientation1.errorName("InUse")) { try self.ctl(app, top, "PushViewController", [.objectPath(bottom)]) }
        XCTAssertTrue(message.contains("cannot stand under") || message.contains("is the root"), message)
        assertError(Orientation1.errorName("InUse")) { try self.ctl(app, top, "SetViewControllers", [.objectPaths([bottom, extra])]) }
        assertError(Orientation1.errorName("InUse")) { try self.ctl(app, top, "PresentViewController", [.objectPath(chain[10])]) }
        assertError(Orientation1.errorName("InUse")) { try self.ctl(app, chain[5], "SetViewControllers", [.objectPaths([chain[6], chain[6]])]) }
        assertError(Orientation1.errorName("InUse")) { try self.ctl(app, extra, "PresentViewController", [.objectPath(extra)]) }
        XCTAssertEqual(tree(), before, "refusals changed the tree")
        XCTAssertEqual(try getAll(window), windowBefore, "refusals changed the window")
        XCTAssertEqual(try o("DecidingController", window), top)

        // Reordering the middle of the chain keeps it whole; the limit still counts what hangs below.
        try ctl(app, chain[30], "SetViewControllers", [.objectPaths([chain[31]])])
        XCTAssertEqual(try o("DecidingController", window), top)

        // The client leaves: all 65 controllers and the window go at once.
        app.close()
        XCTAssertTrue(waitUntil { !self.tree().contains("/controller/") && !self.tree().contains("/window/") }, tree())
        XCTAssertEqual(try o("KeyWindow"), "/")
    }
}
