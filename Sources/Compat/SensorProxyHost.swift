// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import Orientation
import Policy
import SensorSources

/// What `net.hadess.SensorProxy` may ask of the service that serves it: the daemon's one connection,
/// the values it serves, the claims its clients make, and the one way its property changes are
/// announced. The service conforms; the compatibility interface sees nothing more of it, and never
/// the policy.
package protocol SensorProxyHost: AnyObject {
    /// The daemon's one connection, where the interface is exported and its name owned.
    var bus: any Bus { get }
    /// Whether a device gives accelerometer readings now.
    var hasAccelerometer: Bool { get }
    /// Whether the source makes its poses up (the simulated sensor): a pose is always defined, and
    /// no raw reading stands behind it.
    var sensorMakesPosesUp: Bool { get }
    /// The device's pose and the interface's orientation, as the manager reports them.
    var deviceOrientation: DeviceOrientation { get }
    var interfaceOrientation: InterfaceOrientation { get }
    /// `ClaimAccelerometer`: the caller claims orientations as `BeginGeneratingDeviceOrientationNotifications`
    /// does, when `first` (its first claim here) or when it holds no claim any more; answered as every call of the service is.
    func claimOrientations(_ call: MethodCall, first: Bool) -> Reply
    /// `ReleaseAccelerometer`: the caller's claim ends when `held` (it claimed here), as
    /// `EndGeneratingDeviceOrientationNotifications` ends it.
    func releaseOrientations(_ call: MethodCall, held: Bool) -> Reply
    /// Whether a light, proximity or compass sensor is there now.
    func hasSensor(_ kind: ScalarSensorKind) -> Bool
    /// Reads the sensor of `kind` while `running` (some client claims it).
    func setReading(_ kind: ScalarSensorKind, _ running: Bool)
    /// `names` of the object exported at `path` changed: `PropertiesChanged` with what their getters
    /// read then, by the service's one announcer. To everyone at the end of the batch being announced
    /// (at once when none is), after what it has sent before; to `client` alone at once.
    func propertiesChanged(_ names: [String], at path: String, interface: String, to client: ClientID?)
}
