// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import CGLib

/// A file descriptor watched by the main loop (`g_unix_fd_add_full`): the handler runs when the condition
/// holds and says whether to keep watching. Costs no wake-up while the descriptor is quiet.
public final class FDWatch {
    private final class Box {
        let handler: (UInt32) -> Bool
        var alive = true
        init(_ handler: @escaping (UInt32) -> Bool) { self.handler = handler }
    }

    private let box: Box
    private var sourceID: guint = 0

    /// Watches `fd` for `condition` (`CGLIB_IO_IN | …`); wraps `g_unix_fd_add_full`.
    public init(fd: Int32, condition: UInt32, _ handler: @escaping (UInt32) -> Bool) {
        box = Box(handler)
        sourceID = g_unix_fd_add_full(CGLIB_PRIORITY_DEFAULT, fd, GIOCondition(rawValue: condition), { _, condition, data in
            let box = Unmanaged<Box>.fromOpaque(data!).takeUnretainedValue()
            return withExtendedLifetime(box) { box.handler(condition.rawValue) ? CGLIB_SOURCE_CONTINUE : CGLIB_SOURCE_REMOVE }
        }, Unmanaged.passRetained(box).toOpaque(), { data in
            let box = Unmanaged<Box>.fromOpaque(data!).takeRetainedValue()
            box.alive = false
        })
    }

    /// Stops watching; safe after the handler asked to stop. Wraps `g_source_remove`.
    public func cancel() {
        if box.alive, sourceID != 0 {
            box.alive = false
            g_source_remove(sourceID)
        }
        sourceID = 0
    }

    deinit { cancel() }
}
