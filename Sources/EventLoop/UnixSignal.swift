// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import CGLib

/// Unix signals delivered on the main loop (`g_unix_signal_add_full`), so a
/// handler may do anything, unlike a raw signal handler.
public enum UnixSignal {
    /// Calls `handler` on the main loop each time `signal` arrives; wraps `g_unix_signal_add_full`.
    /// GLib supports SIGHUP, SIGINT, SIGTERM, SIGUSR1, SIGUSR2, SIGWINCH.
    @discardableResult
    public static func watch(_ signal: Int32, _ handler: @escaping () -> Void) -> SourceHandle {
        let box = SourceBox { handler(); return true }
        box.sourceID = g_unix_signal_add_full(CGLIB_PRIORITY_HIGH, signal, sourceBoxDispatch, box.retainedPointer, sourceBoxDestroy)
        return SourceHandle(box)
    }
}
