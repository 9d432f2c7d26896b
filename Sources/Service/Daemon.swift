import CGLib
import DBus
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
        case .auto, .iio, .sensorProxy:
            log("the '\(settings.sensor.rawValue)' source found no accelerometer; "
                + "device orientations come only from SetDeviceOrientation")
        }
        try service.start()
        log("serving \(Names.bus) as \(connection.uniqueName)")
    }

    /// Releases the name so a successor can take it at once.
    public func stop() {
        if let report = service.feed?.costReport { log(report) }
        _ = try? connection.releaseName(Names.bus)
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
