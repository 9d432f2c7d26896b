// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import TestSupport

/// Objects exported as a family: one table for all, each member's key handed to its handlers, yet listed,
/// introspected and called like any other.
final class ObjectFamilyTests: XCTestCase {
    private var bus: PrivateBus!
    private var server: Connection!
    private var live: [UInt32: UInt32] = [1: 10, 3: 30]
    /// The keys the family's method received.
    private var called: [UInt64] = []
    /// How many times the family's members were listed.
    private var listed = 0

    override func setUpWithError() throws {
        bus = try PrivateBus()
        server = try Connection(bus: .address(bus.address))
        try server.objects.register(family: "/org/orientationd/Test/item/", count: { [unowned self] in live.count }, list: {
            [unowned self] n in
            listed += 1
            return live.keys.sorted().prefix(n).map { "/org/orientationd/Test/item/\($0)" }
        }, key: { [unowned self] path in
            guard let id = UInt32(path.split(separator: "/").last ?? ""), live[id] != nil else { return nil }
            return UInt64(id)
        }, interfaces: [Interface(name: "org.orientationd.Item1", methods: [
            Method("Double", out: [Arg("value", "u")]) { [unowned self] call in
                called.append(call.object)
                return .values([.uint32(live[UInt32(call.object)]! * 2)])
            },
        ], properties: [
            Property("Value", type: "u", object: { [unowned self] key in .uint32(live[UInt32(key)] ?? 0) }),
        ])])
        XCTAssertTrue(try server.requestName("org.orientationd.Test"))
    }

    override func tearDown() {
        server?.close()
        bus?.stop()
    }

    private func busctl(_ args: String...) -> ToolResult {
        runTool(["busctl", "--address=\(bus.address)"] + args)
    }

    func testFamilyMembersAreListedAndAnswer() {
        let tree = busctl("tree", "--list", "org.orientationd.Test")
        XCTAssertTrue(tree.stdout.contains("/org/orientationd/Test/item/1\n"), tree.stdout)
        XCTAssertTrue(tree.stdout.contains("/org/orientationd/Test/item/3\n"), tree.stdout)
        XCTAssertEqual(busctl("get-property", "org.orientationd.Test", "/org/orientationd/Test/item/3",
                              "org.orientationd.Item1", "Value").stdout, "u 30\n")
        XCTAssertEqual(busctl("call", "org.orientationd.Test", "/org/orientationd/Test/item/1",
                              "org.orientationd.Item1", "Double").stdout, "u 20\n")
        XCTAssertEqual(called, [1], "the handler receives the member's key")
    }

    func testAMemberThatIsGoneIsUnknown() {
        live[3] = nil
        let r = busctl("get-property", "org.orientationd.Test", "/org/orientationd/Test/item/3", "org.orientationd.Item1", "Value")
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("No object at path"), r.stderr)
        let tree = busctl("tree", "--list", "org.orientationd.Test")
        XCTAssertFalse(tree.stdout.contains("/item/3"), tree.stdout)
    }

    /// Unknown paths, under the family or anywhere else, are answered without listing a single member:
    /// their cost does not grow with the number of objects.
    func testAnUnknownPathCostsNothingPerMember() {
        for n in 4..<2000 { live[UInt32(n)] = UInt32(n) }
        for path in ["/org/orientationd/Test/item/99999", "/org/orientationd/Test/item/x/y", "/nowhere", "/org/orientationd/Testing"] {
            let r = busctl("get-property", "org.orientationd.Test", path, "org.orientationd.Item1", "Value")
            XCTAssertTrue(r.stderr.contains("No object at path"), "\(path): \(r.stderr)")
        }
        XCTAssertEqual(listed, 0, "an unknown path listed the family's members")
        // Intermediate nodes are known from the prefix alone too.
        let parent = busctl("introspect", "--xml-interface", "org.orientationd.Test", "/org/orientationd/Test")
        XCTAssertTrue(parent.stdout.contains("<node name=\"item\"/>"), parent.stdout)
        XCTAssertEqual(listed, 0, "introspecting a parent listed the family's members")
    }

    /// A large folder lists a bounded number of children, says how many it left out, and every
    /// member still answers at its own path.
    func testALargeFolderListsABoundedNumberOfChildren() {
        for n in 4...50 { live[UInt32(n)] = UInt32(n) }
        server.objects.maxListedChildren = 10
        let xml = busctl("introspect", "--xml-interface", "org.orientationd.Test", "/org/orientationd/Test/item").stdout
        XCTAssertEqual(xml.components(separatedBy: "<node name=").count - 1, 10, xml)
        XCTAssertTrue(xml.contains("<node name=\"1\"/>") && xml.contains("<node name=\"11\"/>"), "the lowest numbers: \(xml)")
        XCTAssertTrue(xml.contains("<!-- 39 more objects here are not listed"), xml)
        XCTAssertEqual(busctl("get-property", "org.orientationd.Test", "/org/orientationd/Test/item/50",
                              "org.orientationd.Item1", "Value").stdout, "u 50\n")
        XCTAssertEqual(busctl("tree", "--list", "org.orientationd.Test").stdout.components(separatedBy: "/item/").count - 1, 10)
    }

    /// A family with no members leaves no empty folder behind.
    func testAnEmptyFamilyIsNoFolder() {
        live = [:]
        let r = busctl("introspect", "--xml-interface", "org.orientationd.Test", "/org/orientationd/Test/item")
        XCTAssertTrue(r.stderr.contains("No object at path"), r.stdout + r.stderr)
        XCTAssertFalse(busctl("introspect", "--xml-interface", "org.orientationd.Test", "/org/orientationd/Test").stdout.contains("item"))
    }
}
