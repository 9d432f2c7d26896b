// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

/// A reason to re-decide the interface orientation; kept in order while a transition is under way (P14).
enum Decision: Equatable {
    /// P8: follow the device.
    case device
    /// P9: masks or the hierarchy changed.
    case hierarchy
    /// P9: this controller was presented.
    case presentation(ControllerID)
    /// P13: the window asked for one of these orientations.
    case geometry(WindowID, OrientationMask)
    /// P6f, P6a: the focus moved; P9, then P10.
    case focus
    /// P18: the posture changed; P10 with the orientation P8 sees.
    case posture
}

extension Policy {
    /// Takes the decision now, or after the transition under way when there is one.
    func decide(_ decision: Decision) {
        if transition != nil {
            if !deferred.contains(decision) { deferred.append(decision) }
            return
        }
        switch decision {
        case .device: decideFromDevice()
        case .hierarchy: decideFromHierarchy()
        case .presentation(let id): decideFromPresentation(of: id)
        case .geometry(let window, let mask): decideFromGeometry(of: window, mask: mask)
        case .focus, .posture: decideFromFocus()
        }
    }

    /// Finishes the rotation under way with `DidChange`, then re-decides what waited for it (P14).
    public func completeTransition() {
        guard let current = transition else { return }
        transition = nil
        changes.events.append(.didChange(from: current.from, to: current.to))
        let waiting = deferred
        deferred = []
        for decision in waiting { decide(decision) }
        // A mask may have changed under a rotation that was itself the answer to something else.
        if transition == nil { decideFromHierarchy() }
    }

    /// The interface orientation the device asks for, when it reads one of 1–4 now: upright in a
    /// posture that does not turn the screen, whatever the sensor reads (P18); during a touch hold,
    /// what it read when the hold began (P20).
    var deviceInterfaceOrientation: InterfaceOrientation? {
        postureTurnsScreen ? (heldDeviceOrientation ?? deviceOrientation).interfaceOrientation : .portrait
    }

    /// The mask in force and whether the key window's deciding controller lets the device rotate (P7, P8):
    /// it must autorotate and not prefer the orientation locked (P17). From one walk of the hierarchy.
    var rulesInForce: (mask: OrientationMask, autorotate: Bool) {
        guard let key = keyWindow else { return (focusedApplicationMask, true) }
        guard let deciding = keyDecider, let c = controllers[deciding] else {
            return (supportedMask(of: key), true)
        }
        return (supportedMask(of: key).intersection(c.supportedMask), c.shouldAutorotate && !c.prefersOrientationLocked)
    }

    /// P17: the key window's deciding controller prefers the interface orientation locked, so device
    /// turns do not rotate (`InterfaceLockedByApplication`).
    public var interfaceLockedByApplication: Bool {
        keyDecider.flatMap { controllers[$0]?.prefersOrientationLocked } ?? false
    }

    /// P8.
    func decideFromDevice() {
        guard !rotationLocked, let target = deviceInterfaceOrientation else { return }
        let rules = rulesInForce
        guard rules.mask.contains(target), rules.autorotate else { return }
        rotate(to: target)
    }

    /// A focus change (P6f, P6a), as iOS brings an app to the foreground: in the device's orientation
    /// when the rules in force allow it and rotation is not locked (P10), else where P9 puts it. One
    /// rotation at most.
    func decideFromFocus() {
        let rules = rulesInForce
        if !rotationLocked, rules.autorotate, let device = deviceInterfaceOrientation, rules.mask.contains(device) {
            return rotate(to: device)
        }
        decideFromHierarchy()
    }

    /// P9: nothing rotates while the current orientation is still allowed.
    func decideFromHierarchy() {
        let mask = supportedMask
        guard !mask.contains(interfaceOrientation) else { return }
        rotate(to: fallback(in: mask))
    }

    /// P9's order: the device's, the deciding controller's preferred, then portrait, landscape-right, landscape-left, upside down.
    func fallback(in mask: OrientationMask) -> InterfaceOrientation {
        if let device = deviceInterfaceOrientation, mask.contains(device) { return device }
        if let deciding = keyDecider,
           let preferred = controllers[deciding]?.preferredOrientation, mask.contains(preferred) {
            return preferred
        }
        return mask.firstInFallbackOrder ?? interfaceOrientation
    }

    /// P9: a presented controller with a preferred orientation shows in it, lock or not.
    func decideFromPresentation(of id: ControllerID) {
        guard let presented = controllers[id], presented.presenting != nil,
              let window = window(containing: id), window == keyWindow,
              let inner = controllers[decider(from: id)],
              inner.preferredOrientation != .unknown, supportedMask.contains(inner.preferredOrientation)
        else { return decideFromHierarchy() }
        rotate(to: inner.preferredOrientation)
    }

    /// P13: keep the current orientation if allowed, else P9's whole order within what is allowed.
    func decideFromGeometry(of window: WindowID, mask: OrientationMask) {
        guard window == keyWindow else { return decideFromHierarchy() }
        let allowed = mask.intersection(effectiveMask(of: window))
        guard !allowed.isEmpty, !allowed.contains(interfaceOrientation) else { return decideFromHierarchy() }
        rotate(to: fallback(in: allowed))
    }

    /// Starts a transition to `target`; nothing when it is the current orientation (P14).
    func rotate(to target: InterfaceOrientation) {
        guard target != interfaceOrientation, target != .unknown, transition == nil else { return }
        let from = interfaceOrientation
        interfaceOrientation = target
        transition = Transition(from: from, to: target)
        changes.events.append(.willChange(from: from, to: target))
    }
}
