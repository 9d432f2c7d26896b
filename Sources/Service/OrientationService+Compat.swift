// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Compat
import Log
import OrientationAPI
import Policy

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

    /// The compatibility interface's changes, through the one announcer (`SensorProxyHost`).
    package func announce(_ names: [String], at path: String, interface: String, to client: ClientID?) {
        let announcement = Announcer.changed(.exported(path: path, interface: interface), names, to: client, tables)
        guard case .properties(_, let values, _) = announcement, !values.isEmpty else { return }
        send([announcement])
    }

    /// Announces the compatibility object's changed properties; called at the end of every `flush()`.
    func announceSensorProxyCompat() {
        sensorProxyCompat?.announce()
    }
}

