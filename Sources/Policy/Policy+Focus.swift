extension Policy {
    /// `SetFocusedProcess` (P6f): `authority` becomes the focus authority and the key window follows
    /// `process`, 0 meaning that nothing is focused.
    public func setFocusedProcess(_ process: UInt32, authority: ClientID) {
        if focusedProcess != process { changes.manager.insert(.focusedProcess) }
        focusAuthority = authority
        focusedProcess = process
        followFocus()
        decide(.hierarchy)
    }

    /// The focused process's window that was chosen most recently, else its newest one, else none (P6f).
    var focusTarget: WindowID? {
        guard focusedProcess != 0 else { return nil }
        return windows.values.filter { $0.process == focusedProcess }.max { a, b in
            (a.chosen ?? 0, a.registration) < (b.chosen ?? 0, b.registration)
        }?.id
    }

    /// Makes the key window the focus target, when an authority is set.
    func followFocus() {
        guard focusAuthority != nil else { return }
        let target = focusTarget
        guard target != keyWindow else { return }
        if let target { makeKey(target) } else { clearKey() }
    }

    /// The authority left: the focus is cleared, the key window stays, and P6 applies again,
    /// so a key window is found when windows remain.
    func focusAuthorityLeft() {
        focusAuthority = nil
        if focusedProcess != 0 { changes.manager.insert(.focusedProcess) }
        focusedProcess = 0
        if keyWindow == nil { makeFallbackKey() }
    }
}
