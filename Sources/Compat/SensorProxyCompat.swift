// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import DBus
import Orientation
import OrientationAPI
import Policy
import Log
import SensorSources
import Sensors
import EventLoop
import SystemCalls

/// `net.hadess.SensorProxy` served by orientationd itself (`--sensor-proxy-compat`), so GNOME and KDE
/// rotate the screen as the policy decides; shells.md has what each member answers.
///
/// It lives on the daemon's one connection, so the `sensor-proxy` source is handed that connection's
/// unique name and never reads this object; with `--sensor sensor-proxy` it is not started at all.
/// A refusal (the name owned by another process, the bus saying no) is logged and never fatal.
///
/// The ambient light and proximity sensors are served here too, as the peer serves them: each is read
/// only while some client claims it, and its readings go to the clients that claim it.
package final class SensorProxyCompat {
    /// The service, as far as this interface may see it.
    unowned let service: any SensorProxyHost
    /// Clients holding an accelerometer claim made here (one each, as iio-sensor-proxy counts).
    private(set) var claimants: Set<ClientID> = []
    /// The clients claiming each of them.
    private var scalarClaims: [ScalarSensorKind: Set<ClientID>] = [:]
    /// The latest readings; before any, the peer's values.
    private var lightLevel = 0.0
    private var lightInLux = true
    private var proximityNear = false
    /// -1 until the compass has reported, as the peer's.
    private var compassHeading = -1.0
    /// Whether the accelerometer has given a reading since it appeared: until then
    /// `AccelerometerOrientation` and `AccelerometerTilt` read `undefined`, as the peer's do.
    private var accelerometerRead = false
    /// The last reading's tilt, in the peer's words.
    private var tilt = AccelerometerTilt.undefined
    /// `ClaimAccelerometer` calls waiting for the first reading, and the bound on their wait.
    private var waitingForReading: [MethodCall] = []
    private var readingBound: EventLoop.Timer?
    /// How long a claim waits for the first reading before it is answered anyway: the peer's poll period.
    static let firstReadingBoundMs: UInt32 = 700

    package init(service: any SensorProxyHost) { self.service = service }

    /// Why the compatibility interface did not start, in words for the log.
    package struct Refusal: Error { package let message: String }

    /// Exports the object, then takes the name; on refusal nothing stays exported.
    package func start() throws(Refusal) {
        let bus = service.bus
        do {
            try bus.objects.register(path: SensorProxy.path, interfaces: [interface()])
            try bus.objects.register(path: SensorProxy.compassPath, interfaces: [compassInterface()])
        } catch {
            throw Refusal(message: "cannot export \(SensorProxy.path): \(error); the compatibility interface is off")
        }
        let owned: Bool
        do {
            owned = try bus.requestName(SensorProxy.busName, flags: .doNotQueue)
        } catch {
            stopExporting()
            throw Refusal(message: "cannot own \(SensorProxy.busName): \(error.message); "
                + "the compatibility interface is off")
        }
        guard owned else {
            stopExporting()
            throw Refusal(message: "\(SensorProxy.busName) is owned by another process (\(ownerDescription())); "
                + "the compatibility interface is off")
        }
    }

    /// A client left the bus: its claims here are gone (the policy drops its accelerometer count itself).
    package func clientLeft(_ client: ClientID) {
        claimants.remove(client)
        for kind in ScalarSensorKind.allCases { release(kind, by: client) }
    }

    // MARK: Light and proximity

    /// `ClaimLight`, `ClaimProximity`: once per client; the first claim starts reading the sensor.
    private func claim(_ kind: ScalarSensorKind, by client: ClientID) {
        guard scalarClaims[kind, default: []].insert(client).inserted else { return }
        if scalarClaims[kind]?.count == 1 { service.setReading(kind, true) }
    }

    /// `ReleaseLight`, `ReleaseProximity`, or the client leaving: the last release stops reading it.
    private func release(_ kind: ScalarSensorKind, by client: ClientID) {
        guard scalarClaims[kind]?.remove(client) != nil else { return }
        if scalarClaims[kind]?.isEmpty ?? true { service.setReading(kind, false) }
    }

    private func isPresent(_ kind: ScalarSensorKind) -> Bool { service.hasSensor(kind) }

    /// The property saying whether a sensor of `kind` is there, and those a reading changes, in the peer's order.
    private static func properties(_ kind: ScalarSensorKind) -> (presence: String, reading: [String]) {
        switch kind {
        case .light: ("HasAmbientLight", ["LightLevelUnit", "LightLevel"])
        case .proximity: ("HasProximity", ["ProximityNear"])
        case .compass: ("HasCompass", ["CompassHeading"])
        }
    }

    /// `PropertiesChanged` of `kind`'s object with what the getters read now, to `destination` only when given.
    private func send(_ kind: ScalarSensorKind, _ names: [String], to destination: ClientID? = nil) {
        let (path, name) = kind == .compass ? (SensorProxy.compassPath, SensorProxy.compassInterface) : (SensorProxy.path, SensorProxy.interface)
        service.propertiesChanged(names, at: path, interface: name, to: destination)
    }

    /// `net.hadess.SensorProxy.Compass` at its own path, as geoclue reads it.
    func compassInterface() -> Interface {
        Interface(
            name: SensorProxy.compassInterface,
            methods: [
                Method("ClaimCompass") { [unowned self] call in claim(.compass, by: call.sender); return .values([]) },
                Method("ReleaseCompass") { [unowned self] call in release(.compass, by: call.sender); return .values([]) },
            ],
            properties: [
                Property("HasCompass", type: "b") { [unowned self] in .bool(isPresent(.compass)) },
                Property("CompassHeading", type: "d") { [unowned self] in .double(compassHeading) },
            ])
    }

    private func stopExporting() {
        service.bus.objects.unregister(path: SensorProxy.path)
        service.bus.objects.unregister(path: SensorProxy.compassPath)
    }

    /// Properties of the main object changed, to be announced at the end of the batch.
    private func changed(_ names: String...) {
        guard !names.isEmpty else { return }
        service.propertiesChanged(names, at: SensorProxy.path, interface: SensorProxy.interface, to: nil)
    }

    /// Whether the source makes its poses up (the simulated sensor): its pose is always defined, and
    /// its tilt is the one its device orientation implies, as no raw reading stands behind a pose set by hand.
    private var posesMadeUp: Bool { service.sensorMakesPosesUp }

    /// Names what the policy's events change here: the orientation string with each rotation, and a
    /// made-up pose's tilt when a device change moves it from one tilt to another.
    package func follow(_ events: [PolicyEvent]) {
        for event in events {
            switch event {
            // Before the claim's first reading the orientation reads `undefined` whatever the rotation
            // (one from a saved pose to the first reading's): `readingArrived` names it then.
            case .willChange where accelerometerRead || posesMadeUp: changed("AccelerometerOrientation")
            case .deviceOrientationChanged(let from, let to) where posesMadeUp && Self.impliedTilt(from) != Self.impliedTilt(to):
                changed("AccelerometerTilt")
            default: break
            }
        }
    }

    /// The tilt a device orientation implies, for poses no reading stands behind.
    package static func impliedTilt(_ device: DeviceOrientation) -> AccelerometerTilt {
        switch device {
        case .unknown: .undefined
        case .faceUp: .faceUp
        case .faceDown: .faceDown
        default: .vertical
        }
    }

    /// `AccelerometerTilt`: the last reading's, or a made-up pose's.
    private var currentTilt: AccelerometerTilt { posesMadeUp ? Self.impliedTilt(service.deviceOrientation) : tilt }

    /// The accelerometer gave a reading (`tilt` when the reading's tilt is known): the orientation and
    /// tilt are defined from now on, and the claims waiting for it are answered.
    package func readingArrived(tilt newTilt: AccelerometerTilt? = nil) {
        var names: [String] = []
        if !accelerometerRead {
            accelerometerRead = true
            names.append("AccelerometerOrientation")
        }
        if let newTilt, newTilt != tilt {
            tilt = newTilt
            names.append("AccelerometerTilt")
        }
        if !names.isEmpty { service.propertiesChanged(names, at: SensorProxy.path, interface: SensorProxy.interface, to: nil) }
        answerWaitingClaims()
    }

    /// The accelerometer appeared or went away; gone, nothing is known of its pose until another gives a reading.
    package func accelerometerPresenceChanged() {
        if !service.hasAccelerometer {
            if accelerometerRead { changed("AccelerometerOrientation") }
            if tilt != .undefined { changed("AccelerometerTilt") }
            accelerometerRead = false
            tilt = .undefined
            answerWaitingClaims()
        }
        changed("HasAccelerometer")
    }

    /// Answers a claim once there is a reading, or at once when one is there already or there is no
    /// device to give one; a device that gives none within `firstReadingBoundMs` is answered anyway.
    private func answerWhenRead(_ call: MethodCall, _ reply: Reply) -> Reply {
        guard case .values = reply, service.hasAccelerometer, !accelerometerRead, !posesMadeUp else { return reply }
        waitingForReading.append(call)
        if readingBound == nil {
            readingBound = EventLoop.Timer(afterMs: Self.firstReadingBoundMs) { [unowned self] in
                readingBound = nil
                answerWaitingClaims()
            }
        }
        return .deferred
    }

    private func answerWaitingClaims() {
        readingBound?.cancel()
        readingBound = nil
        let calls = waitingForReading
        waitingForReading = []
        for call in calls { call.reply([]) }
    }

    /// `:1.7, pid 1234, iio-sensor-proxy` for the current owner of the name, as far as the bus tells.
    /// Blocking calls: used once, at start, on the refusal path only.
    private func ownerDescription() -> String {
        let bus = service.bus
        func ask(_ method: String, _ name: String) -> Value? {
            try? bus.callBusDriverBlocking(method, [.string(name)]).first
        }
        guard let owner = ask("GetNameOwner", SensorProxy.busName)?.stringValue else { return "owner unknown" }
        var parts = [owner]
        if let pid = ask("GetConnectionUnixProcessID", owner)?.uint32Value {
            parts.append("pid \(pid)")
            if let command = ProcessCalls.command(of: pid_t(pid)) { parts.append(command) }
        }
        return parts.joined(separator: ", ")
    }

    // MARK: The interface

    /// The string iio-sensor-proxy would report for the pose that produces `orientation`.
    /// The pose is the device orientation with the interface orientation's raw value (UIKit crosses
    /// the landscape names): interface landscape-right is the device's right edge up, `right-up`.
    package static func accelerometerOrientation(_ orientation: InterfaceOrientation) -> String {
        guard orientation != .portrait else { return "normal" }
        return DeviceOrientation(rawValue: orientation.rawValue)?.edgeUp.map { $0 + "-up" } ?? "undefined"
    }

    func interface() -> Interface {
        Interface(
            name: SensorProxy.interface,
            methods: [
                Method("ClaimAccelerometer") { [unowned self] call in
                    // Once per client; again if it has since ended every claim through the manager.
                    answerWhenRead(call, service.claimOrientations(call, first: claimants.insert(call.sender).inserted))
                },
                Method("ReleaseAccelerometer") { [unowned self] call in
                    service.releaseOrientations(call, held: claimants.remove(call.sender) != nil)
                },
                Method("ClaimLight") { [unowned self] call in claim(.light, by: call.sender); return .values([]) },
                Method("ReleaseLight") { [unowned self] call in release(.light, by: call.sender); return .values([]) },
                Method("ClaimProximity") { [unowned self] call in claim(.proximity, by: call.sender); return .values([]) },
                Method("ReleaseProximity") { [unowned self] call in release(.proximity, by: call.sender); return .values([]) },
            ],
            properties: [
                Property("HasAccelerometer", type: "b") { [unowned self] in .bool(service.hasAccelerometer) },
                Property("AccelerometerOrientation", type: "s") { [unowned self] in
                    .string(accelerometerRead || posesMadeUp ? Self.accelerometerOrientation(service.interfaceOrientation) : "undefined")
                },
                Property("AccelerometerTilt", type: "s") { [unowned self] in .string(currentTilt.rawValue) },
                Property("HasAmbientLight", type: "b") { [unowned self] in .bool(isPresent(.light)) },
                Property("LightLevelUnit", type: "s") { [unowned self] in .string(lightInLux ? "lux" : "vendor") },
                Property("LightLevel", type: "d") { [unowned self] in .double(lightLevel) },
                Property("HasProximity", type: "b") { [unowned self] in .bool(isPresent(.proximity)) },
                Property("ProximityNear", type: "b") { [unowned self] in .bool(proximityNear) },
            ])
    }
}

extension SensorProxyCompat {
    /// A sensor came or went: everyone hears of it, with its values when it came (as the peer does).
    package func scalarSensorPresenceChanged(_ kind: ScalarSensorKind) {
        let (presence, reading) = Self.properties(kind)
        send(kind, [presence] + (isPresent(kind) ? reading : []))
    }

    /// A reading that changes a value goes to the clients that claim the sensor, and to no one else.
    package func scalarSensor(_ kind: ScalarSensorKind, read reading: ScalarReading) {
        switch reading {
        case .light(let level, let lux):
            guard level != lightLevel || lux != lightInLux else { return }
            lightLevel = level
            lightInLux = lux
        case .proximity(let near):
            guard near != proximityNear else { return }
            proximityNear = near
        case .compass(let heading):
            guard heading != compassHeading else { return }
            compassHeading = heading
        }
        for client in scalarClaims[kind] ?? [] { send(kind, Self.properties(kind).reading, to: client) }
    }
}
