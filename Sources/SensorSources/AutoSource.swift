import DBus
import OrientationAPI

/// The `auto` source: the IIO accelerometer when there is one; otherwise, when an upstream
/// iio-sensor-proxy other than this process has one, that proxy. The proxy is asked once,
/// asynchronously, at start; the IIO source stays in use (and picks up a device plugged in
/// later) when the proxy has none.
public final class AutoSource: SensorSource {
    /// Released once the proxy is taken, so its hotplug watch ends with it.
    private var iio: IIOSource?
    private unowned let sink: SensorSink
    /// The source in use: the IIO one until the proxy is taken.
    private var current: SensorSource
    private var running = false

    /// Starts with `iio`; `proxy` builds the sensor-proxy source if the probe finds one worth using.
    /// `ownUniqueNames` are this process's names on the system bus, never taken for an upstream proxy.
    public init(iio: IIOSource, sink: SensorSink, ownUniqueNames: [String], proxy: @escaping () throws(DBusError) -> SensorProxySource) {
        self.iio = iio
        self.sink = sink
        current = iio
        guard !iio.isPresent else { return }
        SensorProxySource.probe(bus: .system, ownUniqueNames: ownUniqueNames) { [weak self] found in
            self?.probed(found: found, proxy: proxy)
        }
    }

    public var isPresent: Bool { current.isPresent }

    public func setRunning(_ running: Bool) {
        self.running = running
        current.setRunning(running)
    }

    /// Takes the proxy when the probe found one and no IIO device has appeared meanwhile.
    private func probed(found: Bool, proxy: () throws(DBusError) -> SensorProxySource) {
        guard let iio, current === iio, !iio.isPresent else { return }
        guard found else {
            return log("the 'auto' source found no accelerometer (neither IIO nor \(SensorProxy.busName)); "
                       + "device orientations come only from SetDeviceOrientation until one is plugged in")
        }
        do {
            let upstream = try proxy()
            iio.setRunning(false)
            self.iio = nil
            current = upstream
            if running { upstream.setRunning(true) }
            sink.sensorPresenceChanged()
        } catch {
            log("the 'auto' source cannot use \(SensorProxy.busName): \(error)")
        }
    }
}
