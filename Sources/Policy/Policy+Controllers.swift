// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

extension Policy {
    /// `CreateController`: a detached controller of `kind` (`view`, `navigation`, `tab`) for `client`,
    /// connected as `user`, with P3's defaults.
    public func createController(kind name: String, client: ClientID, user: UserID) throws(PolicyError) -> ControllerID {
        guard let kind = ControllerKind(rawValue: name) else {
            throw PolicyError(.invalidArgs, "'\(name)' is not a controller kind; accepted: view, navigation, tab")
        }
        try checkRoomForController(client: client, user: user)
        let id = ControllerID(rawValue: nextController)
        nextController += 1
        controllers[id] = Controller(id: id, owner: client, kind: kind, supportedMask: idiom.defaultMask)
        book(id, client: client, user: user)
        changes.events.append(.controllerAdded(id))
        return id
    }

    /// The step every controller setter shares: the caller must own the controller; `change` checks
    /// the new value against it and sets it (a throw leaves everything as it was); then the controller
    /// is marked for announcing and, unless `redecides` is false, the rules are applied again.
    func mutateController(_ id: ControllerID, caller: ClientID, redecides: Bool = true,
                          _ change: (inout Controller) throws(PolicyError) -> Void) throws(PolicyError) {
        var controller = try ownedController(id, by: caller)
        let old = controller
        try change(&controller)
        controllers[id] = controller
        changes.name(controller.changes(from: old), of: id)
        touch(id)
        if redecides { decide(.hierarchy) }
    }

    /// `SupportedMask`; 0 restores the idiom's default. Refused when its window would share nothing with it (P5).
    public func setSupportedMask(_ id: ControllerID, _ raw: UInt32, caller: ClientID) throws(PolicyError) {
        try mutateController(id, caller: caller) { c throws(PolicyError) in
            let mask = raw == 0 ? idiom.defaultMask : try validMask(raw, for: "\(id)'s supported mask")
            if let window = window(containing: id), mask.isDisjoint(with: supportedMask(of: window)) {
                throw PolicyError(.noCommonOrientation, "\(id) would support \(mask), which has no common orientation "
                    + "with \(window)'s mask \(supportedMask(of: window))")
            }
            c.supportedMask = mask
        }
    }

    /// `ShouldAutorotate`: consulted by device-driven rotations only (P8), so nothing is decided now.
    public func setShouldAutorotate(_ id: ControllerID, _ value: Bool, caller: ClientID) throws(PolicyError) {
        try mutateController(id, caller: caller, redecides: false) { c in c.shouldAutorotate = value }
    }

    /// `PrefersOrientationLocked` (P17): locking never rotates; unlocking catches up with the device,
    /// as the user's lock does (P11), when this controller decides for the key window.
    public func setPrefersOrientationLocked(_ id: ControllerID, _ value: Bool, caller: ClientID) throws(PolicyError) {
        var unlocked = false
        try mutateController(id, caller: caller, redecides: false) { c in
            unlocked = c.prefersOrientationLocked && !value
            c.prefersOrientationLocked = value
        }
        if unlocked { decide(.device) }
    }

    /// `PreferredOrientation`, 0–4; checked against the mask only when presented.
    public func setPreferredOrientation(_ id: ControllerID, _ raw: UInt32, caller: ClientID) throws(PolicyError) {
        try mutateController(id, caller: caller) { c throws(PolicyError) in
            guard let preferred = InterfaceOrientation(rawValue: raw) else {
                throw PolicyError(.invalidArgs, "\(raw) is not an interface orientation; accepted: 0 (not implemented), "
                    + "1 portrait, 2 portrait-upside-down, 3 landscape-right, 4 landscape-left")
            }
            c.preferredOrientation = preferred
        }
    }

    /// `ForwardsToChild`, containers only.
    public func setForwardsToChild(_ id: ControllerID, _ value: Bool, caller: ClientID) throws(PolicyError) {
        try mutateController(id, caller: caller) { c throws(PolicyError) in
            guard c.kind.isContainer else {
                throw PolicyError(.invalidArgs, "\(id) is a view controller; only navigation and tab controllers forward to a child")
            }
            c.forwardsToChild = value
        }
    }

    /// `SelectedIndex`, tabs only, within `ViewControllers` (0 is accepted on an empty tab controller).
    public func setSelectedIndex(_ id: ControllerID, _ index: UInt32, caller: ClientID) throws(PolicyError) {
        try mutateController(id, caller: caller) { c throws(PolicyError) in
            guard c.kind == .tab else {
                throw PolicyError(.invalidArgs, "\(id) is a \(c.kind.rawValue) controller; only tab controllers have a selected index")
            }
            guard Int(index) < c.children.count || (index == 0 && c.children.isEmpty) else {
                throw PolicyError(.invalidArgs, "index \(index) is out of range: \(id) has \(c.children.count) tabs")
            }
            c.selectedIndex = index
        }
    }

    /// `PushViewController`, navigation only.
    public func push(_ child: ControllerID, onto id: ControllerID, caller: ClientID) throws(PolicyError) {
        let nav = try ownedController(id, by: caller)
        guard nav.kind == .navigation else {
            throw PolicyError(.invalidArgs, "\(id) is a \(nav.kind.rawValue) controller; only navigation controllers push")
        }
        let window = try checkPlacement(of: [child], under: id, caller: caller)
        update(id) { $0.children.append(child) }
        update(child) { $0.parent = id }
        touch(child, in: window)
        touch(id, in: window)
        decide(.hierarchy)
    }

    /// `PopViewController`: the top of a stack of at least two.
    public func pop(_ id: ControllerID, caller: ClientID) throws(PolicyError) -> ControllerID {
        let nav = try ownedController(id, by: caller)
        guard nav.kind == .navigation else {
            throw PolicyError(.invalidArgs, "\(id) is a \(nav.kind.rawValue) controller; only navigation controllers pop")
        }
        guard nav.children.count >= 2, let top = nav.children.last else {
            throw PolicyError(.cannotPop, "\(id)'s stack holds \(nav.children.count) controller(s); popping needs at least 2")
        }
        let window = window(containing: id)
        touch(top, in: window)
        update(id) { _ = $0.children.removeLast() }
        update(top) { $0.parent = nil }
        touch(id, in: window)
        decide(.hierarchy)
        return top
    }

    /// `SetViewControllers`, navigation and tab: the new stack or tabs; the selection goes back to 0.
    public func setViewControllers(_ id: ControllerID, _ list: [ControllerID], caller: ClientID) throws(PolicyError) {
        let container = try ownedController(id, by: caller)
        guard container.kind.isContainer else {
            throw PolicyError(.invalidArgs, "\(id) is a view controller; only navigation and tab controllers hold children")
        }
        let window = try checkPlacement(of: list, under: id, caller: caller, reordering: true)
        // A set, so replacing thousands of children stays linear.
        let kept = Set(list)
        for old in container.children where !kept.contains(old) {
            update(old) { $0.parent = nil }
            touch(old, in: window)
        }
        for new in list {
            update(new) { $0.parent = id }
            touch(new, in: window)
        }
        update(id) { $0.children = list; $0.selectedIndex = 0 }
        touch(id, in: window)
        decide(.hierarchy)
    }

    /// `PresentViewController`: full-screen modal presentation, rotating to the preferred orientation (P9).
    public func present(_ presented: ControllerID, from id: ControllerID, caller: ClientID) throws(PolicyError) {
        let presenter = try ownedController(id, by: caller)
        if let current = presenter.presented {
            throw PolicyError(.alreadyPresenting, "\(id) already presents \(current); dismiss it first")
        }
        let window = try checkPlacement(of: [presented], under: id, caller: caller)
        // The rules in force inside a presented forwarding container are its deciding child's (P9): only that
        // controller's preferred orientation is used, so only it is checked.
        let candidate = decider(from: presented)
        if let c = controllers[candidate], c.preferredOrientation != .unknown,
           !c.supportedMask.contains(c.preferredOrientation) {
            throw PolicyError(.preferredNotSupported, "\(candidate) prefers \(c.preferredOrientation.name), which "
                + "is not in its supported mask \(c.supportedMask)")
        }
        if let window, let inner = controllers[candidate], inner.preferredOrientation != .unknown {
            let mask = effectiveMask(of: window, with: PendingPresentation(presenter: id, presented: presented))
            guard mask.contains(inner.preferredOrientation) else {
                throw PolicyError(.noCommonOrientation, "\(inner.id) prefers \(inner.preferredOrientation.name), "
                    + "which is not in \(window)'s effective mask \(mask) once presented")
            }
        }
        update(id) { $0.presented = presented }
        update(presented) { $0.presenting = id }
        touch(presented, in: window)
        touch(id, in: window)
        decide(.presentation(presented))
    }

    /// `DismissViewController`: what this controller presents goes, with everything above it;
    /// a presented controller that presents nothing dismisses itself; otherwise nothing happens.
    public func dismiss(_ id: ControllerID, caller: ClientID) throws(PolicyError) {
        let c = try ownedController(id, by: caller)
        guard let dismissed = c.presented ?? (c.presenting != nil ? id : nil) else { return }
        // Mark first: once unlinked, the window holding them can no longer be found from them.
        let window = window(containing: dismissed)
        let members = subtree(of: dismissed)
        for member in members { touch(member, in: window) }
        if let presenter = controllers[dismissed]?.presenting {
            touch(presenter, in: window)
            update(presenter) { $0.presented = nil }
            update(dismissed) { $0.presenting = nil }
        }
        for member in members {
            if let above = controllers[member]?.presented {
                update(member) { $0.presented = nil }
                update(above) { $0.presenting = nil }
            }
        }
        decide(.hierarchy)
    }

    /// `Destroy`: detached from every place and removed.
    public func destroy(_ id: ControllerID, caller: ClientID) throws(PolicyError) {
        _ = try ownedController(id, by: caller)
        removeController(id)
        decide(.hierarchy)
    }

    func removeController(_ id: ControllerID) {
        keyDeciderCache = nil
        guard let c = controllers[id] else { return }
        touch(id)
        if let parent = c.parent, let index = controllers[parent]?.children.firstIndex(of: id) {
            update(parent) { container in
                container.children.remove(at: index)
                let selected = Int(container.selectedIndex)
                if index < selected || (selected > 0 && selected >= container.children.count) {
                    container.selectedIndex -= 1
                }
            }
            touch(parent)
        }
        if let presenter = c.presenting { update(presenter) { $0.presented = nil }; touch(presenter) }
        if let window = c.rootOf { update(window) { $0.rootController = nil }; touch(window) }
        for child in c.children { update(child) { $0.parent = nil } }
        if let above = c.presented { update(above) { $0.presenting = nil } }
        controllers[id] = nil
        unbook(id, client: c.owner)
        changes.events.append(.controllerRemoved(id))
        changes.removedControllerOwners[id] = c.owner
        changes.controllers[id] = nil
    }

    /// Removes a whole set of controllers at once (a client's, when it leaves). Only links to controllers
    /// outside the set are undone, so a deep or wide hierarchy goes in one pass over the set.
    func removeControllers(_ doomed: Set<ControllerID>) {
        keyDeciderCache = nil
        for id in doomed {
            guard let c = controllers[id] else { continue }
            if let parent = c.parent, !doomed.contains(parent) { removeController(id); continue }
            if let presenter = c.presenting, !doomed.contains(presenter) { update(presenter) { $0.presented = nil }; touch(presenter) }
            if let window = c.rootOf { update(window) { $0.rootController = nil }; touch(window) }
            for child in c.children where !doomed.contains(child) { update(child) { $0.parent = nil } }
            if let above = c.presented, !doomed.contains(above) { update(above) { $0.presenting = nil } }
            controllers[id] = nil
            unbook(id, client: c.owner)
            changes.events.append(.controllerRemoved(id))
            changes.removedControllerOwners[id] = c.owner
            changes.controllers[id] = nil
        }
        managerUnsettled = true
    }

    /// Checks that `list` may stand under `id`: existing, same owner, nowhere else, no cycle, within the depth limit,
    /// and sharing an orientation with the window's mask (P5).
    /// Returns the window holding `id`, so the caller need not walk up again.
    @discardableResult
    func checkPlacement(of list: [ControllerID], under id: ControllerID, caller: ClientID,
                        reordering: Bool = false) throws(PolicyError) -> WindowID? {
        var seen = Set<ControllerID>()
        // One walk up serves the cycle check, the depth and the window.
        let above = chain(from: id)
        let base = above.count
        let window = above.last.flatMap { controllers[$0]?.rootOf }
        for child in list {
            let c = try ownedController(child, by: caller)
            guard seen.insert(child).inserted else {
                throw PolicyError(.inUse, "\(child) is listed twice; a controller stands in one place only")
            }
            if above.contains(child) {
                throw PolicyError(.inUse, "\(child) cannot stand under \(id): \(id) is \(child == id ? "itself" : "inside it")")
            }
            // SetViewControllers may keep children the container already holds.
            guard !c.isPlaced || (reordering && c.parent == id) else { throw inUse(child) }
            let depth = base + height(of: child)
            guard depth <= configuration.limits.depth else {
                throw PolicyError(.limitsExceeded, "placing \(child) under \(id) makes a hierarchy \(depth) deep; "
                    + "the limit is \(configuration.limits.depth)")
            }
            if let window, let conflict = firstConflict(in: child, with: supportedMask(of: window)) {
                throw noCommonOrientation(conflict, window, supportedMask(of: window))
            }
        }
        return window
    }
}
