// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import CDBus
import CGLib

// libdbus tells us which sockets and timers it needs; each becomes a GLib source
// on the default context, so the connection costs no wake-ups while idle.

/// One `DBusWatch` as a `g_unix_fd_add_full` source; owned by the watch via `dbus_watch_set_data`.
final class WatchSource {
    let watch: OpaquePointer
    var sourceID: guint = 0

    init(_ watch: OpaquePointer) { self.watch = watch }

    /// Adds the GLib source if libdbus wants the watch enabled, with the condition
    /// taken from `dbus_watch_get_flags`.
    func arm() {
        guard sourceID == 0, dbus_watch_get_enabled(watch) != 0 else { return }
        let flags = dbus_watch_get_flags(watch)
        var condition = CGLIB_IO_HUP | CGLIB_IO_ERR
        if flags & CDBUS_WATCH_READABLE != 0 { condition |= CGLIB_IO_IN }
        if flags & CDBUS_WATCH_WRITABLE != 0 { condition |= CGLIB_IO_OUT }
        sourceID = g_unix_fd_add_full(CGLIB_PRIORITY_DEFAULT, dbus_watch_get_unix_fd(watch),
                                      GIOCondition(rawValue: condition), watchFired,
                                      Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    func disarm() {
        if sourceID != 0 { g_source_remove(sourceID) }
        sourceID = 0
    }

    static func of(_ watch: OpaquePointer?) -> WatchSource? {
        guard let watch, let data = dbus_watch_get_data(watch) else { return nil }
        return Unmanaged<WatchSource>.fromOpaque(data).takeUnretainedValue()
    }
}

private let watchFired: GUnixFDSourceFunc = { _, condition, data in
    // A strong local reference: handling may free the watch and with it this box.
    let source = Unmanaged<WatchSource>.fromOpaque(data!).takeUnretainedValue()
    var flags: UInt32 = 0
    if condition.rawValue & CGLIB_IO_IN != 0 { flags |= CDBUS_WATCH_READABLE }
    if condition.rawValue & CGLIB_IO_OUT != 0 { flags |= CDBUS_WATCH_WRITABLE }
    if condition.rawValue & CGLIB_IO_HUP != 0 { flags |= CDBUS_WATCH_HANGUP }
    if condition.rawValue & (CGLIB_IO_ERR | CGLIB_IO_NVAL) != 0 { flags |= CDBUS_WATCH_ERROR }
    withExtendedLifetime(source) { _ = dbus_watch_handle(source.watch, flags) }
    return CGLIB_SOURCE_CONTINUE
}

let watchAdd: DBusAddWatchFunction = { watch, _ in
    guard let watch else { return 0 }
    let source = WatchSource(watch)
    dbus_watch_set_data(watch, Unmanaged.passRetained(source).toOpaque(), watchFree)
    source.arm()
    return 1
}

let watchRemove: DBusRemoveWatchFunction = { watch, _ in
    WatchSource.of(watch)?.disarm()
}

let watchToggle: DBusWatchToggledFunction = { watch, _ in
    guard let source = WatchSource.of(watch) else { return }
    source.disarm()
    source.arm()
}

private let watchFree: DBusFreeFunction = { data in
    guard let data else { return }
    Unmanaged<WatchSource>.fromOpaque(data).takeRetainedValue().disarm()
}

/// One `DBusTimeout` as a `g_timeout_add_full` source; owned by the timeout via `dbus_timeout_set_data`.
final class TimeoutSource {
    let timeout: OpaquePointer
    var sourceID: guint = 0

    init(_ timeout: OpaquePointer) { self.timeout = timeout }

    func arm() {
        guard sourceID == 0, dbus_timeout_get_enabled(timeout) != 0 else { return }
        let interval = UInt32(max(0, dbus_timeout_get_interval(timeout)))
        sourceID = g_timeout_add_full(CGLIB_PRIORITY_DEFAULT, interval, timeoutFired,
                                      Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    func disarm() {
        if sourceID != 0 { g_source_remove(sourceID) }
        sourceID = 0
    }

    static func of(_ timeout: OpaquePointer?) -> TimeoutSource? {
        guard let timeout, let data = dbus_timeout_get_data(timeout) else { return nil }
        return Unmanaged<TimeoutSource>.fromOpaque(data).takeUnretainedValue()
    }
}

private let timeoutFired: GSourceFunc = { data in
    let source = Unmanaged<TimeoutSource>.fromOpaque(data!).takeUnretainedValue()
    withExtendedLifetime(source) { _ = dbus_timeout_handle(source.timeout) }
    return CGLIB_SOURCE_CONTINUE
}

let timeoutAdd: DBusAddTimeoutFunction = { timeout, _ in
    guard let timeout else { return 0 }
    let source = TimeoutSource(timeout)
    dbus_timeout_set_data(timeout, Unmanaged.passRetained(source).toOpaque(), timeoutFree)
    source.arm()
    return 1
}

let timeoutRemove: DBusRemoveTimeoutFunction = { timeout, _ in
    TimeoutSource.of(timeout)?.disarm()
}

let timeoutToggle: DBusTimeoutToggledFunction = { timeout, _ in
    guard let source = TimeoutSource.of(timeout) else { return }
    source.disarm()
    source.arm()
}

private let timeoutFree: DBusFreeFunction = { data in
    guard let data else { return }
    Unmanaged<TimeoutSource>.fromOpaque(data).takeRetainedValue().disarm()
}
