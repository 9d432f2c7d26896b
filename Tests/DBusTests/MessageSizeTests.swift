// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import DBus

/// `Message.wireSize`, which the call queues are bounded by, measured against the message's real wire
/// form (`dbus_message_marshal`): within the few bytes of padding it does not follow.
final class MessageSizeTests: XCTestCase {
    private func message(_ values: [Value], interface: String? = "org.example.Iface") throws -> Message {
        let m = try Message.methodCall(destination: "org.example.Service", path: "/org/example/object/42", interface: interface,
                                       method: "Do")
        try m.append(values)
        return m
    }

    private func assertMeasured(_ values: [Value], _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let m = try message(values)
        let wire = try m.marshal().count
        XCTAssertLessThanOrEqual(abs(m.wireSize - wire), 8, "\(what): measured \(m.wireSize), on the wire \(wire)", file: file, line: line)
    }

    func testEveryKindOfArgumentIsMeasuredAsOnTheWire() throws {
        try assertMeasured([], "no arguments")
        try assertMeasured([.byte(1), .bool(true), .int16(-2), .uint16(3), .int32(-4), .uint32(5), .int64(-6), .uint64(7), .double(0.5)],
                           "fixed types, each aligned")
        try assertMeasured([.string("view"), .objectPath("/a/b"), .signature("a{sv}")], "texts")
        try assertMeasured([.byte(1), .array(elementSignature: "t", [.uint64(1), .uint64(2)])], "an array padded to its elements")
        try assertMeasured([.array(elementSignature: "o", (0..<4096).map { .objectPath("/org/orientationd/Orientation1/controller/\($0)") })],
                           "4,096 object paths")
        try assertMeasured([.dict(keySignature: "s", valueSignature: "v", [(.string("a"), .variant(.uint32(1))),
                                                                          (.string("bb"), .variant(.string("x")))])], "a dictionary")
        try assertMeasured([.byte(1), .structure([.string("s"), .double(1), .variant(.structure([.byte(2), .int64(3)]))])],
                           "nested structures and variants")
        try assertMeasured([.variant(.array(elementSignature: "y", (0..<100_000).map { .byte(UInt8($0 & 0xff)) }))], "a large variant")
    }

    func testTheHeaderIsCounted() throws {
        let bare = try message([], interface: nil)
        let full = try message([])
        XCTAssertEqual(full.wireSize - bare.wireSize, try full.marshal().count - bare.marshal().count)
    }
}
