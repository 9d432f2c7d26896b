// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// The two on one fake device: the same pose must give the same orientation.
final class SideBySideTests: SideBySideTestCase {
    // MARK: Tests

    /// The four edges flat on, then each slightly tilted (10° off the edge, towards a neighbour);
    /// every pose differs from the one before it, so each one is a change both must follow.
    func testSameOrientationAsTheRealProxyOnOneFakeDevice() throws {
        let g = Self.g
        // 256·(sin 10°, cos 10°) ≈ (44, 252).
        let s = Int((Double(g) * sin(10 * Double.pi / 180)).rounded()), c = Int((Double(g) * cos(10 * Double.pi / 180)).rounded())
        try start(initial: (0, g, 0))
        expectBoth(2, "upside down from the start (bottom-up)")
        let poses: [(raw: (Int, Int, Int), expected: UInt32, what: String)] = [
            ((0, -g, 0), 1, "(0, -g, 0): portrait / normal"),
            ((-g, 0, 0), 3, "(-g, 0, 0): landscape-left / right-up"),
            ((g, 0, 0), 4, "(+g, 0, 0): landscape-right / left-up"),
            ((0, g, 0), 2, "(0, +g, 0): portrait-upside-down / bottom-up"),
            ((s, -c, 0), 1, "portrait tilted 10° towards left-up"),
            ((-c, s, 0), 3, "right-up tilted 10° towards bottom-up"),
            ((c, -s, 0), 4, "left-up tilted 10° towards normal"),
            ((-s, c, 0), 2, "bottom-up tilted 10° towards right-up"),
        ]
        for p in poses {
            expectBoth(p.expected, p.what, changedFrom: try pose(p.raw))
        }
    }

    /// A mount matrix from the udev property `ACCEL_MOUNT_MATRIX` (which both read): reading = M·raw,
    /// here (x, y, z) → (y, −x, z). Ignoring or transposing it would give other orientations.
    func testSameOrientationWithAMountMatrix() throws {
        let g = Self.g
        try start(initial: (g, 0, 0), mountMatrix: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        expectBoth(1, "raw (+g, 0, 0) reads (0, -g, 0): normal")
        for (raw, expected, what) in [((0, -g, 0), UInt32(3), "raw (0, -g, 0) reads (-g, 0, 0): right-up"),
                                      ((-g, 0, 0), 2, "raw (-g, 0, 0) reads (0, +g, 0): bottom-up"),
                                      ((0, g, 0), 4, "raw (0, +g, 0) reads (+g, 0, 0): left-up")] {
            expectBoth(expected, what, changedFrom: try pose(raw))
        }
        XCTAssertTrue(log("daemon.log").contains("from udev property ACCEL_MOUNT_MATRIX"), log("daemon.log"))
    }
}
