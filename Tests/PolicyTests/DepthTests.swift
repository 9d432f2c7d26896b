// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
@testable import Policy
import XCTest

/// `[Limits] Depth` may be set as high as an administrator likes: no walk of a hierarchy recurses,
/// so a deep one costs time, never the stack (a crash).
final class DepthTests: XCTestCase {
    func testAHierarchyFarDeeperThanTheStackAllowsIsPlacedRefusedAndRemoved() throws {
        let depth = 100_000
        let f = Fixture(PolicyConfiguration(limits: Limits(windows: 4, controllers: depth + 10, depth: depth + 1,
                                                           controllersPerUser: depth + 10, totalControllers: depth + 10)))
        let chain = try (0..<depth).map { _ in try f.nav([]) }
        // Linked directly: through the API each placement walks the subtree, which is quadratic in all.
        for (lower, upper) in zip(chain, chain.dropFirst()) {
            f.policy.controllers[lower]?.children = [upper]
            f.policy.controllers[upper]?.parent = lower
        }
        let top = try f.nav([])
        try f.policy.push(chain[0], onto: top, caller: A)
        XCTAssertThrowsError(try f.policy.push(try f.vc(), onto: chain[depth - 1], caller: A)) { error in
            XCTAssertEqual((error as? PolicyError)?.kind, .limitsExceeded)
        }
        let w = try f.window(root: top)
        XCTAssertEqual(f.policy.decidingController(of: w), chain[depth - 1])
        f.policy.clientLeft(A)
        XCTAssertTrue(f.policy.controllerIDs.isEmpty)
    }
}
