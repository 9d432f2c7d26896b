@preconcurrency import Glibc
import XCTest
import DBus
import TestSupport

/// A local account the privilege tests run clients as.
struct TestAccount {
    let name: String
    let uid: uid_t
    let gid: gid_t
    /// Its supplementary groups, as a client running as it has them.
    let groups: [gid_t]
}

/// The accounts, created on first use when missing (the tests run as root on CI), so a run
/// on a fresh machine and a second run on the same one both work.
enum TestAccounts {
    static let groupName = "orientationd-test-admins"

    /// An ordinary user, in no group of interest.
    static func user() throws -> TestAccount { try account("orientationd-test", inGroup: false) }

    /// Another ordinary user, member of `groupName`.
    static func groupMember() throws -> TestAccount { try account("orientationd-test-member", inGroup: true) }

    /// uid 65534, for a caller nothing lists.
    static let nobody = TestAccount(name: "nobody", uid: 65534, gid: 65534, groups: [])

    private static func account(_ name: String, inGroup: Bool) throws -> TestAccount {
        guard getuid() == 0 else { throw XCTSkip("running clients as other users needs root") }
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

extension DaemonTestCase {
    /// Lets every user reach the private bus's socket (its directory is private by default).
    func openBusToEveryUser() {
        let socket = bus.address.components(separatedBy: "unix:path=").last?.components(separatedBy: ",").first ?? ""
        chmod(dirname(socket), 0o755)
        chmod(socket, 0o777)
    }

    /// A client that the bus sees as `account`: this process takes the account's effective ids only
    /// while it connects, which is when the bus reads a peer's credentials.
    func connect(as account: TestAccount) throws -> Connection {
        openBusToEveryUser()
        var saved = [gid_t](repeating: 0, count: 256)
        let count = getgroups(Int32(saved.count), &saved)
        precondition(count >= 0 && setgroups(account.groups.count, account.groups) == 0 && setegid(account.gid) == 0
                     && seteuid(account.uid) == 0, "cannot take the ids of \(account.name)")
        defer {
            precondition(seteuid(0) == 0 && setegid(0) == 0 && setgroups(Int(count), saved) == 0, "cannot become root again")
        }
        let client = try Connection(bus: .address(bus.address))
        clients.append(client)
        return client
    }
}
