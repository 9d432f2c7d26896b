// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import DBus
import OrientationAPI

/// The fuzz run (Docs/security.md): random method calls and property sets on the whole API from several clients,
/// some leaving mid-way (a new one takes the place of each), mostly well-formed so they reach the
/// policy and now and then anything. Seeded (SplitMix64), so a failure can be replayed. The fuzz test
/// runs a short walk; the adversarial benchmark the full 100,000 calls.
public final class FuzzWalk {
    /// Calls answered with a reply.
    public private(set) var answered = 0
    /// Calls answered with an error, by error name.
    public private(set) var refused: [String: Int] = [:]
    /// Clients that left mid-way.
    public private(set) var departures = 0
    /// What went wrong: an unexpected error name, an error without a message, a call not answered.
    public private(set) var problems: [String] = []

    private let address: String
    private let seed: UInt64
    private var random: SplitMix64
    private var clients: [Connection]
    /// Paths of the objects created so far and the client slot that created each; a client's go when
    /// it leaves, so the walk keeps aiming at live objects (with a few dead ones among its values).
    private var known: [String] = []
    private var creator: [Int] = []
    private var step = 0

    public init(address: String, seed: UInt64, clients count: Int = 4) throws(DBusError) {
        self.address = address
        self.seed = seed
        random = SplitMix64(seed: seed)
        clients = []
        for _ in 0..<count { clients.append(try Connection(bus: .address(address))) }
    }

    /// Takes `steps` more steps; every `every` steps (and at the end) calls `check` with the step number.
    public func run(steps: Int, every: Int = 2_000, check: (Int) throws -> Void = { _ in }) throws {
        for _ in 0..<steps {
            try takeStep()
            step += 1
            if step % every == 0 { try check(step) }
        }
        try check(step)
    }

    /// Closes every client; their objects and claims must then go.
    public func closeAll() {
        for client in clients { client.close() }
        clients = []
    }

    private func takeStep() throws {
        let index = random.below(clients.count)
        if random.below(200) == 0 {
            clients[index].close()
            clients[index] = try Connection(bus: .address(address))
            departures += 1
            let kept = known.indices.filter { creator[$0] != index || random.below(10) == 0 }
            known = kept.map { known[$0] }
            creator = kept.map { creator[$0] }
            return
        }
        let target = known.isEmpty || random.below(3) == 0 ? Orientation1.managerPath : random.pick(known)
        let isWindow = target.contains("/window/"), isController = target.contains("/controller/")
        let (interface, method, values): (String, String, [Value])
        if random.below(4) == 0 {
            let owner = target == Orientation1.managerPath ? Orientation1.managerInterface
                : isWindow ? Orientation1.windowInterface : Orientation1.controllerInterface
            let property = random.pick(Self.properties)
            let value = arguments(for: property).first ?? randomValue()
            (interface, method, values) = (StandardInterface.properties, "Set", [.string(owner), .string(property), .variant(value)])
        } else {
            let (i, m) = isWindow ? (Orientation1.windowInterface, random.pick(Self.windowMethods))
                : isController ? (Orientation1.controllerInterface, random.pick(Self.controllerMethods))
                : (Orientation1.managerInterface, random.pick(Self.managerMethods))
            (interface, method, values) = (i, m, arguments(for: m))
        }
        do {
            let reply = try clients[index].callBlocking(destination: Orientation1.busName, path: target, interface: interface,
                                                        method: method, values: values, timeoutMs: 5000)
            if let path = reply.first?.objectPathValue, path != "/", !known.contains(path) {
                known.append(path)
                creator.append(index)
            }
            answered += 1
        } catch {
            refused[error.name, default: 0] += 1
            let place = "step \(step) (seed \(seed)), \(method) on \(target)"
            if !(error.name.hasPrefix("org.freedesktop.DBus.Error.") || error.name.hasPrefix(Orientation1.errorPrefix)) {
                problems.append("\(place): unexpected error \(error)")
            }
            if error.name == "org.freedesktop.DBus.Error.NoReply" { problems.append("\(place): the daemon did not answer") }
            if error.message.isEmpty { problems.append("\(place): an error without a message") }
        }
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

    /// Values of `name`'s signature most of the time, anything now and then.
    private func arguments(for name: String) -> [Value] {
        guard random.below(5) != 0 else { return (0..<random.below(4)).map { _ in randomValue() } }
        return (Self.signatures[name] ?? "").map { code in
            switch code {
            case "s": .string(random.pick(["view", "navigation", "tab", "bogus"]))
            case "d": .double(random.pick([0, -9.81, 9.81, 2.0, .nan, 200]))
            case "b": .bool(random.below(2) == 0)
            case "o": .objectPath(known.isEmpty ? "/" : random.pick(known + ["/"]))
            default: .uint32(random.pick([0, 1, 2, 3, 4, 5, 6, 8, 16, 24, 26, 30, 31]))
            }
        }
    }

    private func randomValue() -> Value {
        switch random.below(9) {
        case 0, 1: return .uint32(random.pick([0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 24, 26, 30, 31, 32, UInt32.max]))
        case 2: return .bool(random.below(2) == 0)
        case 3: return .double(random.pick([0, -9.81, 9.81, 1e308, .nan, .infinity, 40]))
        case 4: return .string(random.pick(["view", "navigation", "tab", "", "window", "\u{00e9}"]))
        case 5, 6: return .objectPath(known.isEmpty ? "/" : random.pick(known + ["/", "/org/orientationd/Orientation1/controller/99999"]))
        case 7: return .objectPaths((0..<random.below(4)).map { _ in known.isEmpty ? "/" : random.pick(known) })
        default: return .structure([.uint32(1), .uint32(2)])
        }
    }
}
