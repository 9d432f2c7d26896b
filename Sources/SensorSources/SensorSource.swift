// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
import Sensors

// The SensorSources module: the drivers that turn a device into readings, every one a
// `SensorSource`. For the accelerometer: IIOSource (polled or buffered, following hotplug),
// SensorProxySource (an upstream iio-sensor-proxy), SimulatedSensor, and AutoSource choosing
// between the first two; SampleFeed runs raw samples through the classifier. For light, proximity
// and the compass: ScalarSensorSource, one per kind. All follow device events through one
// HotplugMonitor socket. A source knows neither the policy nor the D-Bus objects: it reports to its
// sink (SensorSink, the service; ScalarSensorSink, the compatibility interface).

/// A sensor the daemon reads: one shape for every kind. A source only turns a device into reports;
/// claims, the lock and rotations are its owner's business.
public protocol SensorSource: AnyObject {
    /// Whether a device of its kind is there now (`HasAccelerometer`, `HasAmbientLight`, …).
    var isPresent: Bool { get }
    /// Reads while someone claims and stops when nobody does: no timer, poll or open device otherwise (P16).
    func setRunning(_ running: Bool)
    /// Whether the pose last reported still holds after the source stopped and started again. Only a
    /// source that makes its poses up (the simulated sensor) may say so; a real device may have
    /// turned meanwhile, so its pose must be classified afresh (P16).
    var keepsPoseWhileStopped: Bool { get }
}

extension SensorSource {
    public var keepsPoseWhileStopped: Bool { false }
}

/// Where a source sends what it finds: the service.
public protocol SensorSink: AnyObject {
    /// A classified pose; unknown when the device is gone or unreadable.
    func sensorReported(_ orientation: DeviceOrientation)
    /// The accelerometer appeared or vanished.
    func sensorPresenceChanged()
    /// A raw reading's tilt (`AccelerometerTilt`), when it differs from the last reading's; the first
    /// reading after the source started or was reset always says it.
    func sensorTilted(_ tilt: AccelerometerTilt)
}

extension SensorSink {
    public func sensorTilted(_ tilt: AccelerometerTilt) {}
}
