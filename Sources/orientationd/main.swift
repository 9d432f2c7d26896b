@preconcurrency import Glibc
import EventLoop
import Log
import Service

// Logs reach the journal or a pipe line by line, not when a buffer fills.
setvbuf(stderr, nil, _IOLBF, 0)

let loop = MainLoop()

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
        return try Daemon(settings: settings)
    }
}

let daemon: Daemon
do {
    guard let started = try start() else { exit(0) }
    daemon = started
} catch {
    Log.error(error.message)
    exit(error.exitStatus)
}
/// 0 after SIGTERM or SIGINT; 1 when the bus went away, which is a failure: systemd's
/// `Restart=on-failure` then starts the daemon again.
var exitStatus: Int32 = 0
daemon.bus.onDisconnected = {
    Log.error("disconnected from the bus; exiting with status 1")
    exitStatus = 1
    loop.quit()
}
let terminate = UnixSignal.watch(SIGTERM) { loop.quit() }
let interrupt = UnixSignal.watch(SIGINT) { loop.quit() }
loop.run()
daemon.stop()
withExtendedLifetime((terminate, interrupt)) {}
exit(exitStatus)
