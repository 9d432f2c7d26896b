// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import Sensors
@testable import SensorSources
import SystemCalls

/// The uevent filter run by the kernel: attached to one end of a Unix datagram socket pair, as umockdev's
/// emulated uevent socket is, and fed both the kernel's and udev's message formats.
final class UeventFilterSocketTests: XCTestCase {
    var sender: Int32 = -1
    var receiver: Int32 = -1

    override func setUpWithError() throws {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0, &fds) == 0 else {
            throw XCTSkip("no Unix datagram socket pair: \(String(cString: strerror(errno)))")
        }
        (sender, receiver) = (fds[0], fds[1])
        XCTAssertNil(UeventSocket.attach(UeventFilter(subsystem: "iio"), to: FileDescriptor(rawValue: receiver)))
    }

    override func tearDown() {
        close(sender)
        close(receiver)
    }

    /// Sends `message` and says whether it arrived.
    func passes(_ message: [UInt8]) -> Bool {
        XCTAssertEqual(message.withUnsafeBytes { send(sender, $0.baseAddress, $0.count, 0) }, message.count)
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(receiver, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return n == message.count
    }

    func kernel(_ action: String, _ devpath: String, _ subsystem: String, _ more: [String] = []) -> [UInt8] {
        let fields = ["ACTION=\(action)", "DEVPATH=\(devpath)", "SUBSYSTEM=\(subsystem)"] + more + ["SEQNUM=4711"]
        let body: [UInt8] = fields.flatMap { Array($0.utf8) + [0] }
        return Array("\(action)@\(devpath)".utf8) + [0] + body
    }

    /// udev's monitor format: `libudev\0`, magic, header size, properties offset and length, the hashes.
    func udev(_ subsystem: String, _ devpath: String) -> [UInt8] {
        let properties: [UInt8] = ["ACTION=add", "DEVPATH=\(devpath)", "SUBSYSTEM=\(subsystem)", "SEQNUM=1"]
            .flatMap { Array($0.utf8) + [0] }
        func bigEndian(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }
        func host(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v) { Array($0) } }
        let header: [UInt8] = Array("libudev".utf8) + [0] + bigEndian(0xfeed_cafe) + host(40) + host(40) + host(UInt32(properties.count))
            + bigEndian(UeventFilter.murmurHash2(Array(subsystem.utf8))) + bigEndian(0) + bigEndian(0) + bigEndian(0)
        return header + properties
    }

    func testKernelEventsOfIIOPass() {
        XCTAssertTrue(passes(kernel("add", "/devices/platform/80860F41:00/i2c-0/i2c-BOSC0200:00/iio:device0", "iio",
                                    ["OF_NAME=accel", "DEVNAME=iio:device0"])))
        XCTAssertTrue(passes(kernel("remove", "/devices/iio:device3", "iio")))
        XCTAssertTrue(passes(kernel("change", "/devices/virtual/iio_sysfs_trigger/trigger0", "iio")))
    }

    func testKernelEventsOfOtherSubsystemsAreDropped() {
        XCTAssertFalse(passes(kernel("add", "/devices/virtual/net/veth0", "net", ["INTERFACE=veth0", "IFINDEX=3"])))
        XCTAssertFalse(passes(kernel("remove", "/devices/virtual/net/veth0/queues/rx-0", "queues")))
        XCTAssertFalse(passes(kernel("change", "/devices/LNXSYSTM:00/LNXSYBUS:00/PNP0C0A:00/power_supply/BAT0", "power_supply")))
        // Names that only begin like it, or hold it later, are other subsystems.
        XCTAssertFalse(passes(kernel("add", "/devices/x/iio:device0", "iiox")))
        XCTAssertFalse(passes(kernel("add", "/devices/x/y", "usb", ["SUBSYSTEM_ALIAS=iio"])))
    }

    func testDevicePathsOfEveryLengthAreFound() {
        for length in stride(from: 1, through: UeventFilter.longestHeader - 5, by: 37) {
            let devpath = "/" + String(repeating: "d", count: length)
            XCTAssertTrue(passes(kernel("add", devpath, "iio")), "iio, devpath of \(length + 1) bytes")
            XCTAssertFalse(passes(kernel("add", devpath, "usb")), "usb, devpath of \(length + 1) bytes")
        }
    }

    func testAHeaderLongerThanTheScanIsLeftToTheDaemon() {
        let devpath = "/" + String(repeating: "d", count: UeventFilter.longestHeader + 10)
        XCTAssertTrue(passes(kernel("add", devpath, "usb")))
    }

    func testUdevMessagesAreFilteredByTheirSubsystemHash() {
        XCTAssertTrue(passes(udev("iio", "/devices/iio:device0")))
        XCTAssertFalse(passes(udev("usb", "/devices/pci0000:00/usb1")))
        XCTAssertFalse(passes(udev("input", "/devices/virtual/input/input7")))
    }

    func testGarbageIsDropped() {
        XCTAssertFalse(passes(Array("no NUL anywhere in this datagram".utf8)))
        XCTAssertFalse(passes(Array("libudev".utf8) + [0, 1, 2, 3, 4]))
    }
}
