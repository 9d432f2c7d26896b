// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import CGLib

/// Work deferred until the main loop is otherwise idle (`g_idle_add_full`).
public enum Idle {
    /// Runs `handler` once from the main loop; wraps `g_idle_add_full`.
    /// Used to answer or notify outside the caller's stack, so callbacks never re-enter.
    @discardableResult
    public static func schedule(_ handler: @escaping () -> Void) -> SourceHandle {
        let box = SourceBox { handler(); return false }
        box.sourceID = g_idle_add_full(CGLIB_PRIORITY_DEFAULT_IDLE, sourceBoxDispatch, box.retainedPointer, sourceBoxDestroy)
        return SourceHandle(box)
    }
}

