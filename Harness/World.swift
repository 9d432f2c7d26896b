// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import DBus
import EventLoop
import OrientationAPI

/// Everything an end-to-end test starts, made and torn down in one place: a private bus, a scratch
/// directory, a probe connection (privileged: the tests run as root), the daemon with any arguments,
/// environment, user or umockdev test bed, and any peer beside it (iio-sensor-proxy, a mock polkit, a
/// driver script), each a `ChildProcess`. `tearDown()` stops them, last started first, and says what
/// went wrong: a daemon that died, or did not end with status 0 on SIGTERM.
public final class World {
    public private(set) var bus: PrivateBus
    public let scratch: String
    /// A connection to the bus for reading, privileged calls and the bus driver's questions.
    public private(set) var probe: Connection
    /// Every process started, in order.
    public var children: [ChildProcess] { started.map(\.process) }
    /// Every process started, with the signal that ends it (0: closing its stdin is enough).
    private var started: [(process: ChildProcess, signal: Int32)] = []
    /// The daemons whose end is checked at `tearDown`, with the name each was started under.
    private var checked: [(name: String, process: ChildProcess)] = []
    private var connections: [Connection] = []

    /// A bus as the system bus is configured when `systemPolicyFiles` are given (`PrivateBus`), else a
    /// permissive one; the system bus's limits either way.
    public init(systemPolicyFiles: [String]? = nil, serviceDirectories: [String] = []) throws {
        bus = try PrivateBus(systemPolicyFiles: systemPolicyFiles, serviceDirectories: serviceDirectories)
        scratch = makeTempDirectory()
        // Reachable by every user, so a daemon run as another uid finds its state directory there.
        chmod(scratch, 0o755)
        do {
            probe = try Connection(bus: .address(bus.address))
        } catch {
            bus.stop()
            throw error
        }
    }

    /// What a umockdev test bed adds to a process's environment so that it sees the fake /sys and /dev
    /// under `root` (and gets the bed's uevents), as `umockdev-wrapper` does.
    public static func testbedEnvironment(root: String) -> [String: String] {
        ["LD_PRELOAD": "libumockdev-preload.so.0", "UMOCKDEV_DIR": root]
    }

    /// The daemon's state directory for the daemon started as `name`.
    public func stateDirectory(_ name: String = "daemon") -> String { scratch + "/\(name)-state" }

    /// Starts `orientationd --address BUS [--sensor SENSOR] --state-dir DIR ARGUMENTS`, its output in
    /// `SCRATCH/NAME.log`, with `environment` added (a test bed's, `DBUS_SYSTEM_BUS_ADDRESS`, …), as
    /// `user` (through setpriv, which keeps the environment) when given; waits until `waitFor` has an
    /// owner, and throws with the log when the daemon ends first or does not take it in 5 s. With
    /// `checked`, `tearDown` expects it still running and ending with status 0 on SIGTERM.
    @discardableResult
    public func startDaemon(_ arguments: [String] = [], name: String = "daemon", sensor: String? = "simulated",
                            stateDirectory: String? = nil, address: String? = nil, environment: [String: String] = [:],
                            user: TestAccount? = nil, wrapper: [String] = [], output: ChildProcess.Output? = nil,
                            waitFor: String? = Orientation1.busName, timeout: Double = 5,
                            checked: Bool = true) throws -> ChildProcess {
        var argv = [programsDirectory() + "/orientationd", "--address", address ?? bus.address]
        if let sensor { argv += ["--sensor", sensor] }
        argv += ["--state-dir", stateDirectory ?? self.stateDirectory(name)]
        // The idiom is the machine's chassis by default (Idiom=auto); a test names its own chassis, or a
        // handset's, so that what it checks does not depend on the machine it runs on.
        if !arguments.contains(where: { $0 == "--machine-info" || $0.hasPrefix("--machine-info=") }) {
            argv += ["--machine-info", handsetMachineInfo(in: scratch)]
        }
        argv += arguments
        if let user { argv = ["setpriv", "--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups"] + argv }
        argv = wrapper + argv
        let child = try start(argv, name: name, environment: environment, output: output, waitFor: waitFor, timeout: timeout)
        if checked { check(child, as: name) }
        return child
    }

    /// Starts any program (looked up in PATH), its output in `SCRATCH/NAME.log` (stdout to a pipe
    /// read with `readLine` when `pipes`, with a pipe to its stdin then too; or where `output` says), with `environment`
    /// added; when `waitFor` is given, waits until that name has an owner or the program ends.
    /// A driver that ends when its stdin closes is given `stopSignal` 0, so it can clean up.
    @discardableResult
    public func start(_ argv: [String], name: String, environment: [String: String] = [:], pipes: Bool = false,
                      stdinPipe: Bool = false, output: ChildProcess.Output? = nil, waitFor: String? = nil, timeout: Double = 5,
                      stopSignal: Int32 = SIGTERM) throws -> ChildProcess {
        let log = scratch + "/\(name).log"
        let child = try ChildProcess(argv, output: output ?? (pipes ? .pipe(stderr: log) : .file(log)), environment: environment,
                                     stdinPipe: pipes || stdinPipe)
        started.append((child, stopSignal))
        if let waitFor {
            let up = waitUntil(timeout) {
                guard child.isRunning else { return true }
                if hasOwner(waitFor) { return true }
                usleep(10_000)
                return false
            }
            guard up, child.isRunning else {
                throw DBusError.failed("\(argv.first ?? name) did not take \(waitFor) within \(timeout) s; log:\n\(child.log)")
            }
        }
        return child
    }

    /// Checks at `tearDown` that `child` is still running and ends with status 0 on SIGTERM.
    public func check(_ child: ChildProcess, as name: String) {
        checked.append((name, child))
    }

    /// No longer checks `child` at `tearDown`: the test has seen to its end itself.
    public func forget(_ child: ChildProcess) {
        checked.removeAll { $0.process === child }
    }

    /// Stops `child` with `signal` and returns its exit code; it is no longer checked at `tearDown`.
    /// With `releasing`, waits until the bus has seen that name go, so a successor can take it.
    @discardableResult
    public func stop(_ child: ChildProcess, _ signal: Int32 = SIGTERM, releasing name: String? = nil) -> Int32 {
        checked.removeAll { $0.process === child }
        let code = child.stop(signal)
        if let name { waitUntil(3) { !hasOwner(name) } }
        return code
    }

    /// A new connection to the bus, closed at `tearDown`.
    public func newConnection() throws -> Connection {
        let c = try Connection(bus: .address(bus.address))
        connections.append(c)
        return c
    }

    /// The bus goes away, and every connection to it breaks, as when the system bus restarts;
    /// `restartBus()` brings one back at the same address.
    public func stopBus() {
        probe.close()
        bus.stop()
    }

    /// A bus again at the address of the one stopped, and a new probe on it.
    public func restartBus() throws {
        bus = try PrivateBus(directory: bus.directory)
        probe = try Connection(bus: .address(bus.address))
    }

    // MARK: The bus driver

    public func hasOwner(_ name: String) -> Bool {
        (try? probe.callBusDriverBlocking("NameHasOwner", [.string(name)]))?.first?.boolValue == true
    }

    public func owner(_ name: String) -> String? {
        (try? probe.callBusDriverBlocking("GetNameOwner", [.string(name)]))?.first?.stringValue
    }

    // MARK: The end

    /// Stops every process, last started first, closes the connections and the bus and removes the
    /// scratch directory; returns one line for each checked daemon that had died or did not exit 0
    /// on SIGTERM, with its log.
    public func tearDown() -> [String] {
        var problems: [String] = []
        for (name, child) in checked {
            let running = child.isRunning
            let code = child.stop(SIGTERM)
            if !running {
                problems.append("\(name) was no longer running at the end of the test (status \(code)); log:\n\(child.log)")
            } else if code != 0 {
                problems.append("\(name) did not exit 0 on SIGTERM (status \(code)); log:\n\(child.log)")
            }
        }
        checked = []
        for (child, signal) in started.reversed() where child.isRunning { child.stop(signal) }
        started = []
        for c in connections { c.close() }
        connections = []
        probe.close()
        bus.stop()
        _ = runTool(["rm", "-rf", scratch])
        return problems
    }
}
