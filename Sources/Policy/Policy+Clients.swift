// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

extension Policy {
    /// A client left the bus: its claims end, a focus authority's focus is cleared (P6f), and everything
    /// it owned goes (P16), then P6 and P9, and P10 too when the focus cleared: a focus cleared is a
    /// focus change. Costs what the client owned, not what every client owns.
    public func clientLeft(_ client: ClientID) {
        if let count = claims.removeValue(forKey: client) {
            totalClaims -= count
            if totalClaims == 0 { stopGenerating() }
        }
        let focusCleared = client == focusAuthority
        if focusCleared { focusAuthorityLeft() }
        if let holdings = owned[client] {
            for id in holdings.windows.sorted() { removeWindow(id) }
            removeControllers(holdings.controllers)
        }
        owned[client] = nil
        decide(focusCleared ? .focus : .hierarchy)
    }

    /// The object's owner must be the caller; objects used together must share an owner.
    func requireOwner(_ owner: ClientID, of object: CustomStringConvertible, caller: ClientID) throws(PolicyError) {
        guard owner == caller else {
            throw PolicyError(.accessDenied, "\(object) belongs to \(owner), not to \(caller): "
                + "only the client that created an object may change it or use it")
        }
    }

    /// The window, owned by `caller`.
    func ownedWindow(_ id: WindowID, by caller: ClientID) throws(PolicyError) -> Window {
        guard let window = windows[id] else { throw PolicyError(.unknownObject, "there is no \(id)") }
        try requireOwner(window.owner, of: id, caller: caller)
        return window
    }

    /// The controller, owned by `caller`.
    func ownedController(_ id: ControllerID, by caller: ClientID) throws(PolicyError) -> Controller {
        guard let controller = controllers[id] else { throw PolicyError(.unknownObject, "there is no \(id)") }
        try requireOwner(controller.owner, of: id, caller: caller)
        return controller
    }
}

extension Policy {
    /// True when the client holds claims, has ever owned objects or is the focus authority, so its departure matters.
    public func isKnown(_ client: ClientID) -> Bool {
        claims[client] != nil || owned[client] != nil || focusAuthority == client
    }
}
