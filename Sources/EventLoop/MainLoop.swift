// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import CGLib

// The EventLoop module: the GLib main loop in Swift. MainLoop runs the default context, and Timer,
// FDWatch, Idle and UnixSignal attach sources to it, so the whole daemon runs on one thread that
// sleeps until something happens. DBus and the sensor drivers build on it; it builds on nothing of ours.

/// The GLib main loop on the default context (`g_main_loop_new(NULL, FALSE)`);
/// connections, timers and signal watches all attach to that context.
public final class MainLoop {
    private let loop: OpaquePointer

    /// Wraps `g_main_loop_new` on the default main context.
    public init() {
        loop = g_main_loop_new(nil, 0)
    }

    deinit { g_main_loop_unref(loop) }

    /// Runs until `quit()`; wraps `g_main_loop_run`.
    public func run() { g_main_loop_run(loop) }

    /// Makes `run()` return; wraps `g_main_loop_quit`.
    public func quit() { g_main_loop_quit(loop) }

    /// Whether `run()` is in progress; wraps `g_main_loop_is_running`.
    public var isRunning: Bool { g_main_loop_is_running(loop) != 0 }

    /// Makes `function` the default context's poll function (`g_main_context_set_poll_func`), called
    /// with GLib's `GPollFD` array (`struct pollfd` on Linux), its length and the timeout in ms.
    public static func setPollFunction(_ function: @convention(c) (UnsafeMutableRawPointer?, UInt32, Int32) -> Int32) {
        g_main_context_set_poll_func(nil, unsafeBitCast(function, to: GPollFunc.self))
    }

    /// Runs one iteration of the default context; wraps `g_main_context_iteration`.
    /// Returns whether any source was dispatched. Meant for tests and tools.
    @discardableResult
    public static func iterate(mayBlock: Bool) -> Bool {
        g_main_context_iteration(nil, mayBlock ? 1 : 0) != 0
    }

    /// Iterates the default context until `done()` holds or `timeoutMs` passes;
    /// returns `done()`. Wakes at least every 10 ms so the condition is re-checked.
    @discardableResult
    public static func iterate(until done: () -> Bool, timeoutMs: Int = 5000) -> Bool {
        let deadline = Int64(g_get_monotonic_time()) + Int64(timeoutMs) * 1000
        let tick = Timer(everyMs: 10) {}
        defer { tick.cancel() }
        while !done() {
            if Int64(g_get_monotonic_time()) >= deadline { return done() }
            g_main_context_iteration(nil, 1)
        }
        return true
    }
}
