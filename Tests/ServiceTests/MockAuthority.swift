// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import TestSupport

/// A polkit authority on the private bus: python-dbusmock's `polkitd` template, or the same template
/// extended (`heldTemplate`) to hold checks, answer them in reverse order and record cancellations.
/// Started as `user` (root when nil), since the daemon trusts an authority by the uid it runs as.
final class MockAuthority {
    static let name = "org.freedesktop.PolicyKit1"
    static let path = "/org/freedesktop/PolicyKit1/Authority"
    static let mockInterface = "org.freedesktop.DBus.Mock"

    let process: ChildProcess
    private let probe: Connection

    /// Starts it in `world`, on the world's bus as its system bus.
    init(in world: World, held: Bool = false, user: TestAccount? = nil) throws {
        let scratch = world.scratch
        guard access("/usr/bin/python3", X_OK) == 0,
              pythonImports(["dbusmock.templates.polkitd"]).status == 0 else {
            // scripts/install-deps installs it; a missing mock must not turn the privilege tests into passes.
            throw DBusError.failed("python3-dbusmock is not installed (apt: python3-dbusmock)")
        }
        var template = "polkitd"
        if held {
            template = scratch + "/held_polkitd.py"
            writeText(template, Self.heldTemplate)
            chmod(scratch, 0o755)
            chmod(template, 0o644)
        }
        let asUser = user.map { ["setpriv", "--reuid=\($0.uid)", "--regid=\($0.gid)", "--clear-groups"] } ?? []
        probe = world.probe
        // setpriv and env keep the environment, so the bus address reaches the mock as its system bus.
        process = try world.start(asUser + ["/usr/bin/python3", "-m", "dbusmock", "--system", "--template", template],
                                  name: "polkit-\(user?.name ?? "root")", environment: ["DBUS_SYSTEM_BUS_ADDRESS": world.bus.address],
                                  waitFor: Self.name, timeout: 10)
    }

    func stop() { process.stop() }

    @discardableResult
    func mock(_ method: String, _ values: [Value] = []) throws -> [Value] {
        try probe.callBlocking(destination: Self.name, path: Self.path, interface: Self.mockInterface, method: method,
                               values: values, timeoutMs: 5000)
    }

    /// Allows these actions (the template refuses every other).
    func allow(_ actions: [String]) throws { try mock("SetAllowed", [.array(elementSignature: "s", actions.map { .string($0) })]) }

    /// Holds every check unanswered until `releaseReversed`, or until it is cancelled.
    func hold() throws { try mock("SimulateHang", [.bool(true)]) }

    /// Answers the held checks, the last received first; returns how many.
    @discardableResult
    func releaseReversed() throws -> UInt32 { try mock("ReleaseHeldReversed").first?.uint32Value ?? 0 }

    var heldCount: UInt32 { (try? mock("HeldCount"))?.first?.uint32Value ?? 0 }

    /// The cancellation ids `CancelCheckAuthorization` received.
    var cancelled: [String] { ((try? mock("Cancelled"))?.first?.arrayValues ?? []).compactMap(\.stringValue) }

    /// Each `CheckAuthorization` received: subject's bus name, action, flags, cancellation id.
    func checks() throws -> [(subject: String, action: String, flags: UInt32, cancellation: String)] {
        let calls = try mock("GetMethodCalls", [.string("CheckAuthorization")]).first?.arrayValues ?? []
        return calls.compactMap { call in
            guard let fields = call.structureValues, fields.count == 2,
                  let args = fields[1].arrayValues?.map({ $0.variantValue ?? $0 }), args.count == 5 else { return nil }
            let subject = args[0].structureValues?.last?.dictEntries?
                .first { $0.0.stringValue == "name" }.map { $0.1.variantValue ?? $0.1 }?.stringValue ?? ""
            return (subject, args[1].stringValue ?? "", args[3].uint32Value ?? 99, args[4].stringValue ?? "")
        }
    }

    /// The stock template with checks that can be held, answered in reverse order, and cancelled.
    static let heldTemplate = fixtureText("ServiceTests/Fixtures/held_polkitd.py")
}
