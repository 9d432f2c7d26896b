// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

extension Policy {
    /// Refuses a new window when the client, its user or the service as a whole is at its limit
    /// (dbus-api.md, `[Limits]`); the narrowest limit reached is the one named.
    func checkRoomForWindow(client: ClientID, user: UserID) throws(PolicyError) {
        let limits = configuration.limits
        try checkRoom(for: "windows", keys: ("Windows", "WindowsPerUser", "TotalWindows"), undo: "close one",
                      counts: (owned[client]?.windows.count ?? 0, perUser[user]?.windows ?? 0, windows.count),
                      limits: (limits.windows, limits.windowsPerUser, limits.totalWindows), client: client, user: user)
    }

    /// As `checkRoomForWindow`, for a new controller.
    func checkRoomForController(client: ClientID, user: UserID) throws(PolicyError) {
        let limits = configuration.limits
        try checkRoom(for: "controllers", keys: ("Controllers", "ControllersPerUser", "TotalControllers"), undo: "destroy one",
                      counts: (owned[client]?.controllers.count ?? 0, perUser[user]?.controllers ?? 0, controllers.count),
                      limits: (limits.controllers, limits.controllersPerUser, limits.totalControllers), client: client, user: user)
    }

    /// One kind of object's three limits (per client, per user, in all) against what is held now.
    private func checkRoom(for kind: String, keys: (client: String, user: String, total: String), undo: String,
                           counts: (client: Int, user: Int, total: Int), limits: (client: Int, user: Int, total: Int),
                           client: ClientID, user: UserID) throws(PolicyError) {
        guard counts.client < limits.client else {
            throw PolicyError(.limitsExceeded, "\(client) already owns \(counts.client) \(kind), the most one connection may own "
                + "([Limits] \(keys.client)=\(limits.client)); \(undo) first")
        }
        guard counts.user < limits.user else {
            throw PolicyError(.limitsExceeded, "uid \(user) already owns \(counts.user) \(kind) across its connections, the most "
                + "one user may own ([Limits] \(keys.user)=\(limits.user)); \(undo) first")
        }
        guard counts.total < limits.total else {
            throw PolicyError(.limitsExceeded, "the service already holds \(counts.total) \(kind), the most it holds for all "
                + "clients together ([Limits] \(keys.total)=\(limits.total)); try again once others have gone")
        }
    }

    /// Books a new window to its client and user, and lists it last among the windows.
    func book(_ id: WindowID, client: ClientID, user: UserID) {
        let holder = owned[client]?.user ?? user
        owned[client, default: ClientHoldings(user: holder)].windows.insert(id)
        perUser[holder, default: UserCounts()].windows += 1
        windowOrder.append(id)
    }

    /// Books a new controller to its client and user, and lists it last among the controllers.
    func book(_ id: ControllerID, client: ClientID, user: UserID) {
        let holder = owned[client]?.user ?? user
        owned[client, default: ClientHoldings(user: holder)].controllers.insert(id)
        perUser[holder, default: UserCounts()].controllers += 1
        controllerOrder.append(id)
    }

    /// Takes a removed window off its client's and user's books and its listing.
    func unbook(_ id: WindowID, client: ClientID) {
        guard let user = owned[client]?.user, owned[client]?.windows.remove(id) != nil else { return }
        windowOrder.noteRemoval { windows[$0] != nil }
        perUser[user]?.windows -= 1
        forgetIfEmpty(user)
    }

    /// Takes a removed controller off its client's and user's books and its listing.
    func unbook(_ id: ControllerID, client: ClientID) {
        guard let user = owned[client]?.user, owned[client]?.controllers.remove(id) != nil else { return }
        controllerOrder.noteRemoval { controllers[$0] != nil }
        perUser[user]?.controllers -= 1
        forgetIfEmpty(user)
    }

    /// A user who owns nothing keeps no entry, so churn of users leaves nothing behind.
    private func forgetIfEmpty(_ user: UserID) {
        if let counts = perUser[user], counts.windows == 0, counts.controllers == 0 { perUser[user] = nil }
    }
}
