@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// quality.md, "a fuzz run": random method calls and property sets from several clients, some leaving
/// mid-way. The daemon must answer each with a reply or a D-Bus error, stay alive, keep every window's
/// effective mask non-empty, and leave nothing behind a client that left.
// 20,000 steps take about 4 s; the full 100,000 of quality.md is the same walk, longer.
final class FuzzTests: DaemonTestCase {
    /// SplitMix64, so a failure can be replayed from its seed.
    private struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    private static let managerMethods = [
        "BeginGeneratingDeviceOrientationNotifications", "EndGeneratingDeviceOrientationNotifications", "RegisterWindow",
        "CreateController", "AttemptRotationToDeviceOrientation", "SetDeviceOrientation", "InjectAcceleration", "Bogus",
    ]
    private static let windowMethods = ["MakeKeyAndVisible", "RequestGeometryUpdate", "Close", "Bogus"]
    private static let controllerMethods = [
        "PushViewController", "PopViewController", "SetViewControllers", "PresentViewController",
        "DismissViewController", "Destroy", "Bogus",
    ]
    private static let properties = [
        "ApplicationMask", "RotationLocked", "DelegateMask", "RootController", "SupportedMask", "ShouldAutorotate",
        "PreferredOrientation", "ForwardsToChild", "SelectedIndex", "InterfaceOrientation", "Kind", "Nope",
    ]

    /// The signature each method or property takes, so most calls are well-formed and reach the policy.
    private static let signatures: [String: String] = [
        "CreateController": "s", "SetDeviceOrientation": "u", "InjectAcceleration": "ddd", "RequestGeometryUpdate": "u",
        "PushViewController": "o", "PresentViewController": "o", "SetViewControllers": "ao",
        "ApplicationMask": "u", "DelegateMask": "u", "SupportedMask": "u", "PreferredOrientation": "u", "SelectedIndex": "u",
        "RotationLocked": "b", "ShouldAutorotate": "b", "ForwardsToChild": "b", "RootController": "o",
    ]

    /// Values of `signature` most of the time, anything now and then.
    private func arguments(for name: String, _ r: inout Random, paths: [String]) -> [Value] {
        guard r.below(5) != 0 else { return (0..<r.below(4)).map { _ in randomValue(&r, paths: paths) } }
        return (Self.signatures[name] ?? "").reduce(into: []) { out, code in
            switch code {
            case "s": out.append(.string(r.pick(["view", "navigation", "tab", "bogus"])))
            case "d": out.append(.double(r.pick([0, -9.81, 9.81, 2.0, .nan, 200])))
            case "b": out.append(.bool(r.below(2) == 0))
            case "o": out.append(.objectPath(paths.isEmpty ? "/" : r.pick(paths + ["/"])))
            default: out.append(.uint32(r.pick([0, 1, 2, 3, 4, 5, 6, 8, 16, 24, 26, 30, 31])))
            }
        }.map { $0 }
    }

    private func randomValue(_ r: inout Random, paths: [String]) -> Value {
        switch r.below(9) {
        case 0, 1: return .uint32(r.pick([0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 24, 26, 30, 31, 32, UInt32.max]))
        case 2: return .bool(r.below(2) == 0)
        case 3: return .double(r.pick([0, -9.81, 9.81, 1e308, .nan, .infinity, 40]))
        case 4: return .string(r.pick(["view", "navigation", "tab", "", "window", "\u{00e9}"]))
        case 5, 6: return .objectPath(paths.isEmpty ? "/" : r.pick(paths + ["/", "/org/orientationd/Orientation1/controller/99999"]))
        case 7: return .objectPaths((0..<r.below(4)).map { _ in paths.isEmpty ? "/" : r.pick(paths) })
        default: return .structure([.uint32(1), .uint32(2)])
        }
    }

    func testRandomCallsFromClientsThatComeAndGo() throws {
        let seed: UInt64 = 20261129
        var r = Random(state: seed)
        var clients = try (0..<4).map { _ in try newClient() }
        var known: [String] = []
        var answered = 0
        for step in 0..<20_000 {
            let index = r.below(clients.count)
            if r.below(200) == 0 {
                // A client leaves mid-way; a new one takes its place.
                clients[index].close()
                clients[index] = try newClient()
                continue
            }
            let client = clients[index]
            let target = known.isEmpty || r.below(3) == 0 ? Orientation1.managerPath : r.pick(known)
            let isWindow = target.contains("/window/"), isController = target.contains("/controller/")
            do {
                if r.below(4) == 0 {
                    let interface = target == Orientation1.managerPath ? Orientation1.managerInterface : isWindow ? Orientation1.windowInterface : Orientation1.controllerInterface
                    let property = r.pick(Self.properties)
                    let value = arguments(for: property, &r, paths: known).first ?? randomValue(&r, paths: known)
                    try call(client, target, StandardInterface.properties, "Set", [.string(interface), .string(property), .variant(value)])
                } else {
                    let (interface, method) = isWindow ? (Orientation1.windowInterface, r.pick(Self.windowMethods))
                        : isController ? (Orientation1.controllerInterface, r.pick(Self.controllerMethods))
                        : (Orientation1.managerInterface, r.pick(Self.managerMethods))
                    let reply = try call(client, target, interface, method, arguments(for: method, &r, paths: known))
                    if let path = reply.first?.objectPathValue, path != "/", !known.contains(path) { known.append(path) }
                }
                answered += 1
            } catch let error as DBusError {
                XCTAssertTrue(error.name.hasPrefix("org.freedesktop.DBus.Error.") || error.name.hasPrefix(Orientation1.errorName("")),
                              "step \(step) (seed \(seed)): unexpected error \(error)")
                XCTAssertNotEqual(error.name, std("NoReply"), "step \(step): the daemon did not answer")
                XCTAssertFalse(error.message.isEmpty, "step \(step): an error without a message")
            }
            if step % 2_000 == 0 {
                XCTAssertTrue(daemon?.isRunning ?? false, "the daemon died at step \(step) (seed \(seed))")
                try assertEveryWindowHasAnOrientation(step: step)
            }
        }
        XCTAssertGreaterThan(answered, 2_000, "the walk must also succeed often, or it tests only refusals")
        try assertEveryWindowHasAnOrientation(step: 20_000)
        for client in clients { client.close() }
        XCTAssertTrue(waitUntil { !tree().contains("/window/") && !tree().contains("/controller/") },
                      "objects left behind clients that left:\n\(tree())")
        XCTAssertEqual(try o("KeyWindow"), "/")
        XCTAssertEqual(try u("DeviceOrientation"), 0, "every claim ended with its client")
        XCTAssertNotEqual(try u("InterfaceOrientation"), 0)
    }

    private func assertEveryWindowHasAnOrientation(step: Int) throws {
        for line in tree().split(separator: "\n") where line.contains("/window/") {
            XCTAssertNotEqual(try u("EffectiveMask", String(line)), 0, "step \(step): \(line) has an empty effective mask")
        }
        let mask = try u("SupportedMask")
        XCTAssertNotEqual(mask & (1 << (try u("InterfaceOrientation"))), 0, "step \(step): the orientation is outside the mask in force")
    }
}
