// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
@testable import Sensors

/// The uevent socket filter's program: what the kernel's checker (`sk_chk_filter`) demands, and the
/// subsystem hash udev's monitor header carries. The kernel runs it in SensorSourcesTests.
final class UeventFilterTests: XCTestCase {
    func testSubsystemHashIsLibudevsMurmurHash2() {
        // Values of libudev's util_string_hash32 (MurmurHash2, seed 0), which umockdev copies too.
        XCTAssertEqual(UeventFilter.murmurHash2(Array("iio".utf8)), 0xd564_5157)
        XCTAssertEqual(UeventFilter.murmurHash2(Array("usb".utf8)), 0x0577_c5e5)
        XCTAssertEqual(UeventFilter.murmurHash2(Array("input".utf8)), 0xc1a2_8470)
    }

    func testProgramIsOneTheKernelAccepts() {
        let program = UeventFilter(subsystem: "iio").instructions
        XCTAssertLessThanOrEqual(program.count, UeventFilter.maximumLength)
        XCTAssertEqual(program.last?.code, UeventFilter.returnConstant)
        for (index, instruction) in program.enumerated() {
            switch instruction.code {
            case UeventFilter.jumpAlways:
                XCTAssertLessThan(index + 1 + Int(instruction.k), program.count, "ja at \(index) leaves the program")
            case UeventFilter.jumpIfEqual:
                XCTAssertLessThan(index + 1 + Int(max(instruction.jt, instruction.jf)), program.count,
                                  "jeq at \(index) leaves the program")
            default:
                break
            }
        }
    }

    func testEveryKernelHeaderLengthUpToTheLimitPointsAtItsSubsystem() {
        // For a header whose NUL is at L, X must be 2L + 17: where the kernel writes `SUBSYSTEM=`.
        let program = UeventFilter(subsystem: "iio").instructions
        let loads = program.enumerated().filter { $0.element.code == UeventFilter.ldxImmediate }
        XCTAssertEqual(loads.count, UeventFilter.longestHeader)
        for (index, ldx) in loads {
            let scanned = program[index - 2]
            XCTAssertEqual(scanned.code, UeventFilter.ldByteAbsolute)
            XCTAssertEqual(ldx.k, 2 * scanned.k + 17)
            guard scanned.k > 4 else { continue }   // shorter than "add@" and a byte of path
            let action = "add", devpath = String(repeating: "d", count: Int(scanned.k) - action.count - 1)
            let message = Array("\(action)@\(devpath)\0ACTION=\(action)\0DEVPATH=\(devpath)\0".utf8)
            XCTAssertEqual(message.count, Int(ldx.k))
        }
    }
}
