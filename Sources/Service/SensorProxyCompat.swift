import DBus
import Orientation
import OrientationAPI
import Policy
import Log

/// `net.hadess.SensorProxy` served by orientationd itself (`--sensor-proxy-compat`), so GNOME and KDE
/// rotate the screen as the policy decides; shells.md has what each member answers.
///
/// It lives on the daemon's one connection, so the `sensor-proxy` source is handed that connection's
/// unique name and never reads this object; with `--sensor sensor-proxy` it is not started at all.
/// A refusal (the name owned by another process, the bus saying no) is logged and never fatal.
final class SensorProxyCompat {
    unowned let service: OrientationService
    /// Clients holding an accelerometer claim made here (one each, as iio-sensor-proxy counts).
    private(set) var claimants: Set<ClientID> = []
    /// Properties whose values changed and are not announced yet, in the order they were named.
    private var changed: [String] = []

    init(service: OrientationService) { self.service = service }

    /// Why the compatibility interface did not start, in words for the log.
    struct Refusal: Error { let message: String }

    /// Exports the object, then takes the name; on refusal nothing stays exported.
    func start() throws(Refusal) {
        let bus = service.bus
        do {
            try bus.objects.register(path: SensorProxy.path, interfaces: [interface()])
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

    /// A client left the bus: its claim here is gone (the policy drops its count itself).
    func clientLeft(_ client: ClientID) {
        claimants.remove(client)
    }

    private func stopExporting() {
        service.bus.objects.unregister(path: SensorProxy.path)
    }

    /// Marks a property as changed, to be announced at the end of the turn's batch.
    func name(_ property: String) {
        if !changed.contains(property) { changed.append(property) }
    }

    /// Names what the policy's events change here: the orientation string with each rotation, the
    /// tilt when a device change moves it from one tilt to another.
    func follow(_ events: [PolicyEvent]) {
        for event in events {
            switch event {
            case .willChange: name("AccelerometerOrientation")
            case .deviceOrientationChanged(let from, let to) where Self.accelerometerTilt(from) != Self.accelerometerTilt(to):
                name("AccelerometerTilt")
            default: break
            }
        }
    }

    /// Sends `PropertiesChanged` for what was named, with what the getters read now.
    func announce() {
        guard !changed.isEmpty else { return }
        defer { changed = [] }
        do {
            try service.bus.objects.emitPropertiesChanged(path: SensorProxy.path, interface: SensorProxy.interface, names: changed)
        } catch {
            Log.error("cannot announce \(changed) on \(SensorProxy.path): \(error)")
        }
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
            let comm = (try? Service.readText("/proc/\(pid)/comm"))?.split(separator: "\n").first.map(String.init)
            if let comm, !comm.isEmpty { parts.append(comm) }
        }
        return parts.joined(separator: ", ")
    }

    // MARK: The interface

    /// The string iio-sensor-proxy would report for the pose that produces `orientation`.
    static func accelerometerOrientation(_ orientation: InterfaceOrientation) -> String {
        switch orientation {
        case .portrait: "normal"
        case .portraitUpsideDown: "bottom-up"
        case .landscapeRight: "right-up"  // device landscape-left: right edge up, reading (−g, 0, 0)
        case .landscapeLeft: "left-up"    // device landscape-right: left edge up, reading (+g, 0, 0)
        case .unknown: "undefined"
        }
    }

    /// Newer iio-sensor-proxy's `AccelerometerTilt` for a device orientation.
    static func accelerometerTilt(_ device: DeviceOrientation) -> String {
        switch device {
        case .unknown: "undefined"
        case .faceUp: "face-up"
        case .faceDown: "face-down"
        default: "vertical"
        }
    }

    func interface() -> Interface {
        let ok: (MethodCall) -> Reply = { _ in .values([]) }
        return Interface(
            name: SensorProxy.interface,
            methods: [
                Method("ClaimAccelerometer") { [unowned self] call in
                    service.perform(call) {
                        // Once per client; again if it has since ended every claim through the manager.
                        let policy = service.policy
                        if claimants.insert(call.sender).inserted || policy.claims(of: call.sender) == 0 {
                            policy.beginGenerating(client: call.sender)
                        }
                        return []
                    }
                },
                Method("ReleaseAccelerometer") { [unowned self] call in
                    service.perform(call) {
                        if claimants.remove(call.sender) != nil {
                            // Its count may already be 0 if it also ended claims through the manager.
                            try? service.policy.endGenerating(client: call.sender)
                        }
                        return []
                    }
                },
                Method("ClaimLight", ok),
                Method("ReleaseLight", ok),
                Method("ClaimProximity", ok),
                Method("ReleaseProximity", ok),
            ],
            properties: [
                Property("HasAccelerometer", type: "b") { [unowned self] in .bool(service.hasAccelerometer) },
                Property("AccelerometerOrientation", type: "s") { [unowned self] in
                    .string(Self.accelerometerOrientation(service.policy.interfaceOrientation))
                },
                Property("AccelerometerTilt", type: "s") { [unowned self] in
                    .string(Self.accelerometerTilt(service.policy.deviceOrientation))
                },
                Property("HasAmbientLight", type: "b", emits: .const) { .bool(false) },
                Property("LightLevelUnit", type: "s", emits: .const) { .string("lux") },
                Property("LightLevel", type: "d", emits: .const) { .double(0) },
                Property("HasProximity", type: "b", emits: .const) { .bool(false) },
                Property("ProximityNear", type: "b", emits: .const) { .bool(false) },
            ])
    }
}

extension OrientationService {
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
