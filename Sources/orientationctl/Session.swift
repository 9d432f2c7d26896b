// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import DBus
import EventLoop
import OrientationAPI

/// A long-running command's main loop: runs until SIGINT or SIGTERM (a clean end), or
/// until orientationd leaves the bus or the bus goes away (a failure).
final class Session {
    let loop = MainLoop()
    private(set) var failure: Failure?
    private var handles: [SourceHandle] = []

    /// Watches the signals at once, so an early Ctrl-C still ends the session cleanly.
    init() {
        handles.append(UnixSignal.watch(SIGINT) { [unowned self] in loop.quit() })
        handles.append(UnixSignal.watch(SIGTERM) { [unowned self] in loop.quit() })
    }

    /// Fails the session when `owner` stops owning the daemon's name, or the connection drops.
    func watchDaemon(on connection: Connection, owner: String) {
        connection.watchNameOwnerChanged { [unowned self] name, old, new in
            guard name == Orientation1.busName, old == owner, new != owner else { return }
            fail(.runtime("orientationd left the bus (\(Orientation1.busName) "
                + (new.isEmpty ? "has no owner any more" : "moved to \(new)") + "); exiting"))
        }
        connection.onDisconnected = { [unowned self] in fail(.runtime("disconnected from the bus; exiting")) }
    }

    /// Runs until a signal or a failure; throws the failure.
    func run() throws(Failure) {
        loop.run()
        if let failure { throw failure }
    }

    /// Ends the session with `error`, which `run()` then throws.
    func fail(_ error: Failure) {
        if failure == nil { failure = error }
        loop.quit()
    }
}
