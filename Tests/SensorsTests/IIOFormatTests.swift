// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
@testable import Sensors

final class SysfsNumberTests: XCTestCase {
    func testDecimalWritesIntegersAsSysfsDoes() {
        for n in [0, 7, 10, 15, 20, 1000, -1, -25, Int.max, Int.min] {
            XCTAssertEqual(SysfsNumber.decimal(n), String(n))
        }
    }

    func testDecimalsParseInTheCLocale() {
        XCTAssertEqual(SysfsNumber.parse("-25.6"), -25.6)
        XCTAssertEqual(SysfsNumber.parse("0.009576806\n"), 0.009576806)
        XCTAssertEqual(SysfsNumber.parse(" 256 "), 256)
        XCTAssertEqual(SysfsNumber.parse("+3"), 3)
        XCTAssertEqual(SysfsNumber.parse("1e-3"), 0.001)
        XCTAssertEqual(SysfsNumber.parse(".5"), 0.5)
        XCTAssertEqual(SysfsNumber.parse("-0"), 0)
    }

    func testRawIntegersAreAddedUpAsTheyAreReadAndLongerOnesStillParse() {
        func parse(_ text: String) -> Double? {
            Array(text.utf8).withUnsafeBufferPointer { SysfsNumber.parse(bytes: $0) }
        }
        XCTAssertEqual(parse("-256\n"), -256)
        XCTAssertEqual(parse("  +17 \n"), 17)
        XCTAssertEqual(parse("999999999999999"), 999_999_999_999_999)
        XCTAssertEqual(parse("-123456789012345678"), -123_456_789_012_345_678)
        XCTAssertEqual(parse("0.038320312\n"), 0.038320312)
        for text in ["", "-", "12a", "1-2", "--3", "0x10"] {
            XCTAssertNil(parse(text), "'\(text)' must be refused")
        }
    }

    func testGarbageIsRefusedNotReadInPart() {
        for text in ["", "\n", "garbage", "256abc", "12,5", "-25,6", "1.2.3", "nan", "inf", "-inf", "0x10", "1e", "1e+",
                     "--1", "-", ".", "1 2", "1e999"] {
            XCTAssertNil(SysfsNumber.parse(text), "'\(text)' must be refused")
        }
    }
}

final class MountMatrixTests: XCTestCase {
    func testParsesTheHwdbFormat() throws {
        let m = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        XCTAssertEqual(m.rows, [[0, 1, 0], [-1, 0, 0], [0, 0, 1]])
        XCTAssertEqual(try MountMatrix(parsing: "1,0,0;0,1,0;0,0,1"), .identity)
        XCTAssertEqual(try MountMatrix(parsing: " 0.5 , 0, 0 ;0,-1.5,0; 0, 0, 1\n").rows, [[0.5, 0, 0], [0, -1.5, 0], [0, 0, 1]])
    }

    func testAllZeroRowIsRejected() {
        XCTAssertThrowsError(try MountMatrix(parsing: "0, 0, 0; 0, 1, 0; 0, 0, 1")) { error in
            XCTAssertTrue((error as! MountMatrixError).message.contains("row 1"))
        }
        XCTAssertThrowsError(try MountMatrix(parsing: "1, 0, 0; 0, 1, 0; 0, 0, 0"))
        XCTAssertThrowsError(try MountMatrix(rows: [[1, 0, 0], [0, 0, 0], [0, 0, 1]]))
    }

    func testMalformedTextIsRejected() {
        for text in ["", "1, 0, 0; 0, 1, 0", "1, 0; 0, 1; 0, 0", "1, 0, 0; 0, 1, 0; 0, 0, 1; 1, 0, 0", "1, 0, 0; 0, x, 0; 0, 0, 1",
                     "1, 0, 0, 0; 0, 1, 0; 0, 0, 1", "1,,0; 0, 1, 0; 0, 0, 1", "1, 0, 0; 0, 1, 0; 0, 0, nan"] {
            XCTAssertThrowsError(try MountMatrix(parsing: text), "'\(text)' must be refused")
        }
    }

    func testApplicationMultipliesRowsByTheReading() throws {
        let m = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        let v = m.apply(x: 1, y: 2, z: 3)
        XCTAssertEqual(v.x, 2)
        XCTAssertEqual(v.y, -1)
        XCTAssertEqual(v.z, 3)
        let w = MountMatrix.identity.apply(x: -4, y: 5, z: 6)
        XCTAssertEqual([w.x, w.y, w.z], [-4, 5, 6])
    }

    func testDescriptionRoundTrips() throws {
        let m = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 0.5")
        XCTAssertEqual(try MountMatrix(parsing: m.description), m)
    }
}

final class ScanElementTypeTests: XCTestCase {
    func testParsesTheTypeStrings() throws {
        let a = try XCTUnwrap(ScanElementType(parsing: "le:s16/32>>0\n"))
        XCTAssertEqual(a, ScanElementType(isBigEndian: false, isSigned: true, bits: 16, storageBits: 32, shift: 0))
        let b = try XCTUnwrap(ScanElementType(parsing: "be:u12/16>>4"))
        XCTAssertEqual(b, ScanElementType(isBigEndian: true, isSigned: false, bits: 12, storageBits: 16, shift: 4))
        let c = try XCTUnwrap(ScanElementType(parsing: "le:s16/16X3>>0"))
        XCTAssertEqual(c.repeatCount, 3)
        XCTAssertEqual(ScanElementType(parsing: "le:s64/64>>0")?.storageBytes, 8)
    }

    func testRefusesMalformedOrImpossibleTypes() {
        for text in ["", "le:s16", "xx:s16/16>>0", "le:q16/16>>0", "le:s16/24>>0", "le:s17/16>>0", "le:s12/16>>5",
                     "le:s16/16>>0 junk", "le:s0/16>>0", "le:s16/16X0>>0", "le:s16/16>>"] {
            XCTAssertNil(ScanElementType(parsing: text), "'\(text)' must be refused")
        }
    }

    func testDecodesEndiannessSignShiftAndStorage() throws {
        let le16 = try XCTUnwrap(ScanElementType(parsing: "le:s16/16>>0"))
        XCTAssertEqual(le16.decode([0x00, 0xff], at: 0), -256)
        XCTAssertEqual(le16.decode([0x00, 0x01], at: 0), 256)
        let be16 = try XCTUnwrap(ScanElementType(parsing: "be:s16/16>>0"))
        XCTAssertEqual(be16.decode([0xff, 0x00], at: 0), -256)
        // 12 significant bits shifted left by 4 in big-endian 16-bit storage: 0xFFF0 is -1, 0x7FF0 is 2047.
        let be12 = try XCTUnwrap(ScanElementType(parsing: "be:s12/16>>4"))
        XCTAssertEqual(be12.decode([0xff, 0xf0], at: 0), -1)
        XCTAssertEqual(be12.decode([0x7f, 0xf0], at: 0), 2047)
        XCTAssertEqual(be12.decode([0x80, 0x0f], at: 0), -2048, "the low 4 bits are not part of the value")
        let beu12 = try XCTUnwrap(ScanElementType(parsing: "be:u12/16>>4"))
        XCTAssertEqual(beu12.decode([0xff, 0xf0], at: 0), 4095)
        // 16 bits in 32-bit storage: the upper bytes are not part of the value.
        let le16in32 = try XCTUnwrap(ScanElementType(parsing: "le:s16/32>>0"))
        XCTAssertEqual(le16in32.decode([0x00, 0xff, 0x12, 0x34], at: 0), -256)
        XCTAssertEqual(le16in32.decode([0x00, 0x01, 0xff, 0xff], at: 0), 256)
        let le32 = try XCTUnwrap(ScanElementType(parsing: "le:s32/32>>0"))
        XCTAssertEqual(le32.decode([0xfe, 0xff, 0xff, 0xff], at: 0), -2)
        let le64 = try XCTUnwrap(ScanElementType(parsing: "le:s64/64>>0"))
        XCTAssertEqual(le64.decode([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], at: 0), -1)
        let u8 = try XCTUnwrap(ScanElementType(parsing: "le:u8/8>>0"))
        XCTAssertEqual(u8.decode([0x01, 0xff], at: 1), 255)
        XCTAssertNil(le32.decode([0, 0, 0], at: 0), "a short frame gives nothing")
        XCTAssertNil(le16.decode([0, 0, 0], at: 2))
    }

    func testFrameLayoutFollowsIndexOrderAndAlignment() throws {
        let s16 = try XCTUnwrap(ScanElementType(parsing: "le:s16/16>>0"))
        let s64 = try XCTUnwrap(ScanElementType(parsing: "le:s64/64>>0"))
        // Given out of order: x, y, z at 0, 2, 4; the timestamp aligned to 8; 16 bytes a frame.
        let layout = FrameLayout([ScanChannel(name: "in_timestamp", index: 3, type: s64),
                                  ScanChannel(name: "in_accel_z", index: 2, type: s16),
                                  ScanChannel(name: "in_accel_x", index: 0, type: s16),
                                  ScanChannel(name: "in_accel_y", index: 1, type: s16)])
        XCTAssertEqual(layout.offsets, ["in_accel_x": 0, "in_accel_y": 2, "in_accel_z": 4, "in_timestamp": 8])
        XCTAssertEqual(layout.frameSize, 16)
        let frame: [UInt8] = [0x00, 0x01, 0x00, 0xff, 0x05, 0x00, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]
        XCTAssertEqual(layout.value(of: "in_accel_x", in: frame), 256)
        XCTAssertEqual(layout.value(of: "in_accel_y", in: frame), -256)
        XCTAssertEqual(layout.value(of: "in_accel_z", in: frame), 5)
        XCTAssertNil(layout.value(of: "in_accel_x", in: Array(frame.prefix(8))), "a short frame gives nothing")
        XCTAssertNil(layout.value(of: "in_anglvel_x", in: frame))
    }

    func testFrameLayoutPadsMixedSizes() throws {
        let s32 = try XCTUnwrap(ScanElementType(parsing: "le:s16/32>>0"))
        let u8 = try XCTUnwrap(ScanElementType(parsing: "le:u8/8>>0"))
        let layout = FrameLayout([ScanChannel(name: "a", index: 0, type: u8), ScanChannel(name: "b", index: 1, type: s32),
                                  ScanChannel(name: "c", index: 2, type: u8)])
        XCTAssertEqual(layout.offsets, ["a": 0, "b": 4, "c": 8])
        XCTAssertEqual(layout.frameSize, 12)
        let repeated = FrameLayout([ScanChannel(name: "q", index: 0, type: try XCTUnwrap(ScanElementType(parsing: "le:s16/16X3>>0"))),
                                    ScanChannel(name: "r", index: 1, type: s32)])
        XCTAssertEqual(repeated.offsets, ["q": 0, "r": 8])
        XCTAssertEqual(repeated.frameSize, 12)
    }
}

final class UeventTests: XCTestCase {
    private func bytes(_ parts: [String]) -> [UInt8] { parts.flatMap { Array($0.utf8) + [0] } }

    func testKernelFormat() throws {
        let event = try XCTUnwrap(Uevent(datagram: bytes(["remove@/devices/platform/accel/iio:device0", "ACTION=remove",
                                                          "DEVPATH=/devices/platform/accel/iio:device0", "SUBSYSTEM=iio",
                                                          "SEQNUM=42"])))
        XCTAssertEqual(event.action, "remove")
        XCTAssertEqual(event.subsystem, "iio")
        XCTAssertEqual(event.sysname, "iio:device0")
        XCTAssertEqual(event.properties["SEQNUM"], "42")
    }

    func testUdevMonitorFormat() throws {
        let properties = bytes(["ACTION=add", "DEVPATH=/devices/iio:device1", "SUBSYSTEM=iio", "DEVNAME=/dev/iio:device1"])
        var header = Array("libudev\0".utf8) + [0xfe, 0xed, 0xca, 0xfe]
        func le(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 24)] }
        header += le(40) + le(40) + le(UInt32(properties.count)) + le(0x12345678) + le(0) + le(0) + le(0)
        let event = try XCTUnwrap(Uevent(datagram: header + properties))
        XCTAssertEqual(event.action, "add")
        XCTAssertEqual(event.sysname, "iio:device1")
        XCTAssertEqual(event.properties["DEVNAME"], "/dev/iio:device1")
        // A header pointing outside the datagram is refused.
        var bad = header
        bad.replaceSubrange(20..<24, with: le(4096))
        XCTAssertNil(Uevent(datagram: bad + properties))
    }

    func testGarbageIsRefused() {
        XCTAssertNil(Uevent(datagram: []))
        XCTAssertNil(Uevent(datagram: bytes(["no at sign", "ACTION=add"])))
        XCTAssertNil(Uevent(datagram: bytes(["add@/devices/x", "SUBSYSTEM=iio"])), "no ACTION or DEVPATH")
        XCTAssertNil(Uevent(datagram: Array("libudev\0".utf8) + [0, 0, 0, 0] + [UInt8](repeating: 0, count: 28)))
    }
}

/// The sampling frequency asked of a device read at a given rate.
final class SamplingFrequencyChoiceTests: XCTestCase {
    func testRaisesToTheNearestListedRateAtOrAboveThePollRate() {
        let rows: [(String, Double, [Double]?, Double?)] = [
            ("fast enough", 25, [1, 25, 50], nil),
            ("exactly the poll rate", 20, nil, nil),
            ("nearest listed at or above", 1, [1, 5, 10, 25, 50], 25),
            ("unsorted list", 1, [50, 1, 25, 10], 25),
            ("none listed high enough: the highest", 1, [1, 5, 10], 10),
            ("nothing faster listed", 10, [1, 5, 10], nil),
            ("no list: the poll rate", 1, nil, 20),
            ("empty list: the poll rate", 0, [], 20),
            ("fractional rates", 1, [1.5625, 12.5, 26], 26),
        ]
        for (name, current, available, expected) in rows {
            XCTAssertEqual(SamplingFrequencyChoice.raise(current: current, wanted: 20, available: available), expected, name)
        }
        XCTAssertEqual(SamplingFrequencyChoice.text(25), "25")
        XCTAssertEqual(SamplingFrequencyChoice.text(12.5), "12.5")
    }
}

/// Which senders of a uevent datagram are believed: the kernel on its group, root on udev's (libudev's rules).
final class UeventSenderTests: XCTestCase {
    func testOnlyTheKernelAndRootMulticastsAreBelieved() {
        let rows: [(String, UeventSender, UeventSender.Distrust?)] = [
            ("the kernel", UeventSender(groups: 1, port: 0, uid: 0, pid: 0), nil),
            ("udevd", UeventSender(groups: 2, port: 812, uid: 0, pid: 812), nil),
            ("root posing as the kernel", UeventSender(groups: 1, port: 4242, uid: 0, pid: 4242), .notTheKernel),
            ("a user on udev's group", UeventSender(groups: 2, port: 4242, uid: 1000, pid: 4242), .notRoot),
            ("root, to this socket alone", UeventSender(groups: 0, port: 4242, uid: 0, pid: 4242), .unicast),
            ("a user, to this socket alone", UeventSender(groups: 0, port: 4242, uid: 1000, pid: 4242), .unicast),
            ("no credentials", UeventSender(groups: 2, port: 812, uid: nil, pid: nil), .noCredentials),
        ]
        for (name, sender, expected) in rows {
            XCTAssertEqual(sender.distrust, expected, name)
            XCTAssertEqual(sender.distrustDescription == nil, expected == nil, name)
        }
        XCTAssertTrue(UeventSender(groups: 2, port: 9, uid: 1000, pid: 9).distrustDescription?.contains("uid 1000") ?? false)
    }
}

final class FaultEpisodeTests: XCTestCase {
    func testLogsOncePerEpisodeAndGivesUpOnceAfterTheLimit() {
        var episode = FaultEpisode(unknownAfter: 3)
        XCTAssertTrue(episode.failed() == (true, false))
        XCTAssertTrue(episode.failed() == (false, false))
        XCTAssertTrue(episode.failed() == (false, true))
        XCTAssertTrue(episode.failed() == (false, false))
        XCTAssertTrue(episode.succeeded(), "the first good read ends the episode")
        XCTAssertFalse(episode.succeeded())
        XCTAssertTrue(episode.failed() == (true, false), "a new episode is logged again")
    }
}
