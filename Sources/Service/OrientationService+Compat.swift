import Compat
import Log
import OrientationAPI

/// The service as the compatibility interface sees it (Compat's `SensorProxyHost`), and its start.
extension OrientationService: SensorProxyHost {
    package var sensorMakesPosesUp: Bool { sensor?.keepsPoseWhileStopped ?? false }

    /// Starts `net.hadess.SensorProxy` when the settings ask for it; a refusal is logged, never fatal.
    func startSensorProxyCompat() {
        guard settings.sensorProxyCompat else { return }
        guard settings.sensor != .sensorProxy else {
            Log.warning("the sensor-proxy source reads \(SensorProxy.busName) from iio-sensor-proxy, so orientationd "
                + "cannot serve that name too; the compatibility interface is off")
            return
        }
        let compat = SensorProxyCompat(service: self)
        do {
            try compat.start()
            sensorProxyCompat = compat
            Log.info("serving \(SensorProxy.busName) at \(SensorProxy.path) (compatibility interface)")
        } catch {
            Log.error(error.message)
        }
    }

    /// Announces the compatibility object's changed properties; called at the end of every `flush()`.
    func announceSensorProxyCompat() {
        sensorProxyCompat?.announce()
    }
}

