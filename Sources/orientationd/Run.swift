// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import EventLoop
import Log
import Service
import Configuration

/// Reads the command line and the config file and starts serving; nil when only the help or the
/// version was asked for.
func start() throws(StartupError) -> Daemon? {
    switch try DaemonCommandLine.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        print(DaemonCommandLine.usage)
        return nil
    case .version:
        print(DaemonCommandLine.versionLine)
        return nil
    case .run(let settings, let warnings):
        for warning in warnings { Log.warning(warning) }
        if !settings.configFiles.isEmpty { Log.info("configuration: " + settings.configFiles.joined(separator: ", ")) }
        Log.info("idiom \(settings.policy.idiom.rawValue): \(settings.idiomExplanation)")
        return try Daemon(settings: settings)
    }
}

/// The daemon's life, outside main.swift: top-level code is on the main actor, and its closures
/// would each carry a main-actor check that links the concurrency runtime and libdispatch (3 MB of
/// program, their start-up constructors and 64 KB of relocated data; scripts/check-lean-daemon).
func runDaemon() -> Int32 {
    let loop = MainLoop()
    // Watched before the name is taken: a SIGTERM that comes as soon as the name appears ends the
    // loop as it starts, instead of killing the process.
    let terminate = UnixSignal.watch(SIGTERM) { loop.quit() }
    let interrupt = UnixSignal.watch(SIGINT) { loop.quit() }
    // SIGHUP (`systemctl reload`) reads the configuration again; watched from the start, so one sent
    // early is not the default action, which would end the process.
    var serving: Daemon?
    let hangUp = UnixSignal.watch(SIGHUP) { serving?.reload(arguments: Array(CommandLine.arguments.dropFirst())) }
    let daemon: Daemon
    do {
        guard let started = try start() else { return 0 }
        daemon = started
        serving = started
    } catch {
        Log.error(error.message)
        return error.exitStatus
    }
    // 0 after SIGTERM or SIGINT; 1 when the bus went away, which is a failure: systemd's
    // `Restart=on-failure` then starts the daemon again.
    var exitStatus: Int32 = 0
    // What starting needed and idling does not touch goes back to the kernel, now and after each claim.
    daemon.service.pagesOutWhenIdle = !daemon.service.settings.keepsPagesWhenIdle
    daemon.bus.onDisconnected = {
        Log.error("disconnected from the bus; exiting with status 1")
        exitStatus = 1
        loop.quit()
    }
    loop.run()
    daemon.stop()
    withExtendedLifetime((terminate, interrupt, hangUp)) {}
    return exitStatus
}
