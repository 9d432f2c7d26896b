// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import DBus

/// The message's bytes with serial 1 patched in (header bytes 8–11): libdbus
/// refuses to demarshal serial 0, and only sending assigns one.
func wireForm(_ m: Message) throws -> [UInt8] {
    var bytes = try m.marshal()
    bytes[8] = bytes[0] == UInt8(ascii: "l") ? 1 : 0
    bytes[11] = bytes[0] == UInt8(ascii: "l") ? 0 : 1
    return bytes
}

final class MarshallingTests: XCTestCase {
    private func roundTrip(_ values: [Value], file: StaticString = #filePath, line: UInt = #line) throws {
        let m = try Message.methodCall(destination: "org.example.Test", path: "/org/example", interface: "org.example.I", method: "M")
        try m.append(values)
        XCTAssertEqual(m.signature, values.map(\.signature).joined(), file: file, line: line)
        XCTAssertEqual(try m.arguments(), values, file: file, line: line)
        let back = try Message.demarshal(wireForm(m))
        XCTAssertEqual(try back.arguments(), values, file: file, line: line)
        XCTAssertEqual(back.member, "M", file: file, line: line)
        XCTAssertEqual(back.path, "/org/example", file: file, line: line)
    }

    func testEveryBasicTypeSurvivesMarshalling() throws {
        try roundTrip([
            .byte(255), .bool(true), .bool(false), .int16(-32768), .uint16(65535),
            .int32(-7), .uint32(4_000_000_000), .int64(.min), .uint64(.max),
            .double(3.25), .double(.nan), .string("héllo ✓"), .string(""), .objectPath("/"),
            .objectPath("/org/orientationd/Orientation1/window/1"), .signature("a{sv}"), .signature(""),
        ])
    }

    func testContainersSurviveMarshalling() throws {
        let asv = Value.stringVariantDict([
            ("Orientation", .uint32(3)),
            ("Locked", .bool(true)),
            ("Bounds", .structure([.uint32(1080), .uint32(1920)])),
            ("Nested", .stringVariantDict([("x", .double(1.5))])),
            ("Paths", .objectPaths(["/a", "/b/c"])),
        ])
        try roundTrip([
            asv,
            .structure([.uint32(1), .uint32(2)]),
            .objectPaths(["/org/a", "/org/b"]),
            .variant(.variant(.string("deep"))),
            .array(elementSignature: "(uu)", [.structure([.uint32(1), .uint32(2)]), .structure([.uint32(3), .uint32(4)])]),
            .dict(keySignature: "u", valueSignature: "as", [(.uint32(1), .array(elementSignature: "s", [.string("x")]))]),
            .array(elementSignature: "ay", [.array(elementSignature: "y", [.byte(0), .byte(1)])]),
        ])
    }

    func testEmptyContainersKeepTheirType() throws {
        try roundTrip([
            .array(elementSignature: "s", []),
            .objectPaths([]),
            .stringVariantDict([]),
            .array(elementSignature: "(uu)", []),
            .variant(.array(elementSignature: "u", [])),
        ])
        XCTAssertEqual(Value.stringVariantDict([]).signature, "a{sv}")
    }

    func testTypedAccessorsReturnNilForOtherTypes() {
        XCTAssertEqual(Value.uint32(5).uint32Value, 5)
        XCTAssertNil(Value.uint32(5).int32Value)
        XCTAssertEqual(Value.bool(true).boolValue, true)
        XCTAssertEqual(Value.double(0.5).doubleValue, 0.5)
        XCTAssertEqual(Value.string("s").stringValue, "s")
        XCTAssertNil(Value.string("/a").objectPathValue)
        XCTAssertEqual(Value.objectPath("/a").objectPathValue, "/a")
        XCTAssertEqual(Value.objectPaths(["/a"]).arrayValues, [.objectPath("/a")])
        XCTAssertEqual(Value.variant(.byte(1)).variantValue, .byte(1))
        let dict = Value.stringVariantDict([("k", .uint32(1))]).stringKeyedDictionary
        XCTAssertEqual(dict?["k"], .uint32(1))
    }

    func testMessageHeadersAreReadBack() throws {
        let call = try Message.methodCall(destination: "org.example.Test", path: "/p", interface: "org.example.I", method: "M")
        XCTAssertEqual(call.type, .methodCall)
        XCTAssertEqual(call.destination, "org.example.Test")
        XCTAssertEqual(call.interface, "org.example.I")
        XCTAssertNil(call.sender)
        let signal = try Message.signal(path: "/p", interface: "org.example.I", name: "Changed")
        XCTAssertEqual(signal.type, .signal)
        XCTAssertEqual(signal.member, "Changed")
    }
}
