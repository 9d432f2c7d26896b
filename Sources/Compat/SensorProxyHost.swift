// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import Policy

/// What `net.hadess.SensorProxy` may see of the service that serves it: the daemon's one connection,
/// the policy it reports, whether an accelerometer is there and whether its poses are made up, the
/// one way a client's call reaches the policy, and the one way a change is announced. The service conforms; the compatibility interface sees
/// nothing more of it.
package protocol SensorProxyHost: AnyObject {
    /// The daemon's one connection, where the interface is exported and its name owned.
    var bus: any Bus { get }
    /// The policy: its claims and the orientations the interface reports.
    var policy: Policy { get }
    /// Whether a device gives accelerometer readings now.
    var hasAccelerometer: Bool { get }
    /// Whether the source makes its poses up (the simulated sensor): a pose is always defined, and
    /// no raw reading stands behind it.
    var sensorMakesPosesUp: Bool { get }
    /// Runs a client's call on the policy as every call of the service is run, and answers it.
    func perform(_ call: MethodCall, _ operation: () throws(PolicyError) -> [Value]) -> Reply
    /// Announces that `names` of the object exported at `path` changed: `PropertiesChanged` with what
    /// their getters read now, to every client or to `client` only, sent now by the service's one
    /// announcer, after what it has sent before.
    func announce(_ names: [String], at path: String, interface: String, to client: ClientID?)
}
