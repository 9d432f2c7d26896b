// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
import Sensors

// The SensorSources module: what turns the machine's devices into reports. A *source* is one kind of
// sensor (the accelerometer, light, proximity, compass, the posture): it finds its device, follows it
// coming and going (`DeviceEvents`), and reads it only while someone claims (P16). How a device is
// read is a *driver* (`SensorDriver`), chosen from the one table `SensorDrivers.table`: polled,
// buffered or evdev accelerometers, polled and buffered channels, input switches, the hinge and the
// base accelerometer. Everything a source finds leaves through one `SensorSink` as a `SensorReport`;
// a source knows neither the policy nor the D-Bus objects.

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

/// What a source tells its sink.
public enum SensorReport: Equatable, Sendable {
    /// A classified pose; unknown when the device is gone or unreadable.
    case orientation(DeviceOrientation)
    /// A raw reading's tilt (`AccelerometerTilt`), when it differs from the last reading's; the first
    /// reading after the source started or was reset always says it.
    case tilt(AccelerometerTilt)
    /// The accelerometer appeared or vanished.
    case accelerometerPresence
    /// The convertible's posture and hinge angle (degrees, −1 when not known), when either changed.
    case posture(Posture, hingeAngle: Double)
    /// A light, proximity or compass reading, only while claimed and only when it differs from the one before.
    case reading(ScalarSensorKind, ScalarReading)
    /// A light, proximity or compass sensor appeared or vanished.
    case presence(ScalarSensorKind)
    /// A finger or pen is on a touchscreen (true) or none is any more (P20), when that changed.
    case touch(Bool)
}

/// Where every source sends what it finds: the service.
public protocol SensorSink: AnyObject {
    func sensorReported(_ report: SensorReport)
}
