// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import CGLib
import DBus
import OrientationAPI
import Sensors
import Log
import SensorSources
import Configuration

/// The whole daemon once its settings are known: the bus, the service and its sensor source.
public final class Daemon {
    public let bus: any Bus
    public let service: OrientationService

    /// Connects to the bus the settings name, exports the objects and takes the name.
    public convenience init(settings: Settings) throws(StartupError) {
        // A trace is checked before anything is connected, like every other setting.
        let samples = try Self.replayedSamples(settings)
        let connection: Connection
        do {
            connection = try Connection(bus: settings.bus)
        } catch {
            throw .bus(DBusError.failed("cannot connect to the bus: \(error)"))
        }
        try self.init(settings: settings, bus: connection, samples: samples)
    }

    /// Serves on `bus` (an embedded one in tests): exports the objects and takes the name.
    public convenience init(settings: Settings, bus: any Bus) throws(StartupError) {
        try self.init(settings: settings, bus: bus, samples: try Self.replayedSamples(settings))
    }

    private init(settings: Settings, bus: any Bus, samples: [Sample]) throws(StartupError) {
        self.bus = bus
        service = OrientationService(settings: settings, bus: bus)
        if let (source, feed) = try makeSource(settings, samples: samples) { service.attach(source, feed: feed) }
        // The posture comes from the machine's own devices, whichever source gives the pose.
        if [.iio, .auto, .sensorProxy].contains(settings.sensor) {
            service.attachPostureSource()
            if settings.classifier.touchHoldMs > 0 { service.attachTouchSource() }
        }
        do { try service.start() } catch { throw .bus(error) }
        Log.info("serving \(Orientation1.busName) as \(bus.uniqueName)")
    }

    /// The samples of `--replay`, none without it.
    private static func replayedSamples(_ settings: Settings) throws(StartupError) -> [Sample] {
        guard let path = settings.replayPath else { return [] }
        let text = try readText(path)
        do { return try Trace(parsing: text).samples } catch { throw .configuration("--replay \(path): \(error.message)") }
    }

    /// The source `settings.sensor` names, each kind built in one place, with the feed that classifies
    /// its samples (nil for a source that reports poses itself); nil with `--sensor none`.
    private func makeSource(_ settings: Settings, samples: [Sample]) throws(StartupError) -> (SensorSource, SampleFeed?)? {
        let feed = SampleFeed(settings: settings.classifier, sink: service)
        feed.measuresCost = settings.verbose
        // The upstream proxy lives on the system bus; our own connection's name there is never it.
        let ownNames = settings.bus == .system ? [bus.uniqueName] : []
        let service = self.service
        func iio(_ sink: SensorSink) -> AccelerometerSource {
            AccelerometerSource(feed: feed, sink: sink, configMatrix: settings.mountMatrix, events: service.deviceEvents,
                                pace: PollPace(pollHz: settings.pollHz, stillPollHz: settings.stillPollHz,
                                               stillAfterMs: settings.stillAfterMs, tolerance: settings.stillTolerance,
                                               confirmMs: settings.classifier.restMs,
                                               motionStillAfterMs: settings.motionEvents ? settings.motionStillAfterMs : nil))
        }
        func proxy(_ sink: SensorSink) -> SensorProxySource {
            SensorProxySource(connectingLaterTo: .system, sink: sink, ownUniqueNames: ownNames)
        }
        switch settings.sensor {
        case .none:
            return nil
        case .simulated:
            return (SimulatedSensor(feed: feed, trace: samples), feed)
        case .sensorProxy:
            // At start the first connection may wait for the bus, and must succeed.
            do { return (try SensorProxySource(sink: service, ownUniqueNames: ownNames), nil) } catch {
                throw .configuration("--sensor sensor-proxy: cannot connect to the system bus: \(error)")
            }
        case .iio:
            let source = iio(service)
            if !source.isPresent {
                Log.info("the 'iio' source found no accelerometer yet; HasAccelerometer is false until one is plugged in")
            }
            return (source, feed)
        case .auto:
            return (AutoSource(sink: service, iio: iio, proxy: proxy), feed)
        }
    }

    /// Reads the command line's configuration files again (SIGHUP) and applies what a reload may
    /// change; a file that no longer reads leaves everything as it was.
    public func reload(arguments: [String]) {
        let outcome: DaemonCommandLine.Outcome
        do { outcome = try DaemonCommandLine.parse(arguments) } catch {
            Log.error("reload: \(error.message); the configuration in force stays")
            return
        }
        guard case .run(let settings, let warnings) = outcome else { return }
        for warning in warnings { Log.warning("reload: " + warning) }
        Log.info("reload: read " + (settings.configFiles.isEmpty ? "no configuration file" : settings.configFiles.joined(separator: ", ")))
        service.reload(settings)
    }

    /// Releases the name so a successor can take it at once.
    public func stop() {
        if let report = service.feed?.costReport { Log.debug(report) }
        service.store.finish()
        _ = try? bus.releaseName(Orientation1.busName)
        bus.flush()
        bus.close()
    }
}

/// The largest trace `--replay` reads: hours of samples at 20 Hz.
let replayLimit = 64 * 1024 * 1024

/// The whole file as text (`StartupFile`, up to `limit` bytes). Used at start only.
func readText(_ path: String, limit: Int = replayLimit) throws(StartupError) -> String {
    do {
        return String(decoding: try StartupFile.read(path, limit: limit), as: UTF8.self)
    } catch {
        throw .configuration("cannot read \(path): \(error.message)")
    }
}
