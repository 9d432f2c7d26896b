@preconcurrency import Glibc
import XCTest
import DBus
import TestSupport

/// Objects exported as a family: tables built on demand, yet listed, introspected and called like any other.
final class ObjectFamilyTests: XCTestCase {
    private var bus: PrivateBus!
    private var server: Connection!
    private var live: [UInt32: UInt32] = [1: 10, 3: 30]
    private var built = 0

    override func setUpWithError() throws {
        bus = try PrivateBus()
        server = try Connection(bus: .address(bus.address))
        server.objects.register(family: "/org/orientationd/Test/item/", paths: { [unowned self] in
            live.keys.sorted().map { "/org/orientationd/Test/item/\($0)" }
        }, interfaces: { [unowned self] path in
            guard let id = UInt32(path.split(separator: "/").last ?? ""), live[id] != nil else { return nil }
            built += 1
            return [Interface(name: "org.orientationd.Item1", methods: [
                Method("Double", out: [Arg("value", "u")]) { [unowned self] _ in .values([.uint32(live[id]! * 2)]) },
            ], properties: [
                Property("Value", type: "u", get: { [unowned self] in .uint32(live[id] ?? 0) }),
            ])]
        })
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
        XCTAssertGreaterThan(built, 0, "tables are built when a message needs them")
    }

    func testAMemberThatIsGoneIsUnknown() {
        live[3] = nil
        let r = busctl("get-property", "org.orientationd.Test", "/org/orientationd/Test/item/3", "org.orientationd.Item1", "Value")
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("No object at path"), r.stderr)
        let tree = busctl("tree", "--list", "org.orientationd.Test")
        XCTAssertFalse(tree.stdout.contains("/item/3"), tree.stdout)
    }
}
