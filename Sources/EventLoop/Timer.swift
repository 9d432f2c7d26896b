// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import CGLib

/// A one-shot or periodic GLib timeout (`g_timeout_add_full`) running a Swift closure. It lives as
/// long as its owner keeps it: dropping it cancels it, so a timer never fires for an object gone.
public final class Timer {
    private let box: SourceBox

    deinit { box.remove() }

    /// Fires once after `ms` milliseconds; wraps `g_timeout_add_full`.
    public init(afterMs ms: UInt32, _ handler: @escaping () -> Void) {
        box = SourceBox { handler(); return false }
        box.sourceID = g_timeout_add_full(CGLIB_PRIORITY_DEFAULT, ms, sourceBoxDispatch, box.retainedPointer, sourceBoxDestroy)
    }

    /// Fires every `ms` milliseconds until `cancel()`; wraps `g_timeout_add_full`.
    public init(everyMs ms: UInt32, _ handler: @escaping () -> Void) {
        box = SourceBox { handler(); return true }
        box.sourceID = g_timeout_add_full(CGLIB_PRIORITY_DEFAULT, ms, sourceBoxDispatch, box.retainedPointer, sourceBoxDestroy)
    }

    /// Whether the timer can still fire.
    public var isActive: Bool { box.alive }

    /// Stops the timer; safe to call after it has fired. Wraps `g_source_remove`.
    public func cancel() { box.remove() }
}
