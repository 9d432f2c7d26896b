// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import DBus
import EventLoop
import Orientation
import OrientationAPI
import Log

/// The `sensor-proxy` source: device orientations from an upstream iio-sensor-proxy
/// (`net.hadess.SensorProxy`, on the system bus unless told otherwise); sensors.md,
/// "The `sensor-proxy` source", has the rules. It claims the proxy only while running, follows
/// the proxy leaving and returning, and never takes this process for the proxy: an owner among
/// `ownUniqueNames` (our other connections to that bus) or with our pid is ignored. Every call is
/// asynchronous; a connection that drops is made again.
public final class SensorProxySource: SensorSource {
    private var connection: Connection?
    private let bus: BusAddress
    private unowned let sink: SensorSink
    /// This process's other names on that bus, as given, and with the source's own.
    private let givenOwnNames: [String]
    private var ownUniqueNames: Set<String>
    private var subscription: SignalSubscription?
    private var reconnectTimer: EventLoop.Timer?
    private var reconnectDelayMs: UInt32 = 1000
    private var freshnessTimer: EventLoop.Timer?

    /// Where the source stands with the bus and the proxy.
    private enum State: Equatable {
        /// No connection: the first is being made, or (`again`) a new one after the bus went away.
        case connecting(again: Bool)
        /// Connected, and `net.hadess.SensorProxy` has no owner (or it is not known yet).
        case noOwner
        /// The name's owner is this process (the compatibility interface): never used.
        case ownedBySelf(String)
        /// An owner whose process is being checked and whose properties are being read.
        case reading(owner: String)
        /// An owner whose properties are known.
        case proxy(Proxy)
        /// `close()` was called: no reconnecting.
        case closed
    }

    /// A proxy as read, and where our claim on it stands.
    private struct Proxy: Equatable {
        let owner: String
        var hasAccelerometer = false
        var orientation = "undefined"
        var tilt: String?
        var claim = Claim.released
        /// The pose held is the device's now (see `freshnessMs`).
        var fresh = false
    }

    /// Our claim on a proxy. One call at a time: the proxy counts claims per client, so a Claim and a
    /// Release must never cross.
    private enum Claim: Equatable {
        case released
        case claiming
        case held
        case releasing
    }

    private var state: State

    /// Bumped on every owner change and lost connection, so replies about an earlier owner are ignored.
    private var generation = 0
    /// Whether the sink wants poses (`setRunning`).
    private var running = false
    /// The last orientation given to the sink while running; nil after (re)starting.
    private var reported: DeviceOrientation?

    /// The proxy, when its properties are known.
    private var proxy: Proxy? {
        if case .proxy(let p) = state { p } else { nil }
    }

    /// Changes the known proxy, when there is one.
    private func updateProxy(_ change: (inout Proxy) -> Void) {
        guard case .proxy(var p) = state else { return }
        change(&p)
        state = .proxy(p)
    }

    public var isPresent: Bool { proxy?.hasAccelerometer ?? false }

    /// Connects to `bus` and starts watching; throws when the bus cannot be reached now. Waits for
    /// the bus's answer, so only for the start, before anything is served. A connection that drops
    /// later is made again without blocking (see `disconnected()`).
    public convenience init(sink: SensorSink, ownUniqueNames: [String], bus: BusAddress = .system) throws(DBusError) {
        self.init(sink: sink, ownUniqueNames: ownUniqueNames, of: bus)
        watch(through: try Connection(bus: bus))
    }

    /// Connects to `bus` without blocking the loop and starts watching once connected; a bus that
    /// cannot be reached is tried again as after a dropped connection (1 s, backing off to 30 s).
    public convenience init(connectingLaterTo bus: BusAddress, sink: SensorSink, ownUniqueNames: [String]) {
        self.init(sink: sink, ownUniqueNames: ownUniqueNames, of: bus)
        reconnect()
    }

    private init(sink: SensorSink, ownUniqueNames: [String], of bus: BusAddress) {
        state = .connecting(again: false)
        self.sink = sink
        self.bus = bus
        givenOwnNames = ownUniqueNames
        self.ownUniqueNames = Set(ownUniqueNames)
    }

    /// Takes an opened connection, then watches the name's owner and the proxy's properties.
    private func watch(through connection: Connection) {
        self.connection = connection
        state = .noOwner
        ownUniqueNames = Set(givenOwnNames + [connection.uniqueName])
        connection.onDisconnected = { [weak self] in self?.disconnected() }
        subscription = connection.onSignal { [weak self] message in self?.handle(message) }
        // Match rules first: the bus handles our messages in order, so nothing between the
        // GetNameOwner answer and later owner changes is missed.
        let rules = [
            BusDriver.nameOwnerChangedRule(for: SensorProxy.busName),
            "type='signal',sender='\(SensorProxy.busName)',interface='\(StandardInterface.properties)',"
                + "member='PropertiesChanged',path='\(SensorProxy.path)',arg0='\(SensorProxy.interface)'",
        ]
        for rule in rules {
            connection.callBusDriver("AddMatch", [.string(rule)]) { result in
                if case .failure(let error) = result { Log.warning("sensor-proxy: cannot watch \(SensorProxy.busName): \(error)") }
            }
        }
        // An owner change seen before the answer is newer than the answer.
        let expected = generation
        connection.callBusDriver("GetNameOwner", [.string(SensorProxy.busName)]) { [weak self] result in
            guard let self, self.state == .noOwner, self.generation == expected else { return }
            if case .success(let values) = result, let unique = values.first?.stringValue {
                self.ownerChanged(to: unique)
            }
        }
    }

    deinit { close() }

    /// Releases any claim and closes the connection, for good.
    public func close() {
        let claimed = proxy.flatMap { $0.claim == .released ? nil : $0.owner }
        state = .closed
        reconnectTimer?.cancel()
        reconnectTimer = nil
        freshnessTimer?.cancel()
        freshnessTimer = nil
        guard let connection, connection.isConnected else { return }
        if let claimed { proxyCall(claimed, "ReleaseAccelerometer") { _ in } }
        if let subscription { connection.removeSignalHandler(subscription) }
        subscription = nil
        connection.flush()
        connection.close()
    }

    // MARK: SensorSource

    public func setRunning(_ running: Bool) {
        guard running != self.running else { return }
        self.running = running
        reported = nil
        forgetFreshness()
        reconcileClaim()
    }

    // MARK: Owner, properties and signals

    private func handle(_ message: Message) {
        if let change = BusDriver.nameOwnerChange(in: message) {
            if change.name == SensorProxy.busName { ownerChanged(to: change.newOwner) }
        } else if message.path == SensorProxy.path, let proxy, message.sender == proxy.owner,
                  let change = PropertiesChanged(message), change.interface == SensorProxy.interface {
            let changed = Dictionary(change.changed, uniquingKeysWith: { _, last in last })
            // The proxy announces a pose only when it has just classified one: it is the device's now.
            if changed["AccelerometerOrientation"] != nil || changed["AccelerometerTilt"] != nil { updateProxy { $0.fresh = true } }
            apply(changed)
            if !change.invalidated.isEmpty { readProperties() }
        }
    }

    /// A new owner (empty: none). Everything known about the old one is dropped.
    private func ownerChanged(to newOwner: String) {
        let wasPresent = isPresent
        if let old = proxy, old.claim == .held, !newOwner.isEmpty {
            // Replaced without leaving: give the old owner its claim back.
            proxyCall(old.owner, "ReleaseAccelerometer") { _ in }
        }
        generation += 1
        forgetFreshness()
        reported = nil
        if newOwner.isEmpty {
            state = .noOwner
        } else {
            state = ownUniqueNames.contains(newOwner) ? .ownedBySelf(newOwner) : .reading(owner: newOwner)
        }
        if wasPresent {
            Log.info("sensor-proxy: \(SensorProxy.busName) \(newOwner.isEmpty ? "left the bus" : "changed owner"); no accelerometer")
            sink.sensorReported(.accelerometerPresence)
        }
        guard case .reading(let owner) = state else { return }
        let expected = generation
        connection?.callBusDriver("GetConnectionUnixProcessID", [.string(owner)]) { [weak self] result in
            guard let self, self.generation == expected else { return }
            if case .success(let values) = result, let pid = values.first?.uint32Value, pid == UInt32(getpid()) {
                self.state = .ownedBySelf(owner)
                return
            }
            self.readProperties()
        }
    }

    /// Reads all of the proxy's properties (GetAll) for the current owner.
    private func readProperties() {
        let owner: String
        switch state {
        case .reading(let o): owner = o
        case .proxy(let p): owner = p.owner
        default: return
        }
        let expected = generation
        connection?.call(destination: owner, path: SensorProxy.path, interface: StandardInterface.properties,
                        method: "GetAll", values: [.string(SensorProxy.interface)]) { [weak self] result in
            guard let self, self.generation == expected else { return }
            switch result {
            case .success(let values):
                let properties = values.first?.stringKeyedDictionary ?? [:]
                let first = self.state == .reading(owner: owner)
                if first { self.state = .proxy(Proxy(owner: owner)) }
                self.apply(properties, announceAlways: first)
            case .failure(let error):
                Log.warning("sensor-proxy: cannot read \(SensorProxy.busName)'s properties: \(error)")
            }
        }
    }

    /// Takes in new property values: presence, claim and the reported orientation follow.
    private func apply(_ properties: [String: Value], announceAlways: Bool = false) {
        let wasPresent = isPresent
        updateProxy { p in
            if let has = properties["HasAccelerometer"]?.boolValue { p.hasAccelerometer = has }
            if let orientation = properties["AccelerometerOrientation"]?.stringValue { p.orientation = orientation }
            if let tilt = properties["AccelerometerTilt"]?.stringValue { p.tilt = tilt }
        }
        let owner = proxy?.owner
        if isPresent != wasPresent {
            if isPresent {
                Log.info("sensor-proxy: using the accelerometer of \(SensorProxy.busName) (\(owner ?? ""))")
            } else {
                Log.info("sensor-proxy: \(SensorProxy.busName) has no accelerometer")
            }
            reported = nil
            sink.sensorReported(.accelerometerPresence)
        } else if announceAlways && !isPresent {
            Log.info("sensor-proxy: \(SensorProxy.busName) (\(owner ?? "")) has no accelerometer")
        }
        reconcileClaim()
        report()
    }

    // MARK: Claim

    /// Claims while running with a proxy present, releases otherwise, one call at a time.
    private func reconcileClaim() {
        guard let p = proxy, p.claim == .released || p.claim == .held else { return }
        let wanted = running && p.hasAccelerometer
        guard wanted != (p.claim == .held) else { return }
        updateProxy { $0.claim = wanted ? .claiming : .releasing }
        let expected = generation
        let owner = p.owner
        proxyCall(owner, wanted ? "ClaimAccelerometer" : "ReleaseAccelerometer") { [weak self] result in
            guard let self else { return }
            guard self.generation == expected else {
                // The owner changed meanwhile; if it is still alive it gets its claim back.
                if wanted, case .success = result { self.proxyCall(owner, "ReleaseAccelerometer") { _ in } }
                return
            }
            switch result {
            case .success:
                self.updateProxy { $0.claim = wanted ? .held : .released }
                // Read the value now, changes follow by signal; it may predate the claim (P16).
                if wanted && self.running && self.isPresent {
                    self.awaitFreshPose()
                    self.readProperties()
                }
            case .failure(let error):
                Log.warning("sensor-proxy: \(wanted ? "ClaimAccelerometer" : "ReleaseAccelerometer") failed: \(error)")
                self.updateProxy { $0.claim = .released }
                // No retry loop: the next owner change or setRunning tries again.
                if wanted { return }
            }
            self.reconcileClaim()
        }
    }

    /// Gives the sink the current pose, while running with a claim held and once the pose is known
    /// to be the device's now.
    private func report() {
        guard running, let p = proxy, p.hasAccelerometer, p.claim == .held, p.fresh else { return }
        let orientation = Self.orientation(orientation: p.orientation, tilt: p.tilt)
        guard orientation != reported else { return }
        reported = orientation
        sink.sensorReported(.orientation(orientation))
    }

    /// The device orientation for the proxy's strings; a flat tilt wins over the edge.
    public static func orientation(orientation: String, tilt: String?) -> DeviceOrientation {
        switch tilt {
        case "face-up": return .faceUp
        case "face-down": return .faceDown
        default: break
        }
        switch orientation {
        case "normal": return .portrait
        case "bottom-up": return .portraitUpsideDown
        case "right-up": return .landscapeLeft
        case "left-up": return .landscapeRight
        default: return .unknown
        }
    }

    // MARK: Freshness (P16)

    /// iio-sensor-proxy keeps its last pose while nobody claims it and polls every 700 ms once claimed,
    /// so the value read right after a claim may be minutes old. It is taken as the device's only when
    /// the proxy announces a pose, or when a poll period has passed without one (it did not change).
    static let freshnessMs: UInt32 = 1000

    private func awaitFreshPose() {
        forgetFreshness()
        freshnessTimer = EventLoop.Timer(afterMs: Self.freshnessMs) { [weak self] in
            guard let self else { return }
            self.freshnessTimer = nil
            self.updateProxy { $0.fresh = true }
            self.report()
        }
    }

    private func forgetFreshness() {
        updateProxy { $0.fresh = false }
        freshnessTimer?.cancel()
        freshnessTimer = nil
    }

    // MARK: Connection

    /// The bus went away (a restarted dbus-daemon): nothing is known of the proxy any more, and the
    /// connection is made again, after 1 s, then backing off to every 30 s while the bus stays away.
    private func disconnected() {
        Log.warning("sensor-proxy: lost the connection to the bus of \(SensorProxy.busName); no accelerometer until it is back")
        let wasPresent = isPresent
        generation += 1
        forgetFreshness()
        state = .connecting(again: true)
        reported = nil
        subscription = nil
        connection = nil
        if wasPresent { sink.sensorReported(.accelerometerPresence) }
        reconnectDelayMs = 1000
        scheduleReconnect()
    }

    private func scheduleReconnect() {
        guard state != .closed else { return }
        reconnectTimer = EventLoop.Timer(afterMs: reconnectDelayMs) { [weak self] in
            guard let self else { return }
            self.reconnectTimer = nil
            self.reconnect()
        }
    }

    /// Opens the connection without blocking: a bus that accepts the socket and never answers
    /// must not stall the daemon's loop for the 25 s libdbus waits for `Hello`.
    private func reconnect() {
        Connection.open(bus: bus) { [weak self] result in
            switch result {
            case .success(let connection):
                guard let self, self.state != .closed else {
                    // Closed and released from the loop, not from inside libdbus' delivery of the answer.
                    Idle.schedule { connection.close() }
                    return
                }
                let again = self.state == .connecting(again: true)
                self.watch(through: connection)
                Log.info("sensor-proxy: connected \(again ? "again " : "")to the bus of \(SensorProxy.busName)")
            case .failure(let error):
                guard let self else { return }
                if self.reconnectDelayMs == 1000 { Log.warning("sensor-proxy: cannot connect yet (\(error)); trying again") }
                self.reconnectDelayMs = min(self.reconnectDelayMs * 2, 30_000)
                self.scheduleReconnect()
            }
        }
    }

    // MARK: Calls

    private func proxyCall(_ destination: String, _ method: String, completion: @escaping (Result<[Value], DBusError>) -> Void) {
        guard let connection else { return completion(.failure(DBusError.failed("not connected to the bus"))) }
        connection.call(destination: destination, path: SensorProxy.path, interface: SensorProxy.interface, method: method,
                        timeoutMs: 5000, completion: completion)
    }
}
