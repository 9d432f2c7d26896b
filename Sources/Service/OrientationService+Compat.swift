// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Compat
import DBus
import Log
import Orientation
import OrientationAPI
import Policy
import SensorSources

/// The service as the compatibility interface sees it (Compat's `SensorProxyHost`), and its start.
extension OrientationService: SensorProxyHost {
    package var sensorMakesPosesUp: Bool { sensor?.keepsPoseWhileStopped ?? false }
    package var deviceOrientation: DeviceOrientation { policy.deviceOrientation }
    package var interfaceOrientation: InterfaceOrientation { policy.interfaceOrientation }

    /// Starts `net.hadess.SensorProxy` when the settings ask for it, and with it the light, proximity
    /// and compass sensors it serves; a refusal is logged, never fatal.
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
            scalarSensors = ScalarSensors(sink: self, events: deviceEvents)
            Log.info("serving \(SensorProxy.busName) at \(SensorProxy.path) (compatibility interface)")
        } catch {
            Log.error(error.message)
        }
    }

    package func claimOrientations(_ call: MethodCall, first: Bool) -> Reply {
        perform(call) {
            if first || policy.claims(of: call.sender) == 0 { policy.beginGenerating(client: call.sender) }
            return []
        }
    }

    package func releaseOrientations(_ call: MethodCall, held: Bool) -> Reply {
        perform(call) {
            // Its count may already be 0 if it also ended claims through the manager.
            if held { try? policy.endGenerating(client: call.sender) }
            return []
        }
    }

    package func hasSensor(_ kind: ScalarSensorKind) -> Bool { scalarSensors?.source(kind).isPresent ?? false }

    package func setReading(_ kind: ScalarSensorKind, _ running: Bool) { scalarSensors?.source(kind).setRunning(running) }

    /// The compatibility interface's changes, through the one announcer: to everyone with the batch
    /// under way, or at once; to one client at once.
    package func propertiesChanged(_ names: [String], at path: String, interface: String, to client: ClientID?) {
        let object = AnnouncedObject.exported(path: path, interface: interface)
        guard client == nil else {
            let announcement = Announcer.changed(object, names, to: client, tables)
            guard case .properties(_, let values, _) = announcement, !values.isEmpty else { return }
            return send([announcement])
        }
        announcer.name(names, of: object)
        if !isFlushing { send(announcer.takeExported(tables)) }
    }
}
