import CGLib
import DBus
import OrientationAPI
import SensorSources
import Sensors

/// The whole daemon once its settings are known: the bus connection, the service and its sensor source.
public final class Daemon {
    public let connection: Connection
    public let service: OrientationService

    /// Connects, exports the objects and takes the name; throws a message fit for a person.
    public init(settings: Settings) throws {
        // A trace is checked before anything is connected, like every other setting.
        var samples: [Sample] = []
        if let path = settings.replayPath {
            do {
                samples = try Trace(parsing: try readText(path)).samples
            } catch let error as TraceError {
                throw ConfigurationError("--replay \(path): \(error.message)")
            }
        }
        do {
            connection = try Connection(bus: settings.bus)
        } catch {
            throw DBusError.failed("cannot connect to the bus: \(error)")
        }
        service = OrientationService(settings: settings, connection: connection)
        let feed = SampleFeed(settings: settings.classifier, sink: service)
        switch settings.sensor {
        case .none: break
        case .simulated:
            service.attach(SimulatedSensor(feed: feed, trace: samples), feed: feed)
        case .sensorProxy:
            // An upstream iio-sensor-proxy on the system bus (never this process's own compat name).
            do {
                let ownNames = settings.bus == .system ? [connection.uniqueName] : []
                service.attach(try SensorProxySource(sink: service, ownUniqueNames: ownNames), feed: nil)
            } catch {
                throw ConfigurationError("--sensor sensor-proxy: cannot connect to the system bus: \(error)")
            }
        case .iio:
            let iio = IIOSource(feed: feed, sink: service, configMatrix: settings.mountMatrix, pollHz: settings.pollHz)
            if !iio.isPresent {
                log("the 'iio' source found no accelerometer yet; HasAccelerometer is false until one is plugged in")
            }
            service.attach(iio, feed: feed)
        case .auto:
            let iio = IIOSource(feed: feed, sink: service, configMatrix: settings.mountMatrix, pollHz: settings.pollHz)
            // Attached even without a device, so one that appears later (a driver loaded late) is picked up.
            service.attach(iio, feed: feed)
            if !iio.isPresent {
                // Hook for the `sensor-proxy` source (Sources/SensorSources/SensorProxySource.swift): asked once,
                // asynchronously; it replaces the device-less IIO source when an upstream proxy has an accelerometer.
                let ownNames = settings.bus == .system ? [connection.uniqueName] : []
                SensorProxySource.probe(bus: .system, ownUniqueNames: ownNames) { [weak service, weak iio] found in
                    guard let service, let iio, service.sensor === iio, !iio.isPresent else { return }
                    guard found else {
                        return log("the 'auto' source found no accelerometer (neither IIO nor \(SensorProxy.busName)); "
                                   + "device orientations come only from SetDeviceOrientation until one is plugged in")
                    }
                    do {
                        let proxy = try SensorProxySource(sink: service, ownUniqueNames: ownNames)
                        iio.setRunning(false)
                        service.attach(proxy, feed: nil)
                        service.sensorPresenceChanged()
                    } catch {
                        log("the 'auto' source cannot use \(SensorProxy.busName): \(error)")
                    }
                }
            }
        }
        try service.start()
        log("serving \(Orientation1.busName) as \(connection.uniqueName)")
    }

    /// Releases the name so a successor can take it at once.
    public func stop() {
        if let report = service.feed?.costReport { log(report) }
        _ = try? connection.releaseName(Orientation1.busName)
        connection.flush()
        connection.close()
    }
}

/// The whole file as text; wraps `g_file_get_contents`. Used at start only.
func readText(_ path: String) throws(ConfigurationError) -> String {
    var contents: UnsafeMutablePointer<gchar>?
    var error: UnsafeMutablePointer<GError>?
    guard g_file_get_contents(path, &contents, nil, &error) != 0, let contents else {
        let message = error.map { String(cString: $0.pointee.message) } ?? "unreadable"
        g_error_free(error)
        throw ConfigurationError("cannot read \(path): \(message)")
    }
    defer { g_free(contents) }
    return String(cString: contents)
}
