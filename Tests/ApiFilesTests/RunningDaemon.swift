@preconcurrency import Glibc
import DBus
import OrientationAPI
import TestSupport

/// A file of the package as text; nil when it cannot be read.
func readPackageFile(_ relativePath: String) -> String? {
    let path = packageRoot + "/" + relativePath
    return access(path, R_OK) == 0 ? readText(path) : nil
}

/// The names in a directory of the package, sorted.
func packageDirectory(_ relativePath: String) -> [String] {
    guard let dir = opendir(packageRoot + "/" + relativePath) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

/// The built `orientationd` serving a private bus (or the bus at `address`) with the simulated
/// sensor and a fresh state directory. `stop()` ends it, and the private bus if it made one.
final class RunningDaemon {

    let address: String
    let stateDirectory: String
    private let privateBus: PrivateBus?
    private var process: DaemonProcess?

    /// The daemon's output so far; shown when something fails.
    var log: String { process?.log ?? "" }

    /// `arguments` are added to the daemon's (e.g. `--sensor-proxy-compat`).
    init(address: String? = nil, arguments: [String] = []) throws {
        if let address {
            privateBus = nil
            self.address = address
        } else {
            let bus = try PrivateBus()
            privateBus = bus
            self.address = bus.address
        }
        stateDirectory = makeTempDirectory("orientationd-state")
        do {
            let process = try DaemonProcess(arguments: ["--address", self.address, "--sensor", "simulated",
                                                        "--state-dir", stateDirectory] + arguments,
                                            logPath: stateDirectory + "/daemon.log")
            self.process = process
            try waitForName(process)
        } catch {
            stop()
            throw error
        }
    }

    /// Polls NameHasOwner until the daemon holds its name (5 s at most).
    private func waitForName(_ process: DaemonProcess) throws {
        let probe = try Connection(bus: .address(address))
        defer { probe.close() }
        for _ in 0..<500 {
            let owned = try probe.callBusDriverBlocking("NameHasOwner", [.string(Orientation1.busName)])
            if owned.first?.boolValue == true { return }
            guard process.isRunning else { throw DBusError.failed("orientationd exited before owning its name: \(log)") }
            usleep(10_000)
        }
        throw DBusError.failed("orientationd did not own \(Orientation1.busName) within 5 s: \(log)")
    }

    /// Ends the daemon, the private bus and the state directory.
    func stop() {
        process?.stop()
        process = nil
        privateBus?.stop()
        _ = runTool(["rm", "-rf", stateDirectory])
    }

    deinit { stop() }
}
