// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import Policy

/// What the bus says a client is: the uid it connected as (for the per-user limits and privilege), its
/// groups (for `[Security] PrivilegedGroups`) and its process (for the focus authority, P6f).
package struct Credentials {
    package let user: UserID
    package let groups: [UInt32]
    /// 0 when the bus cannot tell, which is never focused.
    package let process: UInt32
}

/// Each client's credentials, asked of the bus once per client (`GetConnectionCredentials`), without
/// blocking the loop, and forgotten when it leaves.
///
/// While a client's lookup is in flight its later requests wait behind it, in order, so one client
/// never has more than one lookup outstanding.
package final class ClientCredentials {
    private let bus: any Bus
    private var known: [ClientID: Credentials] = [:]
    private var waiting: [ClientID: [(Credentials?) -> Void]] = [:]

    package init(bus: any Bus) {
        self.bus = bus
    }

    /// Calls `then` with the client's credentials: at once when known, else once the bus answers;
    /// nil when the bus cannot tell (the client has left).
    package func credentials(of client: ClientID, _ then: @escaping (Credentials?) -> Void) {
        if let found = known[client] { return then(found) }
        if waiting[client] != nil {
            waiting[client]?.append(then)
            return
        }
        waiting[client] = [then]
        bus.callBusDriver("GetConnectionCredentials", [.string(client)]) { [weak self] result in
            guard let self, let callers = waiting.removeValue(forKey: client) else { return }
            var found: Credentials?
            if case .success(let values) = result, let dictionary = values.first?.stringKeyedDictionary,
               let user = Self.number(dictionary["UnixUserID"]) {
                let groups = (dictionary["UnixGroupIDs"]?.variantValue ?? dictionary["UnixGroupIDs"])?.arrayValues ?? []
                found = Credentials(user: user, groups: groups.compactMap(\.uint32Value),
                                    process: Self.number(dictionary["ProcessID"]) ?? 0)
                known[client] = found
            }
            for caller in callers { caller(found) }
        }
    }

    /// The client's uid when the bus has told it already; else nil, and the bus is asked, so that it is
    /// known for the client's next calls (the call queues' per-user bound).
    package func knownUser(of client: ClientID) -> UserID? {
        if let found = known[client] { return found.user }
        if waiting[client] == nil { credentials(of: client) { _ in } }
        return nil
    }

    /// The client left the bus.
    package func forget(_ client: ClientID) {
        known[client] = nil
    }

    private static func number(_ value: Value?) -> UInt32? {
        (value?.variantValue ?? value)?.uint32Value
    }
}
