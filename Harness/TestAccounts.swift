// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import DBus

/// A local account tests run a client or the daemon as.
public struct TestAccount: Sendable {
    public let name: String
    public let uid: uid_t
    public let gid: gid_t
    /// Its supplementary groups, as a client running as it has them.
    public let groups: [gid_t]

    public init(name: String, uid: uid_t, gid: gid_t, groups: [gid_t]) {
        self.name = name
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }
}

/// The accounts, created on first use when missing (the tests run as root on CI), so a run
/// on a fresh machine and a second run on the same one both work.
public enum TestAccounts {
    public static let groupName = "orientationd-test-admins"

    /// An ordinary user, in no group of interest.
    public static func user() throws -> TestAccount { try account("orientationd-test", inGroup: false) }

    /// Another ordinary user, member of `groupName`.
    public static func groupMember() throws -> TestAccount { try account("orientationd-test-member", inGroup: true) }

    /// Whether the accounts can be made and taken on: only as root (as CI runs). The harness has no
    /// XCTest (the benchmarks use it too), so callers turn this into a skip themselves.
    public static var available: Bool { getuid() == 0 }

    /// uid 65534, for a caller nothing lists.
    public static let nobody = TestAccount(name: "nobody", uid: 65534, gid: 65534, groups: [])

    private static func account(_ name: String, inGroup: Bool) throws -> TestAccount {
        guard available else { throw DBusError.failed("creating \(name) needs root") }
        if getgrnam(groupName) == nil { try run(["/usr/sbin/groupadd", "--system", groupName]) }
        if getpwnam(name) == nil {
            try run(["/usr/sbin/useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin"]
                    + (inGroup ? ["--groups", groupName] : []) + [name])
        }
        guard let entry = getpwnam(name), let group = getgrnam(groupName) else {
            throw DBusError.failed("the account \(name) or the group \(groupName) is missing after creating them")
        }
        return TestAccount(name: name, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid,
                           groups: inGroup ? [group.pointee.gr_gid] : [])
    }

    private static func run(_ argv: [String]) throws {
        let result = runTool(argv)
        // Another test process may have created it in between.
        guard result.status == 0 || result.stderr.contains("already exists") else {
            throw DBusError.failed("\(argv.joined(separator: " ")) failed: \(result.stderr)")
        }
    }
}
