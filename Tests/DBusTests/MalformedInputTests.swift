// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import DBus
import TestSupport

final class MalformedInputTests: XCTestCase {
    private let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"

    private func message() throws -> Message {
        try Message.methodCall(destination: nil, path: "/p", interface: "org.example.I", method: "M")
    }

    private func assertInvalidArgs(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual((error as? DBusError)?.name, invalidArgs, file: file, line: line)
        }
    }

    func testInvalidObjectPathThrowsInsteadOfAborting() throws {
        for bad in ["", "relative", "/trailing/", "//", "/a//b", "/bad-char", "/ü"] {
            assertInvalidArgs { try self.message().append([.objectPath(bad)]) }
            assertInvalidArgs { _ = try Message.methodCall(destination: nil, path: bad, interface: nil, method: "M") }
            assertInvalidArgs { _ = try Message.signal(path: bad, interface: "org.example.I", name: "S") }
        }
    }

    func testInvalidNamesThrow() {
        assertInvalidArgs { _ = try Message.methodCall(destination: "no dots", path: "/", interface: nil, method: "M") }
        assertInvalidArgs { _ = try Message.methodCall(destination: nil, path: "/", interface: "nodots", method: "M") }
        assertInvalidArgs { _ = try Message.methodCall(destination: nil, path: "/", interface: nil, method: "bad.member") }
    }

    func testStringsWithNulThrow() throws {
        assertInvalidArgs { try self.message().append([.string("a\u{0}b")]) }
    }

    func testInvalidSignaturesThrow() throws {
        assertInvalidArgs { try self.message().append([.signature("a{")]) }
        assertInvalidArgs { try self.message().append([.signature("z")]) }
        assertInvalidArgs { try self.message().append([.array(elementSignature: "uu", [])]) }
        assertInvalidArgs { try self.message().append([.array(elementSignature: "", [])]) }
        assertInvalidArgs { try self.message().append([.structure([])]) }
        assertInvalidArgs { try self.message().append([.dict(keySignature: "v", valueSignature: "s", [])]) }
    }

    func testMistypedContainerElementsThrow() throws {
        assertInvalidArgs { try self.message().append([.array(elementSignature: "u", [.string("x")])]) }
        assertInvalidArgs {
            try self.message().append([.dict(keySignature: "s", valueSignature: "v", [(.string("k"), .uint32(1))])])
        }
        assertInvalidArgs { try self.message().append([.variant(.objectPath("nope"))]) }
    }

    func testArgumentLimitsStopReadingAtTheBound() throws {
        let m = try message()
        try m.append([.objectPaths(["/a", "/b", "/c", "/d"]), .string("12345"),
                      .dict(keySignature: "s", valueSignature: "u", [(.string("k1"), .uint32(1)), (.string("k2"), .uint32(2))])])
        func refusal(_ limits: ArgumentLimits) -> String? {
            do { _ = try m.arguments(limits: limits); return nil } catch { return (error as? DBusError)?.name }
        }
        let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
        XCTAssertEqual(refusal(ArgumentLimits(maxArrayElements: 3, maxStringBytes: 100)), limitsExceeded, "four paths, three allowed")
        XCTAssertEqual(refusal(ArgumentLimits(maxArrayElements: 4, maxStringBytes: 4)), limitsExceeded, "a five-byte string, four allowed")
        XCTAssertNil(refusal(ArgumentLimits(maxArrayElements: 4, maxStringBytes: 5)))
        XCTAssertEqual(try m.arguments(limits: ArgumentLimits(maxArrayElements: 1, maxStringBytes: 5), count: 0), [])
        let dictOnly = try message()
        try dictOnly.append([.dict(keySignature: "s", valueSignature: "u", [(.string("a"), .uint32(1)), (.string("b"), .uint32(2))])])
        XCTAssertThrowsError(try dictOnly.arguments(limits: ArgumentLimits(maxArrayElements: 1))) { error in
            XCTAssertEqual((error as? DBusError)?.name, limitsExceeded, "dictionaries are bounded like arrays")
        }
    }

    func testAVariantsTypeIsReadWithoutItsValue() throws {
        let m = try message()
        try m.append([.string("x"), .variant(.array(elementSignature: "u", [.uint32(1), .uint32(2)]))])
        XCTAssertEqual(m.variantSignature(at: 1), "au")
        XCTAssertNil(m.variantSignature(at: 0), "not a variant")
        XCTAssertNil(m.variantSignature(at: 2), "no such argument")
    }

    func testFailedAppendLeavesTheMessageEmpty() throws {
        let m = try message()
        XCTAssertThrowsError(try m.append([.uint32(1), .objectPath("bad")]))
        XCTAssertEqual(m.signature, "")
    }

    func testTooDeepNestingThrows() throws {
        var v = Value.uint32(1)
        for _ in 0..<40 { v = .array(elementSignature: v.signature, [v]) }
        assertInvalidArgs { try self.message().append([v]) }
    }

    func testCorruptWireDataThrows() throws {
        XCTAssertThrowsError(try Message.demarshal([0, 1, 2, 3]))
        XCTAssertThrowsError(try Message.demarshal([]))
        // Same message with one byte of a string argument replaced by 0xFF: invalid UTF-8.
        let m = try message()
        try m.append([.string("hello")])
        var bytes = try wireForm(m)
        XCTAssertEqual(try Message.demarshal(bytes).arguments(), [.string("hello")])
        let hello = Array("hello".utf8)
        let start = (0...(bytes.count - hello.count)).first { Array(bytes[$0..<$0 + hello.count]) == hello }!
        bytes[start + 1] = 0xFF
        XCTAssertThrowsError(try Message.demarshal(bytes)) { error in
            XCTAssertEqual((error as? DBusError)?.name, self.invalidArgs)
        }
    }

    func testReplyingToAnUnsentMessageThrows() throws {
        assertInvalidArgs { _ = try Message.error(replyingTo: try self.message(), .failed("x")) }
        assertInvalidArgs { _ = try Message.methodReturn(replyingTo: try self.message()) }
    }

    func testRegisteringAnInvalidTableThrows() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let c = try Connection(bus: .address(bus.address))
        assertInvalidArgs {
            try c.objects.register(path: "/x", interfaces: [Interface(name: "org.example.I", properties: [
                Property("P", type: "uu", get: { .uint32(1) }),
            ])])
        }
        assertInvalidArgs {
            try c.objects.register(path: "/x", interfaces: [Interface(name: "org.example.I", properties: [
                Property("P", type: "u", access: .readwrite, get: { .uint32(1) }),
            ])])
        }
        assertInvalidArgs { try c.objects.register(path: "x", interfaces: []) }
    }
}
