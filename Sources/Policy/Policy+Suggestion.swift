// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

/// P19, the rotation suggestion: with rotation locked, a turn the interface could follow is offered, not made.
extension Policy {
    /// P19: with rotation locked, the device's latest report `reported` offers its orientation when
    /// the interface could turn there, and withdraws the offer when the device came back or settled
    /// where nothing can be offered. Faces up and down, and unknown, leave the offer as it is.
    func considerSuggestion(_ reported: DeviceOrientation) {
        // P20: a hand on the screen makes no offer; the pose is looked at again when the hold ends.
        guard heldDeviceOrientation == nil else { return }
        guard let target = reported.interfaceOrientation else { return }
        guard target != interfaceOrientation, canSuggest(target) else { return withdrawSuggestion() }
        guard target != suggestedOrientation else { return }
        suggestedOrientation = target
        changes.manager.insert(.suggestedOrientation)
        changes.events.append(.rotationSuggested(target))
    }

    /// Whether `target` may be offered now: never upside down on a phone, in a posture that does not
    /// turn the screen, while the application holds its orientation (P17) or outside the mask in force.
    func canSuggest(_ target: InterfaceOrientation) -> Bool {
        guard rotationLocked, postureTurnsScreen, configuration.suggestsRotation else { return false }
        if target == .portraitUpsideDown && idiom == .phone { return false }
        let rules = rulesInForce
        return rules.autorotate && rules.mask.contains(target)
    }

    /// The suggestion ends (`SuggestedOrientation` 0), when there is one.
    func withdrawSuggestion() {
        guard suggestedOrientation != .unknown else { return }
        suggestedOrientation = .unknown
        changes.manager.insert(.suggestedOrientation)
    }

    /// A suggestion that the interface reached, or that the mask in force, the posture or P17 no
    /// longer allows, ends; `settle()` asks after every change.
    func settleSuggestion() {
        let target = suggestedOrientation
        if target != .unknown && (target == interfaceOrientation || !canSuggest(target)) { withdrawSuggestion() }
    }

    /// `[Lock] SuggestionSeconds` passed since the suggestion was made: it ends.
    public func suggestionExpired() {
        withdrawSuggestion()
    }

    /// `AcceptSuggestedOrientation` (P19): rotates to the suggestion and keeps the lock on, now held
    /// there. `NoSuggestion` when none stands, or while a rotation elsewhere is under way.
    public func acceptSuggestion() throws(PolicyError) {
        let target = suggestedOrientation
        guard target != .unknown else {
            throw PolicyError(.noSuggestion, "no rotation is suggested now: a suggestion stands only while rotation is "
                + "locked, after the device settled in another orientation the interface could take")
        }
        if let transition, transition.to != target {
            throw PolicyError(.noSuggestion, "a rotation to \(transition.to.name) is under way; the suggested "
                + "\(target.name) can be accepted when it ends")
        }
        withdrawSuggestion()
        rotate(to: target)
    }
}
