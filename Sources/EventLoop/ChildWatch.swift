// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import CGLib

/// A child process watched by the main loop (`g_child_watch_add_full`): the handler runs once, from
/// the loop, when the child ends, and GLib reaps it. The watch outlives this object, so a child is
/// never left a zombie because its watcher went away; `cancel()` stops it explicitly.
public final class ChildWatch {
    private final class Box {
        let handler: (Int32) -> Void
        var alive = true
        init(_ handler: @escaping (Int32) -> Void) { self.handler = handler }
    }

    private let box: Box
    private var sourceID: guint = 0

    /// Watches `pid`, a child of this process; `handler` gets its wait status as `waitpid` reports it.
    /// Wraps `g_child_watch_add_full`.
    public init(pid: Int32, _ handler: @escaping (Int32) -> Void) {
        box = Box(handler)
        sourceID = g_child_watch_add_full(CGLIB_PRIORITY_DEFAULT, pid, { _, status, data in
            let box = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
            withExtendedLifetime(box) { box.handler(status) }
        }, Unmanaged.passRetained(box).toOpaque(), { data in
            Unmanaged<Box>.fromOpaque(data!).takeRetainedValue().alive = false
        })
    }

    /// Whether the child has not ended yet.
    public var isActive: Bool { box.alive }

    /// Stops watching; the child is then not reaped here. Wraps `g_source_remove`.
    public func cancel() {
        if box.alive, sourceID != 0 {
            box.alive = false
            g_source_remove(sourceID)
        }
        sourceID = 0
    }
}
