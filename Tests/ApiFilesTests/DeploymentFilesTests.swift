// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// The bus policy, the activation file, the systemd unit and the polkit actions
/// agree with each other and with the code.
final class DeploymentFilesTests: XCTestCase {
    static let interfaces = [Orientation1.managerInterface, Orientation1.windowInterface, Orientation1.controllerInterface]
    static let standardInterfaces = [StandardInterface.properties, StandardInterface.introspectable, StandardInterface.peer,
                                      StandardInterface.objectManager]

    /// `Key=value` lines of a systemd-style file, by section; later keys append.
    private func keyFile(_ text: String) -> [String: [String: [String]]] {
        var sections: [String: [String: [String]]] = [:]
        var section = ""
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingPrefix(while: \.isWhitespace)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") { section = String(line.dropFirst().prefix { $0 != "]" }); continue }
            guard let eq = line.firstIndex(of: "=") else { continue }
            sections[section, default: [:]][String(line[..<eq]), default: []].append(String(line[line.index(after: eq)...]))
        }
        return sections
    }

    func testBusPolicyLetsOnlyRootAndTheDaemonsUserOwnTheNameAndAnyoneCallTheInterfaces() throws {
        let root = try XMLReader.parse(try XCTUnwrap(readPackageFile("dbus/org.orientationd.Orientation1.conf")))
        XCTAssertEqual(root.name, "busconfig")
        let policies = root.children("policy")
        for policy in policies {
            for rule in policy.children where rule.attributes["own"] != nil || rule.attributes["own_prefix"] != nil {
                XCTAssertEqual(rule.name, "allow")
                XCTAssertEqual(rule.attributes["own"], Orientation1.busName)
                XCTAssertTrue([["user": "root"], ["user": "orientationd"]].contains(policy.attributes),
                              "only root and the daemon's user may own \(Orientation1.busName): \(policy.attributes)")
            }
        }
        let defaults = try XCTUnwrap(policies.first { $0.attributes["context"] == "default" }, "no default policy")
        let allowed = Set(defaults.children("allow").filter { $0.attributes["send_destination"] == Orientation1.busName }
            .compactMap { $0.attributes["send_interface"] })
        XCTAssertEqual(allowed, Set(Self.interfaces + Self.standardInterfaces))
        XCTAssertTrue(defaults.children("allow").contains { $0.attributes == ["receive_sender": Orientation1.busName] },
                      "clients must receive the daemon's signals")
        XCTAssertTrue(root.descendants.allSatisfy { $0.name == "policy" || $0.name == "allow" },
                      "the policy only allows; the system bus denies by default")
    }

    /// The real dbus-daemon loads the file as the system bus would (included after a
    /// deny-by-default policy): root's daemon owns the name, calls on the three
    /// interfaces pass, others are refused by the bus, and nobody cannot own the name.
    func testBusPolicyWorksInADenyByDefaultBus() throws {
        // As root: may own the name.
        let world = try World(systemPolicyFiles: ["\(packageRoot)/dbus/org.orientationd.Orientation1.conf"])
        defer { _ = world.tearDown() }
        let daemon = try world.startDaemon(checked: false)
        let address = world.bus.address
        let client = try Connection(bus: .address(address))
        defer { client.close() }
        let all = try client.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath,
                                          interface: StandardInterface.properties, method: "GetAll",
                                          values: [.string(Orientation1.managerInterface)], timeoutMs: 5000)
        XCTAssertNotNil(all.first?.dictEntries)
        let window = try client.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath,
                                             interface: Orientation1.managerInterface, method: "RegisterWindow", timeoutMs: 5000)
        XCTAssertNotNil(window.first?.objectPathValue)
        XCTAssertThrowsError(try client.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath,
                                                     interface: "org.example.NotOurs", method: "Anything", timeoutMs: 5000)) {
            XCTAssertEqual(($0 as? DBusError)?.name, "org.freedesktop.DBus.Error.AccessDenied", "the bus, not the daemon, refuses")
        }

        guard getuid() == 0, toolExists("setpriv"), toolExists("dbus-send") else { return }
        let nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "dbus-send", "--bus=\(address)",
                      "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.RequestName",
                      "string:\(Orientation1.busName)", "uint32:4"]
        let own = runTool(nobody)
        XCTAssertNotEqual(own.status, 0)
        XCTAssertTrue(own.stderr.contains("AccessDenied"), own.stderr)
        let get = runTool(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "dbus-send", "--bus=\(address)",
                           "--print-reply=literal", "--dest=\(Orientation1.busName)", Orientation1.managerPath,
                           "org.freedesktop.DBus.Properties.Get", "string:org.orientationd.Orientation1", "string:Idiom"])
        XCTAssertEqual(get.status, 0, get.stderr)
        XCTAssertTrue(get.stdout.contains("phone"), get.stdout)
    }

    /// The unit's user, made from the shipped sysusers file, owns the name under the shipped
    /// policy in a deny-by-default bus and serves from a state directory of its own.
    func testTheDaemonRunsAsItsOwnUserUnderTheShippedFiles() throws {
        guard getuid() == 0 else { throw unavailable("creating the daemon's user needs root") }
        let created = runTool(["systemd-sysusers", packageRoot + "/data/orientationd.sysusers"])
        XCTAssertEqual(created.status, 0, created.stderr)
        let user = try XCTUnwrap(getpwnam("orientationd"), "systemd-sysusers did not create orientationd").pointee
        // The bus resolves the policy's user names when it loads them, so after the user exists.
        let world = try World(systemPolicyFiles: ["\(packageRoot)/dbus/org.orientationd.Orientation1.conf"])
        defer { for problem in world.tearDown() { XCTFail(problem) } }
        let state = world.scratch + "/user-state"
        XCTAssertEqual(mkdir(state, 0o755), 0)
        chown(state, user.pw_uid, user.pw_gid)
        let account = TestAccount(name: "orientationd", uid: user.pw_uid, gid: user.pw_gid, groups: [])
        let daemon = try world.startDaemon(stateDirectory: state + "/state", user: account)
        let client = try world.newConnection()
        let ownerName = try client.callBusDriverBlocking("GetNameOwner", [.string(Orientation1.busName)]).first?.stringValue ?? ""
        let uid = try client.callBusDriverBlocking("GetConnectionUnixUser", [.string(ownerName)]).first?.uint32Value
        XCTAssertEqual(uid, user.pw_uid)
        // Root's call is privileged whoever the daemon runs as; the daemon's user writes its state.
        _ = try client.callBlocking(destination: Orientation1.busName, path: Orientation1.managerPath, interface: StandardInterface.properties,
                                    method: "Set", values: [.string(Orientation1.managerInterface), .string("RotationLocked"), .variant(.bool(true))],
                                    timeoutMs: 5000)
        XCTAssertTrue(waitUntil { readText(state + "/state/state").contains("RotationLocked=true") }, daemon.log)
    }

    /// The templates `make install` fills in (dbus/*.service.in, data/orientationd.service.in): the bus
    /// and systemd start the same program with the same config file; only the bus names the state directory, which the unit
    /// leaves to its StateDirectory=.
    func testActivationFileAndUnitAgree() throws {
        let service = keyFile(try XCTUnwrap(readPackageFile("dbus/org.orientationd.Orientation1.service.in")))["D-BUS Service"] ?? [:]
        XCTAssertEqual(service["Name"], [Orientation1.busName])
        XCTAssertEqual(service["User"], ["orientationd"])
        XCTAssertEqual(service["SystemdService"], ["orientationd.service"])
        let command = "@libexecdir@/orientationd --system@config_option@"
        XCTAssertEqual(service["Exec"], [command + "@state_option@"])

        XCTAssertTrue(packageDirectory("data").contains("orientationd.service.in"), "SystemdService names data/orientationd.service.in")
        let unit = keyFile(try XCTUnwrap(readPackageFile("data/orientationd.service.in")))
        let s = unit["Service"] ?? [:]
        XCTAssertEqual(s["Type"], ["dbus"])
        XCTAssertEqual(s["BusName"], [Orientation1.busName])
        XCTAssertEqual(s["ExecStart"], [command], "the bus and systemd start the same command")
        XCTAssertEqual(s["StateDirectory"], ["orientationd"])
        XCTAssertEqual(s["StateDirectoryMode"], ["0755"], "the state directory dbus-api.md describes")
        XCTAssertEqual(s["User"], ["orientationd"])
        XCTAssertEqual(s["Group"], ["orientationd"])
        let sysusers = try XCTUnwrap(readPackageFile("data/orientationd.sysusers"))
        XCTAssertTrue(sysusers.split(separator: "\n").contains { $0.hasPrefix("u orientationd ") }, sysusers)
        for (key, value) in [("ProtectSystem", "strict"), ("ProtectHome", "yes"), ("PrivateTmp", "yes"),
                             ("NoNewPrivileges", "yes"), ("RestrictAddressFamilies", "AF_UNIX AF_NETLINK"),
                             ("CapabilityBoundingSet", ""), ("MemoryDenyWriteExecute", "yes")] {
            XCTAssertEqual(s[key], [value], "[Service] \(key)")
        }
        XCTAssertNil(s["PrivateNetwork"], "PrivateNetwork would hide the system bus")
    }

    /// The unit bounds what the daemon may take, whatever clients send (Docs/security.md).
    func testUnitBoundsMemoryAndDescriptors() throws {
        let unit = keyFile(try XCTUnwrap(readPackageFile("data/orientationd.service.in")))
        let s = unit["Service"] ?? [:]
        XCTAssertEqual(s["MemoryMax"], ["256M"])
        XCTAssertEqual(s["LimitNOFILE"], ["256"])
    }

    func testPolkitFileDeclaresTheActionsTheAuthorizerAsksFor() throws {
        let source = try XCTUnwrap(readPackageFile("Sources/Authorization/Authorizer.swift"))
        let used = Set(source.matches(of: /"(org\.orientationd\.Orientation1\.[a-z-]+)"/).map { String($0.output.1) })
        XCTAssertEqual(used.count, 6, "Authorizer.swift names \(used.sorted())")

        let root = try XMLReader.parse(try XCTUnwrap(readPackageFile("dbus/org.orientationd.Orientation1.policy")))
        XCTAssertEqual(root.name, "policyconfig")
        let actions = root.children("action")
        XCTAssertEqual(Set(actions.compactMap { $0.attributes["id"] }), used)
        XCTAssertEqual(actions.count, used.count, "each action once")
        for action in actions {
            XCTAssertEqual(action.children("description").count, 1, "\(action.attributes["id"] ?? "?") has a description")
            XCTAssertEqual(action.children("message").count, 1, "\(action.attributes["id"] ?? "?") has a message")
            XCTAssertEqual(action.children("defaults").first?.children.map(\.name).sorted(),
                           ["allow_active", "allow_any", "allow_inactive"])
            // polkit answers checks about other users' processes only to root or to the action's owner.
            XCTAssertEqual(action.children("annotate").filter { $0.attributes["key"] == "org.freedesktop.policykit.owner" }.map(\.text),
                           ["unix-user:orientationd"], "\(action.attributes["id"] ?? "?") names the daemon's user as its owner")
        }
        func allowActive(_ id: String) -> String? {
            actions.first { $0.attributes["id"] == id }?.children("defaults").first?.children("allow_active").first?.text
        }
        XCTAssertEqual(allowActive("org.orientationd.Orientation1.lock-rotation"), "yes")
        XCTAssertEqual(allowActive("org.orientationd.Orientation1.set-device-orientation"), "auth_admin_keep")
        XCTAssertEqual(allowActive("org.orientationd.Orientation1.configure-application"), "auth_admin_keep")
        // An application in front may take the screen; a background or remote one may not, and is not asked to authenticate.
        let takeKey = actions.first { $0.attributes["id"] == "org.orientationd.Orientation1.take-key-window" }?.children("defaults").first
        XCTAssertEqual(takeKey?.children("allow_active").first?.text, "yes")
        XCTAssertEqual(takeKey?.children("allow_inactive").first?.text, "no")
        XCTAssertEqual(takeKey?.children("allow_any").first?.text, "no")
    }
}
