// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import Orientation
@testable import Policy

/// P17: the orientation locked by the app (iOS 26's `prefersInterfaceOrientationLocked`).
final class P17_OrientationLockByTheAppTests: XCTestCase {
    /// A claimed sensor and a key window whose root, `r`, prefers the orientation locked.
    private func lockedByTheApp(_ f: Fixture) throws {
        f.claim()
        f.named["r"] = try f.vc()
        try f.window(root: f["r"])
        try f.policy.setPrefersOrientationLocked(f["r"], true, caller: A)
    }

    func testP17_orientationLockByTheApp() {
        run("P17", [
            Scenario(name: "locking never rotates", setup: { f in
                f.claim()
                f.named["r"] = try f.vc()
                try f.window(root: f["r"])
                f.device(.landscapeLeft)
                f.device(.portrait)
            }, action: { f in try f.policy.setPrefersOrientationLocked(f["r"], true, caller: A) }, orientation: P, events: []),
            Scenario(name: "device turns do not rotate", setup: lockedByTheApp,
                     action: { $0.device(.landscapeLeft) }, orientation: P, events: [dev(.landscapeLeft)]),
            Scenario(name: "nor does attemptRotationToDeviceOrientation (P10)", setup: { f in
                try self.lockedByTheApp(f)
                f.device(.landscapeLeft)
            }, action: { $0.policy.attemptRotation() }, orientation: P, events: []),
            Scenario(name: "unlocking catches up with the device", setup: { f in
                try self.lockedByTheApp(f)
                f.device(.landscapeLeft)
            }, action: { f in try f.policy.setPrefersOrientationLocked(f["r"], false, caller: A) }, orientation: LR,
                     events: rotation(P, LR)),
            Scenario(name: "a hierarchy change still rotates (P9)", setup: lockedByTheApp,
                     action: { f in try f.policy.setSupportedMask(f["r"], mLandscape, caller: A) }, orientation: LR,
                     events: rotation(P, LR)),
            Scenario(name: "another controller deciding releases the lock", setup: { f in
                f.claim()
                f.named["locked"] = try f.vc()
                try f.policy.setPrefersOrientationLocked(f["locked"], true, caller: A)
                f.named["n"] = try f.nav([f["locked"]])
                try f.window(root: f["n"])
                try f.policy.push(try f.vc(), onto: f["n"], caller: A)
            }, action: { $0.device(.landscapeLeft) }, orientation: LR, events: [dev(.landscapeLeft)] + rotation(P, LR)),
            Scenario(name: "a controller off the deciding path does not hold", setup: { f in
                f.claim()
                f.named["hidden"] = try f.vc()
                try f.policy.setPrefersOrientationLocked(f["hidden"], true, caller: A)
                try f.window(root: try f.vc())
            }, action: { $0.device(.landscapeLeft) }, orientation: LR, events: [dev(.landscapeLeft)] + rotation(P, LR)),
        ])
    }

    func testP17_theManagerReadsWhetherTheLockHolds() throws {
        let f = Fixture()
        try lockedByTheApp(f)
        XCTAssertTrue(f.policy.interfaceLockedByApplication)
        XCTAssertFalse(f.policy.rotationLocked, "the user's lock is left alone")
        try f.policy.setPrefersOrientationLocked(f["r"], false, caller: A)
        XCTAssertFalse(f.policy.interfaceLockedByApplication)
        XCTAssertThrowsError(try f.policy.setPrefersOrientationLocked(f["r"], true, caller: ":1.99"), "another client's controller")
        XCTAssertFalse(f.policy.controller(f["r"])?.prefersOrientationLocked ?? true)
    }
}
