// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import CGLib

/// Carries a Swift closure through a GLib source's `user_data`; the source's
/// GDestroyNotify releases it, so the closure lives exactly as long as the source.
final class SourceBox {
    let body: () -> Bool
    /// Cleared by the destroy notify, so a handle never removes a source id GLib may have reused.
    var alive = true
    var sourceID: guint = 0

    init(_ body: @escaping () -> Bool) { self.body = body }

    var retainedPointer: gpointer { Unmanaged.passRetained(self).toOpaque() }

    static func from(_ p: gpointer?) -> SourceBox {
        Unmanaged<SourceBox>.fromOpaque(p!).takeUnretainedValue()
    }

    /// Removes the source if it has not gone away on its own.
    func remove() {
        if alive, sourceID != 0 {
            alive = false
            g_source_remove(sourceID)
        }
    }
}

/// GSourceFunc trampoline shared by timers, idles and signal watches.
let sourceBoxDispatch: GSourceFunc = { data in
    let box = SourceBox.from(data)
    return box.body() ? CGLIB_SOURCE_CONTINUE : CGLIB_SOURCE_REMOVE
}

/// GDestroyNotify trampoline: balances the retain in `retainedPointer`.
let sourceBoxDestroy: GDestroyNotify = { data in
    let box = Unmanaged<SourceBox>.fromOpaque(data!).takeRetainedValue()
    box.alive = false
}

/// A cancellable GLib source created by `Idle.schedule` or `UnixSignal.watch`.
public final class SourceHandle {
    private let box: SourceBox
    init(_ box: SourceBox) { self.box = box }
    /// Whether the source is still attached.
    public var isActive: Bool { box.alive }
    /// Removes the source; wraps `g_source_remove`. Safe after it has gone.
    public func cancel() { box.remove() }
}
