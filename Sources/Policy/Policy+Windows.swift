// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

extension Policy {
    /// `RegisterWindow`: a new window of `client`, connected as `user` from `process` (0 when unknown);
    /// it becomes key when there is none (P6), or, under a focus authority, when it is the focused
    /// process's newest and none of its windows was chosen (P6f).
    public func registerWindow(client: ClientID, user: UserID, process: UInt32 = 0) throws(PolicyError) -> WindowID {
        try checkRoomForWindow(client: client, user: user)
        let id = WindowID(rawValue: nextWindow)
        nextWindow += 1
        namingFocusTarget(of: process) { windows[id] = Window(id: id, owner: client, process: process, registration: tick()) }
        let settled = currentSettled(of: id)
        windows[id]?.settled = settled
        book(id, client: client, user: user)
        changes.events.append(.windowAdded(id))
        touch(id)
        if focusAuthority != nil {
            followFocus()
        } else if keyWindow == nil {
            makeKey(id)
        }
        decide(.hierarchy)
        return id
    }

    /// `MakeKeyAndVisible`; `caller` nil means a privileged caller, allowed on any window.
    ///
    /// Under a focus authority it is the owning process's choice, key now only when that process is
    /// focused (P6f). Without one, taking the key window from another client's window needs
    /// `mayTakeKeyWindow`, the caller's `take-key-window` privilege.
    public func makeKeyAndVisible(_ id: WindowID, caller: ClientID?, mayTakeKeyWindow: Bool = false) throws(PolicyError) {
        guard let window = windows[id] else { throw PolicyError(.unknownObject, "there is no \(id)") }
        if let caller {
            try requireOwner(window.owner, of: id, caller: caller)
            if !mayTakeKeyWindow, takesKeyWindow(id), let key = keyWindow, let holder = windows[key] {
                throw PolicyError(.accessDenied, "making \(id) key would take the key window from \(key) of \(holder.owner); "
                    + "with no focus authority that needs the take-key-window privilege")
            }
        }
        namingFocusTarget(of: windows[id]?.process ?? 0) { windows[id]?.chosen = tick() }
        if focusAuthority != nil {
            touch(id)
            followFocus()
        } else {
            makeKey(id)
        }
        decide(.hierarchy)
    }

    /// True when making `id` key would take the key window from another client's window with no
    /// focus authority to say who is in front, which needs the `take-key-window` privilege (P6f).
    public func takesKeyWindow(_ id: WindowID) -> Bool {
        guard focusAuthority == nil, let key = keyWindow, key != id,
              let holder = windows[key], let window = windows[id] else { return false }
        return holder.owner != window.owner
    }

    func makeKey(_ id: WindowID) {
        keyDeciderCache = nil
        if let old = keyWindow, old != id {
            touch(old)
            changes.name(.isKey, of: old)
        }
        if keyWindow != id {
            changes.manager.insert(.keyWindow)
            changes.name(.isKey, of: id)
        }
        keyWindow = id
        windows[id]?.lastKey = tick()
        touch(id)
    }

    /// No window is key (P6f: the focused process has none).
    func clearKey() {
        guard let old = keyWindow else { return }
        keyDeciderCache = nil
        keyWindow = nil
        touch(old)
        changes.name(.isKey, of: old)
        changes.manager.insert(.keyWindow)
    }

    /// P6: the window that was key most recently, else the most recently registered one.
    func makeFallbackKey() {
        let next = windows.values.max { a, b in
            (a.lastKey ?? 0, a.registration) < (b.lastKey ?? 0, b.registration)
        }
        if let next { makeKey(next.id) }
    }

    /// The window's `DelegateMask`; 0 means not implemented (P2), refused when its hierarchy would share nothing (P5).
    public func setDelegateMask(_ id: WindowID, _ raw: UInt32, caller: ClientID) throws(PolicyError) {
        let window = try ownedWindow(id, by: caller)
        let mask = raw == 0 ? OrientationMask() : try validMask(raw, for: "\(id)'s delegate mask")
        let windowMask = mask.isEmpty ? applicationMask : mask
        if let root = window.rootController, let conflict = firstConflict(in: root, with: windowMask) {
            throw noCommonOrientation(conflict, id, windowMask)
        }
        update(id) { $0.delegateMask = mask }
        touch(id)
        decide(.hierarchy)
    }

    /// The window's `RootController`; nil detaches the current one.
    public func setRootController(_ id: WindowID, _ controller: ControllerID?, caller: ClientID) throws(PolicyError) {
        let window = try ownedWindow(id, by: caller)
        guard controller != window.rootController else { return }
        if let controller {
            let c = try ownedController(controller, by: caller)
            guard !c.isPlaced else { throw inUse(controller) }
            if let conflict = firstConflict(in: controller, with: supportedMask(of: id)) {
                throw noCommonOrientation(conflict, id, supportedMask(of: id))
            }
        }
        if let old = window.rootController { controllers[old]?.rootOf = nil }
        update(id) { $0.rootController = controller }
        if let controller { controllers[controller]?.rootOf = id }
        touch(id)
        decide(.hierarchy)
    }

    /// `RequestGeometryUpdate` (P13): only the key window, only into its effective mask.
    public func requestGeometryUpdate(_ id: WindowID, _ raw: UInt32, caller: ClientID) throws(PolicyError) {
        _ = try ownedWindow(id, by: caller)
        let mask = try validMask(raw, for: "a geometry request", zero: "name at least one")
        guard keyWindow == id else {
            throw PolicyError(.notKeyWindow, "\(id) is not the key window\(keyWindow.map { " (\($0) is)" } ?? ""); "
                + "only the key window may request a geometry update")
        }
        let allowed = mask.intersection(effectiveMask(of: id))
        guard !allowed.isEmpty else {
            throw PolicyError(.unsupportedOrientations, "\(id) asked for \(mask), but its effective mask is "
                + "\(effectiveMask(of: id)): they have no orientation in common")
        }
        decide(.geometry(id, mask))
    }

    /// `Close`: the window goes, its controllers stay, detached; P6 picks the next key window.
    public func closeWindow(_ id: WindowID, caller: ClientID) throws(PolicyError) {
        _ = try ownedWindow(id, by: caller)
        removeWindow(id)
        decide(.hierarchy)
    }

    func removeWindow(_ id: WindowID) {
        keyDeciderCache = nil
        guard let process = windows[id]?.process else { return }
        var removed: Window?
        namingFocusTarget(of: process) { removed = windows.removeValue(forKey: id) }
        guard let window = removed else { return }
        if let root = window.rootController { controllers[root]?.rootOf = nil }
        unbook(id, client: window.owner)
        changes.events.append(.windowRemoved(id))
        changes.removedWindowOwners[id] = window.owner
        changes.windows[id] = nil
        unsettled.remove(id)
        managerUnsettled = true
        guard keyWindow == id else { return }
        keyWindow = nil
        changes.manager.insert(.keyWindow)
        if focusAuthority != nil { followFocus() } else { makeFallbackKey() }
    }

    func inUse(_ id: ControllerID) -> PolicyError {
        let c = controllers[id]
        var place = "stands in that hierarchy already"
        if let window = c?.rootOf {
            place = "is the root of \(window)"
        } else if let parent = c?.parent {
            place = "is a child of \(parent)"
        } else if let presenter = c?.presenting {
            place = "is presented by \(presenter)"
        }
        return PolicyError(.inUse, "\(id) \(place); a controller stands in one place only")
    }
}
