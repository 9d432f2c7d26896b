@preconcurrency import Glibc
import DBus
import EventLoop
import Service

// Logs reach the journal or a pipe line by line, not when a buffer fills.
setvbuf(stderr, nil, _IOLBF, 0)

let settings: Settings
let warnings: [String]
do {
    switch try DaemonCommandLine.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        print(DaemonCommandLine.usage)
        exit(0)
    case .run(let parsed, let found):
        settings = parsed
        warnings = found
    }
} catch {
    fputs("orientationd: \(error.message)\n", stderr)
    exit(2)
}
for warning in warnings { fputs("orientationd: warning: \(warning)\n", stderr) }

let loop = MainLoop()
let daemon: Daemon
do {
    daemon = try Daemon(settings: settings)
} catch let error as ConfigurationError {
    // A setting that only shows itself wrong once used, such as a trace that does not parse.
    fputs("orientationd: \(error.message)\n", stderr)
    exit(2)
} catch {
    fputs("orientationd: \(error)\n", stderr)
    exit(1)
}
daemon.connection.onDisconnected = {
    fputs("orientationd: disconnected from the bus; exiting\n", stderr)
    loop.quit()
}
let terminate = UnixSignal.watch(SIGTERM) { loop.quit() }
let interrupt = UnixSignal.watch(SIGINT) { loop.quit() }
loop.run()
daemon.stop()
withExtendedLifetime((terminate, interrupt)) {}
exit(0)
