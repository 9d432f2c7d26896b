// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import DBus
import TestSupport

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
