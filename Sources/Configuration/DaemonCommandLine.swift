// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Arguments
import DBus
import OrientationAPI

/// The daemon's command line (dbus-api.md, "Command lines"); flags override the config file.
public enum DaemonCommandLine {
    public static let usage = """
        Usage: orientationd [OPTION...]

        Publishes the device orientation and the interface orientation on D-Bus.

          --system                 serve the system bus (default)
          --session                serve the session bus
          --address ADDRESS        serve the bus at ADDRESS
          --config FILE            read FILE and the drop-ins of FILE.d/ (default
                                   \(Settings.defaultConfigPath) and the *.conf of
                                   /usr/lib, /run and /etc/orientationd/orientationd.conf.d/)
          --machine-info FILE      read the chassis for Idiom=auto from FILE
                                   (default /etc/machine-info)
          --sensor SOURCE          auto, iio, sensor-proxy, simulated or none
          --replay FILE            play a CSV trace (t_ms,x,y,z) into the simulated sensor
                                   while someone claims (implies --sensor simulated)
          --state-dir DIR          keep the lock, the application mask and the orientation in DIR
                                   (default /var/lib/orientationd)
          --sensor-proxy-compat    also serve net.hadess.SensorProxy (iio-sensor-proxy's interface)
                                   with the interface orientation, so GNOME and KDE rotate the
                                   screen as orientationd decides; off when another process owns
                                   that name or with --sensor sensor-proxy ([Compat] SensorProxy)
          --verbose                log every decision (debug lines)
          --keep-pages             keep the program's pages while idle (by default the kernel
                                   is given back, after start and after each claim, the pages
                                   of the program that idling does not touch)
          --version                print the version and exit
          --help                   show this help

        An option's value may also follow an equals sign: --sensor=simulated.
        """

    /// What was asked for: settings to run with, the help text, or the version.
    public enum Outcome {
        case run(Settings, warnings: [String])
        case help
        case version
    }

    /// What `--version` prints.
    public static let versionLine = "orientationd \(Release.version)"

    /// Parses `arguments` (without the program name), reads the config file, then applies the flags over it.
    public static func parse(_ arguments: [String]) throws(StartupError) -> Outcome {
        // What the flags set, applied over the config file once it is read.
        var bus: BusAddress?, sensor: SensorSourceKind?, replayPath: String?, stateDirectory: String?
        var sensorProxyCompat = false, verbose = false, keepPages = false
        var configPath: String?, machineInfoPath: String?
        var cursor = ArgumentCursor(arguments)
        while let argument = cursor.next() {
            func operand(_ flag: String) throws(StartupError) -> String {
                guard let value = cursor.value() else { throw StartupError.configuration("\(flag) needs a value; see --help") }
                return value
            }
            switch argument {
            case "--help", "-h": return .help
            case "--version": return .version
            case "--system": bus = .system
            case "--session": bus = .session
            case "--address": bus = .address(try operand(argument))
            case "--config": configPath = try operand(argument)
            case "--machine-info": machineInfoPath = try operand(argument)
            case "--sensor":
                let text = try operand(argument)
                guard let source = SensorSourceKind(rawValue: text) else {
                    throw StartupError.configuration("--sensor \(text): accepted: "
                        + SensorSourceKind.allCases.map(\.rawValue).joined(separator: ", "))
                }
                sensor = source
            case "--replay": replayPath = try operand(argument)
            case "--state-dir": stateDirectory = try operand(argument)
            case "--sensor-proxy-compat": sensorProxyCompat = true
            case "--verbose", "-v": verbose = true
            case "--keep-pages": keepPages = true
            default: throw StartupError.configuration("unknown option '\(argument)'; see --help")
            }
            if cursor.hasUnusedValue { throw StartupError.configuration("\(argument) takes no value; see --help") }
        }
        var settings = Settings()
        settings.configPath = configPath
        let warnings = try ConfigFile.applyAll(configPath: configPath, to: &settings)
        // Idiom=auto (the default): the chassis decides (Chassis).
        if settings.idiomFile == nil {
            var paths = Chassis.Paths()
            if let machineInfoPath { paths.machineInfo = machineInfoPath }
            let chassis = Chassis.detect(paths)
            settings.chassis = chassis
            settings.policy.idiom = chassis.idiom
        }
        if let bus { settings.bus = bus }
        if let sensor { settings.sensor = sensor }
        if let replayPath { settings.replayPath = replayPath }
        if let stateDirectory { settings.stateDirectory = stateDirectory }
        if sensorProxyCompat { settings.sensorProxyCompat = true }
        if verbose { settings.verbose = true }
        if keepPages { settings.keepsPagesWhenIdle = true }
        if settings.replayPath != nil {
            switch settings.sensor {
            case .simulated: break
            case .auto: settings.sensor = .simulated
            default: throw StartupError.configuration("--replay plays into the simulated sensor; it cannot go with the '\(settings.sensor.rawValue)' source")
            }
        }
        return .run(settings, warnings: warnings)
    }
}
