// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

// adversarial-benchmark: the daemon tried as an attacker would, at length, with its figures printed.
//
// Run it through Benchmarks/adversarial/run.sh (a release build with the runtime linked statically,
// as shipped). Each part starts its own private dbus-daemon with the system bus's limits and its own
// orientationd:
//   1. the fuzz run: 100,000 random calls and property sets from four clients that come and go,
//      invariants checked every 10,000, resident memory before and after;
//   2. connect / fill / disconnect: 1,000 clients each filling its window limit (64 windows, each
//      with a navigation controller holding a view) and leaving; resident memory back to baseline;
//   3. one uid's connections: new connections of the same user, each filling its own limits, until
//      the per-user limits refuse; what was accepted and what a refusal costs;
//   4. the total limits (one uid allowed more than all of them): 1,024 windows and 65,536 controllers,
//      one more refused from a new connection, resident memory per object, the daemon's CPU for a Get
//      on a path that names nothing, with none and with all those objects, and for an Introspect of
//      the controller folder.
// Figures only; it stops with status 1 when an invariant breaks or the daemon dies.
//
// Options: --steps N (fuzz calls, 100000), --cycles N (1000), --skip PART (fuzz, cycles, uid, total).
@preconcurrency import Glibc
import DBus
import EventLoop
import OrientationAPI
import Harness

setvbuf(stdout, nil, _IOLBF, 0)

/// The command line's options.
struct Options {
    var steps = 100_000
    var cycles = 1_000
    var skipped: Set<String> = []

    static func parse() -> Options {
        var options = Options()
        var argv = CommandLine.arguments.dropFirst()
        while let flag = argv.popFirst() {
            switch flag {
            case "--steps": options.steps = Int(argv.popFirst() ?? "") ?? options.steps
            case "--cycles": options.cycles = Int(argv.popFirst() ?? "") ?? options.cycles
            case "--skip": if let part = argv.popFirst() { options.skipped.insert(part) }
            default: fatalError("unknown option \(flag); see the comment at the top of main.swift")
            }
        }
        return options
    }
}

let options = Options.parse()

// MARK: The daemon under test

/// One `orientationd --sensor simulated` in a `World` of its own (a private bus with the system
/// bus's limits), with `config` as its config file.
final class Subject {
    let world: World
    let daemon: ChildProcess
    var bus: PrivateBus { world.bus }
    var probe: Connection { world.probe }

    init(config: String = "") throws {
        world = try World()
        writeText(world.scratch + "/orientationd.conf", config)
        do {
            daemon = try world.startDaemon(["--config", world.scratch + "/orientationd.conf"], timeout: 10)
        } catch {
            fail("\(error)")
        }
    }

    func connect() throws -> Connection { try Connection(bus: .address(bus.address)) }

    /// `/proc/PID/status` field in kB (VmRSS, VmHWM).
    func kB(_ field: String) -> Int {
        let line = readText("/proc/\(daemon.pid)/status").split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Nanoseconds the daemon has spent on a CPU (`/proc/PID/schedstat`, all threads of the main one).
    func cpuNanoseconds() -> Int {
        Int(readText("/proc/\(daemon.pid)/schedstat").split(separator: " ").first ?? "") ?? 0
    }

    func call(_ c: Connection, _ path: String, _ interface: String, _ method: String, _ values: [Value] = []) throws(DBusError) -> [Value] {
        try c.callBlocking(destination: Orientation1.busName, path: path, interface: interface, method: method, values: values, timeoutMs: 10_000)
    }

    func objectCount() -> (windows: Int, controllers: Int) {
        let tree = serviceTree(address: bus.address).split(separator: "\n")
        return (tree.filter { $0.contains("/window/") }.count, tree.filter { $0.contains("/controller/") }.count)
    }

    func stop() {
        if let problem = world.tearDown().first { fail(problem) }
    }
}

func fail(_ message: String) -> Never {
    print("FAILED: \(message)")
    exit(1)
}

/// `x` with `places` decimals.
func decimal(_ x: Double, _ places: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = Int((abs(x) * scale).rounded())
    let whole = scaled / Int(scale), fraction = String(scaled % Int(scale))
    let sign = x < 0 && scaled != 0 ? "-" : ""
    guard places > 0 else { return sign + String(whole) }
    return sign + "\(whole)." + String(repeating: "0", count: places - fraction.count) + fraction
}

func mb(_ kB: Int) -> String { decimal(Double(kB) / 1024) + " MB" }

// MARK: Filling

/// A client's window with a navigation controller as its root, holding `views` view controllers.
@discardableResult
func fillWindow(_ s: Subject, _ c: Connection, views: Int) throws(DBusError) -> Int {
    let manager = (Orientation1.managerPath, Orientation1.managerInterface)
    guard let window = try s.call(c, manager.0, manager.1, "RegisterWindow").first?.objectPathValue,
          let nav = try s.call(c, manager.0, manager.1, "CreateController", [.string("navigation")]).first?.objectPathValue
    else { fail("RegisterWindow or CreateController returned no path") }
    var children: [Value] = []
    for _ in 0..<views {
        guard let view = try s.call(c, manager.0, manager.1, "CreateController", [.string("view")]).first?.objectPathValue else {
            fail("CreateController returned no path")
        }
        children.append(.objectPath(view))
    }
    if !children.isEmpty {
        _ = try s.call(c, nav, Orientation1.controllerInterface, "SetViewControllers", [.array(elementSignature: "o", children)])
    }
    _ = try s.call(c, window, StandardInterface.properties, "Set",
                   [.string(Orientation1.windowInterface), .string("RootController"), .variant(.objectPath(nav))])
    return 1 + views
}

/// Waits until the daemon lists no window and no controller.
func waitForEmpty(_ s: Subject) {
    guard waitUntil(60, { s.objectCount() == (0, 0) }) else { fail("objects left behind: \(s.objectCount())") }
}

// MARK: 1. Fuzz

func fuzz() throws {
    let s = try Subject()
    let baseline = s.kB("VmRSS")
    let walk = try FuzzWalk(address: s.bus.address, seed: 20261130)
    let start = now()
    var halfWay = 0
    try walk.run(steps: options.steps, every: 10_000) { step in
        guard s.daemon.isRunning else { fail("the daemon died by step \(step):\n\(s.daemon.log)") }
        if step == options.steps / 2 { halfWay = s.kB("VmRSS") }
        let broken = brokenInvariants(on: s.probe, address: s.bus.address)
        if !broken.isEmpty { fail("step \(step): \(broken.joined(separator: "; "))") }
    }
    let seconds = now() - start
    if !walk.problems.isEmpty { fail(walk.problems.prefix(5).joined(separator: "\n")) }
    walk.closeAll()
    waitForEmpty(s)
    let after = s.kB("VmRSS")
    let errors = walk.refused.sorted { $0.value > $1.value }.prefix(6)
        .map { "\($0.key.split(separator: ".").last ?? "") \($0.value)" }.joined(separator: ", ")
    print("1. fuzz: \(options.steps) random calls in \(decimal(seconds, 1)) s from 4 clients, \(walk.departures) of them replaced mid-way")
    print("   answered \(walk.answered), refused \(options.steps - walk.answered - walk.departures) (\(errors), …); daemon alive, invariants held at every check")
    print("   resident memory: \(mb(baseline)) at start, \(mb(halfWay)) half-way, \(mb(after)) after every client left "
        + "(peak \(mb(s.kB("VmHWM"))))")
    s.stop()
}

// MARK: 2. Connect / fill / disconnect

func connectCycles() throws {
    let s = try Subject()
    func cycle() throws {
        let c = try s.connect()
        _ = try s.call(c, Orientation1.managerPath, Orientation1.managerInterface, "BeginGeneratingDeviceOrientationNotifications")
        for _ in 0..<64 { try fillWindow(s, c, views: 1) }
        c.close()
    }
    for _ in 0..<20 { try cycle() }  // warm up allocator pools and caches
    waitForEmpty(s)
    let baseline = s.kB("VmRSS")
    let start = now()
    var rssAfterHalf = 0
    for n in 0..<options.cycles {
        try cycle()
        if n == options.cycles / 2 { waitForEmpty(s); rssAfterHalf = s.kB("VmRSS") }
    }
    waitForEmpty(s)
    let seconds = now() - start
    let after = s.kB("VmRSS")
    print("2. connect / fill / disconnect: \(options.cycles) clients, each 64 windows with a navigation controller and a view "
        + "(the per-client window limit), in \(decimal(seconds, 1)) s")
    print("   resident memory: \(mb(baseline)) after warm-up, \(mb(rssAfterHalf)) half-way, \(mb(after)) at the end "
        + "(\(after - baseline) kB, \(decimal(Double((after - baseline) * 1024) / Double(options.cycles), 0)) bytes per cycle); peak \(mb(s.kB("VmHWM")))")
    let left = s.objectCount()
    print("   left behind: \(left.windows) windows, \(left.controllers) controllers")
    s.stop()
}

// MARK: 3. One uid's connections

func oneUser() throws {
    let s = try Subject()
    var clients: [Connection] = []
    var windows = 0, controllers = 0, refusals = 0
    var refusalNs = 0
    var message = ""
    let manager = (Orientation1.managerPath, Orientation1.managerInterface)
    // Each connection fills its own limits (64 windows, 4096 controllers) until the per-user ones refuse.
    while refusals < 2, clients.count < 200 {
        let c = try s.connect()
        clients.append(c)
        refusals = 0
        for kind in ["window", "controller"] {
            let limit = kind == "window" ? 64 : 4096
            for _ in 0..<limit {
                do {
                    if kind == "window" {
                        _ = try s.call(c, manager.0, manager.1, "RegisterWindow")
                        windows += 1
                    } else {
                        _ = try s.call(c, manager.0, manager.1, "CreateController", [.string("view")])
                        controllers += 1
                    }
                } catch {
                    guard error.name == "org.freedesktop.DBus.Error.LimitsExceeded" else { fail("\(kind): \(error)") }
                    let before = s.cpuNanoseconds()
                    for _ in 0..<1000 {
                        _ = try? s.call(c, manager.0, manager.1, kind == "window" ? "RegisterWindow" : "CreateController",
                                        kind == "window" ? [] : [.string("view")])
                    }
                    refusalNs = (s.cpuNanoseconds() - before) / 1000
                    message = error.message
                    refusals += 1
                    break
                }
            }
        }
    }
    print("3. one uid: \(clients.count) connections accepted \(windows) windows and \(controllers) controllers, then LimitsExceeded:")
    print("   \"\(message)\"")
    print("   a refusal costs the daemon \(refusalNs / 1000) µs of CPU (mean of 1,000); resident memory \(mb(s.kB("VmRSS")))")
    for c in clients { c.close() }
    waitForEmpty(s)
    s.stop()
}

// MARK: 4. The total limits

/// Mean daemon CPU per call over `count` calls of `body`, in µs.
func cpuPerCall(_ s: Subject, _ count: Int, _ body: () -> Void) -> Double {
    let before = s.cpuNanoseconds()
    for _ in 0..<count { body() }
    return Double(s.cpuNanoseconds() - before) / Double(count) / 1000
}

func totals() throws {
    // One uid may hold more than everything here, so the totals are reached, and named, from this process.
    let s = try Subject(config: "[Limits]\nWindowsPerUser=1025\nControllersPerUser=65537\n")
    let c = try s.connect()
    let unknown = Orientation1.controllerPath(999_999_999)
    func getUnknown() {
        _ = try? s.call(c, unknown, StandardInterface.properties, "Get", [.string(Orientation1.controllerInterface), .string("Kind")])
    }
    func introspectFolder() -> Int {
        let xml = (try? s.call(c, Orientation1.managerPath + "/controller", StandardInterface.introspectable, "Introspect"))?.first?.stringValue
        return xml?.utf8.count ?? 0
    }
    let emptyRSS = s.kB("VmRSS")
    let emptyUnknown = cpuPerCall(s, 5000, getUnknown)
    var clients: [Connection] = []
    var windows = 0, controllers = 0
    let start = now()
    // 16 connections of 64 windows, each window a navigation controller holding 63 views: 1,024 and 65,536.
    for _ in 0..<16 {
        let client = try s.connect()
        clients.append(client)
        for _ in 0..<64 {
            controllers += try fillWindow(s, client, views: 63)
            windows += 1
        }
    }
    let filled = now() - start
    let fullRSS = s.kB("VmRSS")
    let fullUnknown = cpuPerCall(s, 5000, getUnknown)
    let folderBytes = introspectFolder()
    let introspectCost = cpuPerCall(s, 200) { _ = introspectFolder() }
    // A new connection, within its own and its user's limits, meets the total.
    var refusal = ""
    do { _ = try s.call(c, Orientation1.managerPath, Orientation1.managerInterface, "CreateController", [.string("view")]) } catch {
        refusal = error.message
    }
    print("4. the total limits: \(windows) windows and \(controllers) controllers from 16 connections in \(decimal(filled, 1)) s; the next: \"\(refusal)\"")
    print("   resident memory: \(mb(emptyRSS)) empty, \(mb(fullRSS)) full: \(decimal(Double((fullRSS - emptyRSS) * 1024) / Double(windows + controllers), 0)) bytes per object; peak \(mb(s.kB("VmHWM")))")
    print("   daemon CPU for a Get on a path that names nothing: \(decimal(emptyUnknown, 1)) µs empty, \(decimal(fullUnknown, 1)) µs full (mean of 5,000)")
    print("   Introspect of the controller folder, full: \(folderBytes) bytes, \(decimal(introspectCost, 0)) µs of daemon CPU (mean of 200)")
    for client in clients { client.close() }
    let leaving = now()
    waitForEmpty(s)
    print("   all 16 clients leaving: the folders empty after \(decimal((now() - leaving) * 1000, 0)) ms; resident memory then \(mb(s.kB("VmRSS")))")
    c.close()
    s.stop()
}

print("orientationd adversarial benchmark (private bus with the system bus's limits; --sensor simulated)")
if !options.skipped.contains("fuzz") { try fuzz() }
if !options.skipped.contains("cycles") { try connectCycles() }
if !options.skipped.contains("uid") { try oneUser() }
if !options.skipped.contains("total") { try totals() }
