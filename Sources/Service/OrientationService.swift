@preconcurrency import Glibc
import CGLib
import DBus
import EventLoop
import Orientation
import OrientationAPI
import Policy
import Log
import SensorSources

/// The policy on the bus: the manager, window and controller objects, their signals,
/// the rotation timer, claims, privilege and the saved state.
///
/// Every call runs one policy operation and then `flush()`, which turns the
/// policy's ordered events and dirty objects into signals in the contract's order.
public final class OrientationService {
    let settings: Settings
    let connection: Connection
    let policy: Policy
    let authorizer: Authorizer
    /// Each client's uid and process, for the per-user limits and the focus authority (P6f).
    let credentials: ClientCredentials
    let store: StateStore
    /// The last values announced for each object, in the order of its table's announced properties,
    /// so only real changes are sent; an array, not a dictionary, because there may be thousands of objects.
    var announced: [String: [Value]] = [:]
    var transitionTimer: EventLoop.Timer?
    /// Objects whose properties may read differently and are not announced yet.
    var pending = PendingAnnouncements()
    var announcementScheduled = false
    /// `flush()` is under way.
    var flushing = false
    var nameWatch: SignalSubscription?
    /// Gives the heap's free pages back once the bus has taken what a large departure announced.
    var trimTimer: EventLoop.Timer?
    /// Where device orientations come from; nil with `--sensor none`.
    var sensor: SensorSource?
    /// The classifier in front of the policy, for sources that read raw samples.
    var feed: SampleFeed?
    /// `net.hadess.SensorProxy` for desktop shells, when `--sensor-proxy-compat` is on and the name was free.
    var sensorProxyCompat: SensorProxyCompat?

    /// Builds the service on `connection`, restoring the saved state (P15).
    public init(settings: Settings, connection: Connection) {
        self.settings = settings
        self.connection = connection
        store = StateStore(directory: settings.stateDirectory)
        let saved = store.load()
        policy = Policy(configuration: settings.policy, savedApplicationMask: saved?.applicationMask,
                        savedOrientation: saved?.interfaceOrientation, rotationLocked: saved?.rotationLocked ?? false)
        credentials = ClientCredentials(connection: connection)
        authorizer = Authorizer(connection: connection, credentials: credentials, users: settings.privilegedUsers,
                                groups: settings.privilegedGroups, systemBus: settings.bus == .system)
    }

    /// Exports the manager, follows clients leaving, and takes the well-known name.
    /// Throws when the name is owned by someone else or the bus refuses.
    public func start() throws(DBusError) {
        // No call takes more objects than a client may own, nor a string longer than a name or path:
        // anything larger is refused while being read, before it costs memory.
        connection.objects.argumentLimits = ArgumentLimits(maxArrayElements: settings.policy.limits.controllers,
                                                           maxStringBytes: 4096)
        connection.objects.queueLimits = settings.queueLimits
        connection.objects.userOf = { [unowned self] client in credentials.knownUser(of: client) }
        let manager = managerInterface()
        try connection.objects.register(path: Orientation1.managerPath, interfaces: [manager, objectManagerInterface()])
        remember(Orientation1.managerPath, manager)
        // Windows and controllers keep no table each: theirs are built when a message needs one.
        // Their folders list the oldest objects up to the server's bound, counted without a walk.
        connection.objects.register(family: Orientation1.windowPathPrefix,
                                    count: { [unowned self] in policy.windowCount },
                                    list: { [unowned self] n in policy.firstWindowIDs(n).map { ObjectPaths.path(of: $0) } },
                                    interfaces: { [unowned self] path in
            ObjectPaths.window(at: path).flatMap { policy.window($0) }.map { [windowInterface($0.id)] }
        })
        connection.objects.register(family: Orientation1.controllerPathPrefix,
                                    count: { [unowned self] in policy.controllerCount },
                                    list: { [unowned self] n in policy.firstControllerIDs(n).map { ObjectPaths.path(of: $0) } },
                                    interfaces: { [unowned self] path in
            ObjectPaths.controller(at: path).flatMap { policy.controller($0) }.map { [controllerInterface($0.id)] }
        })
        nameWatch = connection.watchNameOwnerChanged { [unowned self] name, _, newOwner in
            guard newOwner.isEmpty, name.hasPrefix(":") else { return }
            sensorProxyCompat?.clientLeft(name)
            credentials.forget(name)
            authorizer.clientLeft(name)
            guard policy.isKnown(name) else { return }
            Log.debug("\(name) left the bus; removing what it owned")
            let objects = policy.windowCount + policy.controllerCount
            policy.clientLeft(name)
            flush()
            if objects - (policy.windowCount + policy.controllerCount) >= OrientationService.bulkRemoval { releaseMemory() }
        }
        guard try connection.requestName(Orientation1.busName, flags: .doNotQueue) else {
            throw DBusError.addressInUse("\(Orientation1.busName) is already owned on this bus; is another orientationd running?")
        }
        startSensorProxyCompat()
        // A state file found unusable at start is replaced now, not at the first change.
        saveState()
    }

    /// How many objects a departing client must have owned for the daemon to give memory back.
    static let bulkRemoval = 256

    /// Gives back what a departure with many objects left unused: the tables' spare room, and the
    /// heap's free pages to the system (`malloc_trim`), so memory returns to its baseline instead
    /// of staying at its peak. The pages are given back once the signals announcing the departure
    /// (an `InterfacesRemoved` per object) have been written to the bus: until then they hold memory.
    func releaseMemory() {
        policy.releaseUnusedCapacity()
        if announced.count * 4 < announced.capacity {
            announced = Dictionary(uniqueKeysWithValues: announced.map { ($0.key, $0.value) })
        }
        trimWhenSent()
    }

    /// Trims the heap once nothing waits to be written, looking every 100 ms, for at most 5 s (a bus
    /// that stalls longer gets the trim anyway).
    private func trimWhenSent(tries: Int = 50) {
        guard trimTimer == nil else { return }
        trimTimer = EventLoop.Timer(afterMs: 100) { [unowned self] in
            trimTimer = nil
            guard !connection.hasMessagesToSend || tries <= 1 else { return trimWhenSent(tries: tries - 1) }
            malloc_trim(0)
        }
    }

    /// Whether an accelerometer is there now (`HasAccelerometer`).
    var hasAccelerometer: Bool { sensor?.isPresent ?? false }

    /// Uses `source` for device orientations, started and stopped with the claims (P16).
    func attach(_ source: SensorSource, feed: SampleFeed?) {
        sensor = source
        self.feed = feed
        policy.sensorKeepsPoseWhileStopped = source.keepsPoseWhileStopped
        if policy.totalClaims > 0 { source.setRunning(true) }
    }

    // MARK: Running operations

    /// Runs one policy operation for a method call, answers it, and announces what changed.
    func perform(_ call: MethodCall, _ operation: () throws(PolicyError) -> [Value]) -> Reply {
        do {
            let values = try operation()
            flush()
            return .values(values)
        } catch {
            Log.debug("refused \(call.message.member ?? "") from \(call.sender): \(error)")
            return .error(error.dbusError)
        }
    }

    /// As `perform`, for a property Set.
    func performSet(_ call: MethodCall, _ operation: () throws(PolicyError) -> Void) -> Property.SetResult {
        switch perform(call, { () throws(PolicyError) -> [Value] in try operation(); return [] }) {
        case .error(let error): .error(error)
        default: .done
        }
    }

    /// Runs `operation` once `call`'s sender is authorized for `action`, answering later.
    /// One client's privileged calls take effect in the order it sent them.
    func privileged(_ call: MethodCall, _ action: Authorizer.Action, what: String,
                    _ operation: @escaping () throws(PolicyError) -> [Value]) -> Reply {
        privileged(call, action, what: what) { [unowned self] in perform(call, operation) }
    }

    /// As `privileged`, for an operation that answers for itself, e.g. with an error that is not the policy's.
    func privileged(_ call: MethodCall, _ action: Authorizer.Action, what: String,
                    answering operation: @escaping () -> Reply) -> Reply {
        authorizer.authorize(call, action, what: what) { [unowned self] denial in
            if let denial { return call.fail(denial) }
            let reply = operation()
            guard case .values = reply else { return answer(call, reply) }
            // A change that survives a restart is acknowledged once it is on the disk: the caller waits
            // for the write, the loop does not (dbus-api.md, "Configuration file").
            store.save(savedState) { [unowned self] failure in
                guard let failure else { return answer(call, reply) }
                call.fail(.failed("\(what) took effect but could not be saved to \(store.path), so it will not survive a "
                    + "restart: \(failure)"))
            }
        }
        return .deferred
    }

    /// Runs `operation` with the caller's uid and process (for the per-user limits and P6f): at once
    /// when the bus has told them already, else once it answers.
    func withCredentials(of call: MethodCall, _ operation: @escaping (Credentials) throws(PolicyError) -> [Value]) -> Reply {
        credentials.credentials(of: call.sender) { [unowned self] caller in
            guard let caller else {
                return call.fail(.failed("the bus cannot tell who \(call.sender) is (its uid and process); has it left?"))
            }
            answer(call, perform(call) { () throws(PolicyError) in try operation(caller) })
        }
        return .deferred
    }

    /// Sends a deferred call's answer.
    func answer(_ call: MethodCall, _ reply: Reply) {
        switch reply {
        case .values(let values): call.reply(values)
        case .error(let error): call.fail(error)
        case .deferred: break
        }
    }

    /// As `privileged`, for a property Set.
    func privilegedSet(_ call: MethodCall, _ action: Authorizer.Action, what: String,
                       _ operation: @escaping () throws(PolicyError) -> Void) -> Property.SetResult {
        _ = privileged(call, action, what: what) { () throws(PolicyError) -> [Value] in try operation(); return [] }
        return .deferred
    }

    // MARK: Announcing

    /// Turns the policy's changes into signals in the contract's order (dbus-api.md), batch after batch:
    /// completing an instant rotation can change more. Property changes that no signal follows are
    /// announced once per turn of the main loop (`announcePending`), so a client changing the same
    /// objects over and over in one turn costs one PropertiesChanged per object whose value really
    /// changed, not one per call. A source that reports while being started (from
    /// `.sensorNeeded`) adds to the policy's changes; they are announced in the next batch, after the
    /// events before them.
    func flush() {
        guard !flushing else { return }
        flushing = true
        defer { flushing = false }
        while true {
            let changes = policy.takeChanges()
            guard !changes.isEmpty else { break }
            announce(changes)
            saveState()
            // With no duration, a rotation completes at once, and what waited for it is decided now.
            if settings.rotationDuration == 0, policy.transition != nil { policy.completeTransition() }
        }
        scheduleAnnouncement()
        announceSensorProxyCompat()
    }

    /// One batch: its marked objects join those pending, bookkeeping is done as its events come, and
    /// everything pending is announced before each signal, so no signal overtakes a property change.
    private func announce(_ changes: Changes) {
        pending.add(changes)
        for event in changes.events {
            if Self.hasSignal(event) { announcePending() }
            handle(event)
        }
    }

    /// Whether `event` is announced by a signal of its own.
    private static func hasSignal(_ event: PolicyEvent) -> Bool {
        switch event {
        case .deviceOrientationChanged, .willChange, .didChange: true
        case .windowAdded, .windowRemoved, .controllerAdded, .controllerRemoved, .sensorNeeded: false
        }
    }

    /// The time one turn of announcements may take; what is left waits for the next turn, so
    /// announcing thousands of objects never keeps other clients' calls waiting long.
    static let announcementBudgetMicroseconds = 2000

    private func scheduleAnnouncement() {
        guard !pending.isEmpty, !announcementScheduled else { return }
        announcementScheduled = true
        Idle.schedule { [unowned self] in
            announcementScheduled = false
            announcePending(within: OrientationService.announcementBudgetMicroseconds)
            scheduleAnnouncement()
        }
    }

    /// Announces the objects whose properties may have changed since they were last announced, with
    /// what their getters read now: all of them (before a signal, which must follow them), or as
    /// many as fit in `budget` µs.
    func announcePending(within budget: Int? = nil) {
        guard !pending.isEmpty else { return }
        let deadline = budget.map { g_get_monotonic_time() + $0 }
        func inTime() -> Bool { deadline.map { g_get_monotonic_time() < $0 } ?? true }
        if pending.manager {
            pending.manager = false
            announceChanges(at: Orientation1.managerPath)
        }
        let windows = Array(pending.windows)
        var done = 0
        while done < windows.count, inTime() { announceChanges(at: ObjectPaths.path(of: windows[done])); done += 1 }
        pending.windows = Set(windows[done...])
        let controllers = Array(pending.controllers)
        done = 0
        while done < controllers.count, inTime() { announceChanges(at: ObjectPaths.path(of: controllers[done])); done += 1 }
        pending.controllers = Set(controllers[done...])
    }

    /// What one event asks for: remembering or forgetting an object, the sensor, or its signals.
    private func handle(_ event: PolicyEvent) {
        switch event {
        case .windowAdded(let id):
            let table = windowInterface(id)
            remember(ObjectPaths.path(of: id), table)
            announceAdded(ObjectPaths.path(of: id), table)
        case .controllerAdded(let id):
            let table = controllerInterface(id)
            remember(ObjectPaths.path(of: id), table)
            announceAdded(ObjectPaths.path(of: id), table)
        case .windowRemoved(let id):
            announced[ObjectPaths.path(of: id)] = nil
            announceRemoved(ObjectPaths.path(of: id), Orientation1.windowInterface)
        case .controllerRemoved(let id):
            announced[ObjectPaths.path(of: id)] = nil
            announceRemoved(ObjectPaths.path(of: id), Orientation1.controllerInterface)
        case .sensorNeeded(let on): sensor?.setRunning(on)
        case .deviceOrientationChanged(let device):
            sendPropertiesChanged(Orientation1.managerPath, Orientation1.managerInterface,
                                  [("DeviceOrientation", .uint32(device.rawValue))])
            emit("DeviceOrientationDidChange", [.uint32(device.rawValue)])
            Log.debug("device orientation \(device.name)")
        case .willChange(let from, let to):
            emit("WillChange", [.uint32(from.rawValue), .uint32(to.rawValue)])
            // Only what changed: turning upside down, or with no screen size set, leaves the bounds as they were.
            let bounds = screenBounds(to)
            sendPropertiesChanged(Orientation1.managerPath, Orientation1.managerInterface,
                                  [("InterfaceOrientation", .uint32(to.rawValue))] + (bounds != screenBounds(from) ? [("ScreenBounds", bounds)] : []))
            Log.debug("rotating from \(from.name) to \(to.name)")
            scheduleCompletion()
        case .didChange(let from, let to):
            emit("DidChange", [.uint32(from.rawValue), .uint32(to.rawValue)])
        }
    }

    private func scheduleCompletion() {
        guard settings.rotationDuration > 0 else { return }
        transitionTimer?.cancel()
        transitionTimer = EventLoop.Timer(afterMs: Self.delayMs(settings.rotationDuration)) { [unowned self] in
            transitionTimer = nil
            policy.completeTransition()
            flush()
        }
    }

    /// The rotation timer's delay for `seconds`: whole milliseconds rounded up (after rounding away the
    /// binary fraction's noise, so 0.3 s is 300 ms), because DidChange must never come before
    /// RotationDuration has passed.
    static func delayMs(_ seconds: Double) -> UInt32 {
        let microseconds = (seconds * 1_000_000).rounded()
        return UInt32((microseconds / 1000).rounded(.up))
    }

    /// Properties the manager announces only through events, with the event's own values.
    static let eventProperties: Set<String> = ["DeviceOrientation", "InterfaceOrientation", "ScreenBounds"]

    /// Emits PropertiesChanged for the properties at `path` that differ from what was announced,
    /// reading them through the getters of the object's own table.
    func announceChanges(at path: String) {
        guard let interface = connection.objects.interfaces(at: path)?.first else { return }
        let properties = interface.properties.filter { $0.emits == .true }
        let old = announced[path] ?? []
        var new: [Value] = []
        var changed: [(String, Value)] = []
        for (index, property) in properties.enumerated() {
            let value = property.get()
            new.append(value)
            guard index >= old.count || old[index] != value else { continue }
            if path == Orientation1.managerPath && OrientationService.eventProperties.contains(property.name) { continue }
            changed.append((property.name, value))
        }
        announced[path] = new
        if !changed.isEmpty { sendPropertiesChanged(path, interface.name, changed, remember: false) }
    }

    /// Sends `PropertiesChanged` with explicit values, so an event's own value is what clients see.
    func sendPropertiesChanged(_ path: String, _ interface: String, _ values: [(String, Value)], remember: Bool = true) {
        if remember, let table = connection.objects.interfaces(at: path)?.first {
            let names = table.properties.filter { $0.emits == .true }.map(\.name)
            for (name, value) in values {
                if let index = names.firstIndex(of: name), index < announced[path]?.count ?? 0 { announced[path]?[index] = value }
            }
        }
        do {
            try connection.objects.emitPropertiesChanged(path: path, PropertiesChanged(interface: interface, changed: values))
        } catch {
            Log.error("cannot announce \(values.map(\.0)) on \(path): \(error)")
        }
    }

    func emit(_ signal: String, _ values: [Value]) {
        do {
            try connection.objects.emitSignal(path: Orientation1.managerPath, interface: Orientation1.managerInterface, name: signal, values: values)
        } catch {
            Log.error("cannot emit \(signal): \(error)")
        }
    }

    func screenBounds(_ orientation: InterfaceOrientation) -> Value {
        guard let size = settings.portraitSize else { return .structure([.uint32(0), .uint32(0)]) }
        return orientation.isLandscape
            ? .structure([.uint32(size.height), .uint32(size.width)])
            : .structure([.uint32(size.width), .uint32(size.height)])
    }

    /// What survives a restart, as it is now.
    var savedState: SavedState {
        SavedState(rotationLocked: policy.rotationLocked, applicationMask: policy.applicationMaskOverride,
                   interfaceOrientation: policy.interfaceOrientation)
    }

    func saveState() {
        store.save(savedState)
    }

    // MARK: Objects

    func register(path: String, interface: Interface) throws(DBusError) {
        try connection.objects.register(path: path, interfaces: [interface])
        remember(path, interface)
    }

    /// Takes the object's current values as announced: a new object's creation announces them.
    func remember(_ path: String, _ interface: Interface) {
        announced[path] = interface.properties.filter { $0.emits == .true }.map { $0.get() }
    }
}

extension OrientationService: SensorSink {
    /// A pose classified by the sensor source.
    public func sensorReported(_ orientation: DeviceOrientation) {
        policy.sensorReported(orientation)
        flush()
    }

    /// `HasAccelerometer` changed: announce it; a vanished device reads unknown, never a stale pose.
    public func sensorPresenceChanged() {
        if !hasAccelerometer { policy.sensorVanished() }
        announceChanges(at: Orientation1.managerPath)
        flush()
    }
}
