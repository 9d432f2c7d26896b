// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import DBus
import SystemCalls
import EventLoop
import OrientationAPI

// monitor-sensor, as the orientationd-sensor-proxy package ships it in place of iio-sensor-proxy's:
// the same options, and line for line the same output for the same sensors, since rotation scripts
// of sway, i3 and niri read it (`monitor-sensor --accel | while read line`). It watches
// net.hadess.SensorProxy on the system bus whoever serves it (Docs/shells.md, "Files").


/// Writes one line to standard output and flushes it, so a pipe's reader sees each as it comes.
func say(_ line: String) {
    fputs(line + "\n", stdout)
    fflush(stdout)
}

/// A C `%lf`, in the locale's notation, as the peer prints numbers.
func decimal(_ value: Double) -> String {
    var buffer = [CChar](repeating: 0, count: 512)
    _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%lf", $0) }
    return String(cString: buffer)
}

/// A warning on standard error in GLib's words, as the peer's g_warning writes it.
func warn(_ text: String) {
    fputs("\n** (monitor-sensor:\(ProcessCalls.ownID)): WARNING **: \(text)\n", stderr)
}

let usage = """
    Usage:
      monitor-sensor [OPTION…]

    Help Options:
      -h, --help        Show help options

    Application Options:
      -a, --all         Monitor all the sensor changes
      --accel           Monitor accelerometer changes
      --proximity       Monitor proximity sensor changes
      --compass         Monitor compass changes
      --light           Monitor light changes changes

    """

/// Which sensors are watched, from the options as the peer reads them.
struct Watch {
    var accel = false, proximity = false, compass = false, light = false

    /// The options, or the status to exit with after saying why.
    static func parse(_ arguments: [String], userName: String) -> Result<Watch, ExitStatus> {
        var watch = Watch(), all = false
        for argument in arguments {
            switch argument {
            case "-h", "--help", "-?", "--help-all":
                say(usage)
                return .failure(ExitStatus(code: 0))
            case "-a", "--all": all = true
            case "--accel": watch.accel = true
            case "--proximity": watch.proximity = true
            case "--compass": watch.compass = true
            case "--light": watch.light = true
            default:
                say("Failed to parse arguments: Unknown option \(argument)")
                return .failure(ExitStatus(code: 1))
            }
        }
        if watch.compass && userName != "geoclue" {
            say("Can't monitor compass as a user other than \"geoclue\"")
            return .failure(ExitStatus(code: 1))
        }
        if (!watch.accel && !watch.proximity && !watch.compass && !watch.light) || all {
            watch = Watch(accel: true, proximity: true, compass: userName == "geoclue", light: true)
        }
        return .success(watch)
    }
}

struct ExitStatus: Error { let code: Int32 }

/// The properties of one object as last read or announced, as a proxy of GIO keeps them.
final class PropertyCache {
    let path: String
    let interface: String
    var values: [String: Value] = [:]

    init(path: String, interface: String) {
        self.path = path
        self.interface = interface
    }

    func load(_ connection: Connection) {
        let reply = try? connection.callBlocking(destination: SensorProxy.busName, path: path, interface: StandardInterface.properties,
                                                 method: "GetAll", values: [.string(interface)])
        values = reply?.first?.stringKeyedDictionary ?? [:]
    }

    func bool(_ name: String) -> Bool { values[name]?.boolValue ?? false }
    func string(_ name: String) -> String { values[name]?.stringValue ?? "" }
    func double(_ name: String) -> Double? { values[name]?.doubleValue }
}

/// What is watched while net.hadess.SensorProxy has an owner.
final class Monitor {
    let connection: Connection
    let loop: MainLoop
    let watch: Watch
    var owner: String?
    var main: PropertyCache?
    var compass: PropertyCache?

    init(connection: Connection, loop: MainLoop, watch: Watch) {
        self.connection = connection
        self.loop = loop
        self.watch = watch
    }

    func appeared(_ newOwner: String) {
        owner = newOwner
        say("+++ iio-sensor-proxy appeared")
        let main = PropertyCache(path: SensorProxy.path, interface: SensorProxy.interface)
        main.load(connection)
        self.main = main
        if watch.compass {
            let compass = PropertyCache(path: SensorProxy.compassPath, interface: SensorProxy.compassInterface)
            compass.load(connection)
            self.compass = compass
        }
        let claims: [(Bool, String, String, String)] = [
            (watch.accel, SensorProxy.path, SensorProxy.interface, "ClaimAccelerometer"),
            (watch.light, SensorProxy.path, SensorProxy.interface, "ClaimLight"),
            (watch.proximity, SensorProxy.path, SensorProxy.interface, "ClaimProximity"),
            (watch.compass, SensorProxy.compassPath, SensorProxy.compassInterface, "ClaimCompass"),
        ]
        // The peer says "light sensor" for a failed compass claim too.
        let names = ["ClaimAccelerometer": "accelerometer", "ClaimLight": "light sensor", "ClaimProximity": "proximity sensor",
                     "ClaimCompass": "light sensor"]
        for (wanted, path, interface, method) in claims where wanted {
            do {
                _ = try connection.callBlocking(destination: SensorProxy.busName, path: path, interface: interface, method: method)
            } catch {
                warn("Failed to claim \(names[method]!): \(error.message)")
                loop.quit()
                return
            }
        }
        printInitialValues()
    }

    func vanished() {
        owner = nil
        if main != nil || compass != nil {
            main = nil
            compass = nil
            say("--- iio-sensor-proxy vanished, waiting for it to appear")
        }
    }

    func printInitialValues() {
        guard let main else { return }
        if watch.accel {
            say(main.bool("HasAccelerometer") ? "=== Has accelerometer (orientation: \(main.string("AccelerometerOrientation")))"
                : "=== No accelerometer")
        }
        if watch.light {
            say(main.bool("HasAmbientLight")
                ? "=== Has ambient light sensor (value: \(decimal(main.double("LightLevel") ?? 0)), unit: \(main.string("LightLevelUnit")))"
                : "=== No ambient light sensor")
        }
        if watch.proximity {
            say(main.bool("HasProximity") ? "=== Has proximity sensor (near: \(main.bool("ProximityNear") ? 1 : 0))"
                : "=== No proximity sensor")
        }
        guard let compass else { return }
        if compass.bool("HasCompass") {
            // The peer reads the heading from the main object, which has none.
            if let heading = main.double("CompassHeading") {
                say("=== Has compass (heading: \(decimal(heading)))")
            } else {
                say("=== Has compass (heading: unset)")
            }
        } else {
            say("=== No compass")
        }
    }

    /// A PropertiesChanged of either object: the cache updated, then a line per known property, in the
    /// peer's order.
    func changed(_ signal: PropertiesChanged, path: String) {
        let cache: PropertyCache?
        switch (path, signal.interface) {
        case (SensorProxy.path, SensorProxy.interface): cache = main
        case (SensorProxy.compassPath, SensorProxy.compassInterface): cache = compass
        default: cache = nil
        }
        guard let cache, let main else { return }
        for (name, value) in signal.changed { cache.values[name] = value }
        for name in signal.invalidated { cache.values[name] = nil }
        let names = Set(signal.changed.map(\.0))
        if names.contains("HasAccelerometer") {
            say(main.bool("HasAccelerometer") ? "+++ Accelerometer appeared" : "--- Accelerometer disappeared")
        }
        if names.contains("AccelerometerOrientation") {
            say("    Accelerometer orientation changed: \(main.string("AccelerometerOrientation"))")
        }
        if names.contains("HasAmbientLight") {
            say(main.bool("HasAmbientLight") ? "+++ Light sensor appeared" : "--- Light sensor disappeared")
        }
        if names.contains("LightLevel") {
            say("    Light changed: \(decimal(main.double("LightLevel") ?? 0)) (\(main.string("LightLevelUnit")))")
        }
        if names.contains("HasProximity") {
            say(main.bool("HasProximity") ? "+++ Proximity sensor appeared" : "--- Proximity sensor disappeared")
        }
        if names.contains("ProximityNear") {
            say("    Proximity value changed: \(main.bool("ProximityNear") ? 1 : 0)")
        }
        if names.contains("HasCompass"), let compass {
            say(compass.bool("HasCompass") ? "+++ Compass appeared" : "--- Compass disappeared")
        }
        if names.contains("CompassHeading"), let compass {
            say("    Compass heading changed: \(decimal(compass.double("CompassHeading") ?? 0))")
        }
    }
}

/// The program's life, outside main.swift's top-level code, which is the main actor's.
func run() -> Int32 {
    let userName = ProcessCalls.userName
    let watch: Watch
    switch Watch.parse(Array(CommandLine.arguments.dropFirst()), userName: userName) {
    case .success(let parsed): watch = parsed
    case .failure(let status): return status.code
    }
    let loop = MainLoop()
    let connection: Connection
    do {
        connection = try Connection(bus: .system)
        try connection.addMatch("type='signal',sender='\(SensorProxy.busName)',interface='\(StandardInterface.properties)',"
            + "member='PropertiesChanged'")
    } catch {
        warn("Cannot watch \(SensorProxy.busName) on the system bus: \(error.message)")
        return 1
    }
    connection.onDisconnected = { loop.quit() }
    let monitor = Monitor(connection: connection, loop: loop, watch: watch)
    connection.watchNameOwnerChanged { name, _, newOwner in
        guard name == SensorProxy.busName else { return }
        if monitor.owner != nil { monitor.vanished() }
        if !newOwner.isEmpty { monitor.appeared(newOwner) }
    }
    connection.onSignal { message in
        guard let owner = monitor.owner, message.sender == owner, let path = message.path,
              let signal = PropertiesChanged(message) else { return }
        monitor.changed(signal, path: path)
    }
    say("    Waiting for iio-sensor-proxy to appear")
    // The name's owner now, read once the loop runs, as the peer's watch reports it.
    Idle.schedule {
        let reply = try? connection.callBlocking(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                 interface: "org.freedesktop.DBus", method: "GetNameOwner",
                                                 values: [.string(SensorProxy.busName)])
        if monitor.owner == nil, let owner = reply?.first?.stringValue { monitor.appeared(owner) }
    }
    loop.run()
    return 0
}

setlocale(LC_ALL, "")
exit(run())
