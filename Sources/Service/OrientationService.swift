// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import CGLib
import DBus
import EventLoop
import Orientation
import OrientationAPI
import Policy
import Log
import SensorSources
import Sensors
import Applications
import Authorization
import Compat
import Configuration
import State
import SystemCalls

/// The policy on the bus: the manager, window and controller objects, their signals, the rotation
/// timer and claims; composed of the saved state (`State`), the settings (`Configuration`), privilege
/// and credentials (`Authorization`), desktop files (`Applications`) and the compatibility interface
/// (`Compat`), each a module of its own.
///
/// Every call runs one policy operation and then `flush()`, which hands the policy's changes to the
/// `Announcer` and sends the messages it makes.
public final class OrientationService {
    public let settings: Settings
    /// `[Posture]`'s hinge thresholds in force: the settings' until a reload changes them.
    var postureThresholds: PostureThresholds
    package let bus: any Bus
    package let policy: Policy
    let authorizer: Authorizer
    /// Each client's uid and process, for the per-user limits and the focus authority (P6f).
    let credentials: ClientCredentials
    let store: StateStore
    /// What applications' desktop files declare, read when an application is focused or asked about.
    let desktopFiles: DesktopFileDeclarations
    /// The user's own desktop files' declarations, sent by the session's reporter.
    let userDeclarations = UserDeclarations()
    /// The tables the manager, the windows and the controllers are exported with, built once.
    private(set) var tables: ExportedTables!
    /// Turns the policy's changes into messages; holds the property changes that wait for the turn's end.
    var announcer = Announcer()
    var transitionTimer: EventLoop.Timer?
    /// Ends the standing rotation suggestion after `[Lock] SuggestionSeconds` (P19).
    var suggestionTimer: EventLoop.Timer?
    var announcementScheduled = false
    var nameWatch: SignalSubscription?
    /// Gives the heap's free pages back once the bus has taken what a large departure announced.
    var trimTimer: EventLoop.Timer?
    /// Where device orientations come from; nil with `--sensor none`.
    var sensor: SensorSource?
    /// The convertible's posture source (P18), started and stopped with the claims as the sensor is.
    var postureSource: PostureSource?
    /// Whether a hand is on the screen (P20), started and stopped with the claims; nil with
    /// `[Classifier] TouchHoldMs=0` or without real sensors.
    var touchSource: TouchSource?
    /// Ends the touch hold `[Classifier] TouchHoldMs` after the last contact lifted (P20).
    var touchHoldTimer: EventLoop.Timer?
    /// Whether the display accelerometer's mount matrix looks wrong (`MountMatrixSuspect`).
    lazy var mountMatrixCheck = MountMatrixCheck { [unowned self] in
        announcer.name(managerProperty: "MountMatrixSuspect")
        flush()
    }
    /// The light, proximity and compass sensors, while the compatibility interface serves them.
    var scalarSensors: ScalarSensors?
    /// The device events every source follows.
    let deviceEvents = DeviceEvents()
    /// The classifier in front of the policy, for sources that read raw samples.
    var feed: SampleFeed?
    /// A client that left the bus while its objects' removal is announced: messages to it are not sent.
    var departed: ClientID?
    /// `net.hadess.SensorProxy` for desktop shells, when `--sensor-proxy-compat` is on and the name was free.
    var sensorProxyCompat: SensorProxyCompat?
    /// Whether the program's own pages are handed back to the kernel once idle (`ProgramPages`): after
    /// start and after the last claim ends. The daemon's process sets it; a service run inside another
    /// program (the tests) leaves that program's pages alone.
    public var pagesOutWhenIdle = false {
        didSet {
            // The advice is given by the loop's poll function, as it goes to sleep.
            if pagesOutWhenIdle, !oldValue { MainLoop.setPollFunction(ProgramPages.pollFunction) }
            pageOutWhenIdle()
        }
    }
    /// Whether `flush` runs; a report made while it does is announced by it, not by a flush of its own.
    private var flushing = false
    var isFlushing: Bool { flushing }
    /// What waits for the flush under way to send its batches (`whenFlushed`).
    private var afterFlush: [() -> Void] = []

    /// Builds the service on `connection`, restoring the saved state (P15).
    public init(settings: Settings, bus: any Bus) {
        self.settings = settings
        postureThresholds = settings.postureThresholds
        self.bus = bus
        store = StateStore(directory: settings.stateDirectory)
        let saved = store.load()
        policy = Policy(configuration: settings.policy, savedApplicationMask: saved?.applicationMask,
                        savedOrientation: saved?.interfaceOrientation, rotationLocked: saved?.rotationLocked ?? false,
                        savedApplicationOverrides: saved?.applicationOrientations ?? [:])
        desktopFiles = DesktopFileDeclarations(directories: settings.applicationDataDirs
            ?? DesktopFileDeclarations.defaultDirectories(xdgDataDirs: getenv("XDG_DATA_DIRS").map { String(cString: $0) }))
        credentials = ClientCredentials(bus: bus)
        authorizer = Authorizer(bus: bus, credentials: credentials, users: settings.privilegedUsers,
                                groups: settings.privilegedGroups, systemBus: settings.bus == .system)
    }

    /// Exports the manager, follows clients leaving, and takes the well-known name.
    /// Throws when the name is owned by someone else or the bus refuses.
    public func start() throws(DBusError) {
        // No call takes more objects than a client may own, nor a string longer than a name or path:
        // anything larger is refused while being read, before it costs memory.
        bus.objects.argumentLimits = ArgumentLimits(maxArrayElements: settings.policy.limits.controllers,
                                                           maxStringBytes: 4096)
        bus.objects.queueLimits = settings.queueLimits
        bus.objects.userOf = { [unowned self] client in credentials.knownUser(of: client) }
        tables = ExportedTables(manager: managerInterface(), window: windowInterface(), controller: controllerInterface(),
                                portraitSize: settings.portraitSize, owners: { [unowned self] object in
            switch object {
            case .manager, .exported: nil
            case .window(let id): policy.window(id)?.owner
            case .controller(let id): policy.controller(id)?.owner
            }
        }, exported: { [unowned self] path, interface in
            bus.objects.interfaces(at: path)?.first { $0.name == interface }
        })
        try bus.objects.register(path: Orientation1.managerPath, interfaces: [tables.manager, objectManagerInterface()])
        // Windows and controllers share one table per family; a member's number reaches its handlers.
        // Their folders list the oldest objects up to the server's bound, counted without a walk.
        try bus.objects.register(family: Orientation1.windowPathPrefix,
                                        count: { [unowned self] in policy.windowCount },
                                        list: { [unowned self] n in policy.firstWindowIDs(n).map { ObjectPaths.path(of: $0) } },
                                        key: { [unowned self] path in
            ObjectPaths.window(at: path).flatMap { policy.window($0) }.map(\.id.rawValue)
        }, interfaces: [tables.window])
        try bus.objects.register(family: Orientation1.controllerPathPrefix,
                                        count: { [unowned self] in policy.controllerCount },
                                        list: { [unowned self] n in policy.firstControllerIDs(n).map { ObjectPaths.path(of: $0) } },
                                        key: { [unowned self] path in
            ObjectPaths.controller(at: path).flatMap { policy.controller($0) }.map(\.id.rawValue)
        }, interfaces: [tables.controller])
        nameWatch = bus.watchNameOwnerChanged { [unowned self] name, _, newOwner in
            guard newOwner.isEmpty, name.hasPrefix(":") else { return }
            sensorProxyCompat?.clientLeft(name)
            credentials.forget(name)
            authorizer.clientLeft(name)
            guard policy.isKnown(name) else { return }
            Log.debug("\(name) left the bus; removing what it owned")
            let objects = policy.windowCount + policy.controllerCount
            policy.clientLeft(name)
            // What it owned is announced to it alone, and it is gone: nothing is sent.
            departed = name
            flush()
            departed = nil
            if objects - (policy.windowCount + policy.controllerCount) >= OrientationService.bulkRemoval { releaseMemory() }
        }
        guard try bus.requestName(Orientation1.busName, flags: .doNotQueue) else {
            throw DBusError.addressInUse("\(Orientation1.busName) is already owned on this bus; is another orientationd running?")
        }
        startSensorProxyCompat()
        store.begin(with: savedState)
        // Start-up's scratch memory (the config, the desktop files, the device scan) is free now but
        // lies below what stays: the heap gives its pages back only on a trim.
        malloc_trim(0)
    }

    /// How many objects a departing client must have owned for the daemon to give memory back.
    static let bulkRemoval = 256

    /// Gives back what a departure with many objects left unused: the tables' spare room, and the
    /// heap's free pages to the system (`malloc_trim`), so memory returns to its baseline instead
    /// of staying at its peak. The pages are given back once the signals announcing the departure
    /// (an `InterfacesRemoved` per object) have been written to the bus: until then they hold memory.
    func releaseMemory() {
        policy.releaseUnusedCapacity()
        trimWhenSent()
    }

    /// Trims the heap once nothing waits to be written, looking every 100 ms, for at most 5 s (a bus
    /// that stalls longer gets the trim anyway).
    private func trimWhenSent(tries: Int = 50) {
        guard trimTimer == nil else { return }
        trimTimer = EventLoop.Timer(afterMs: 100) { [unowned self] in
            trimTimer = nil
            guard !bus.hasMessagesToSend || tries <= 1 else { return trimWhenSent(tries: tries - 1) }
            malloc_trim(0)
        }
    }

    /// Whether an accelerometer is there now (`HasAccelerometer`).
    package var hasAccelerometer: Bool { sensor?.isPresent ?? false }

    /// Uses `source` for device orientations, started and stopped with the claims (P16).
    func attach(_ source: SensorSource, feed: SampleFeed?) {
        sensor = source
        self.feed = feed
        policy.sensorKeepsPoseWhileStopped = source.keepsPoseWhileStopped
        if policy.totalClaims > 0 { source.setRunning(true) }
    }

    /// Watches the device's posture (P18) while orientations are claimed.
    func attachPostureSource() {
        let source = PostureSource(thresholds: postureThresholds, display: feed, events: deviceEvents,
                                   pointerEvidence: settings.pointerEvidence && settings.policy.idiom != .phone, sink: self)
        postureSource = source
        if policy.totalClaims > 0 { source.setRunning(true) }
    }

    /// Watches the touchscreens (P20) while orientations are claimed.
    func attachTouchSource() {
        let source = TouchSource(stuckSeconds: settings.classifier.touchStuckSeconds, events: deviceEvents, sink: self)
        touchSource = source
        if policy.totalClaims > 0 { source.setRunning(true) }
    }

    /// A contact began (the hold begins, or goes on) or the last one lifted (the hold ends after
    /// `[Classifier] TouchHoldMs`, by a timer: the latest pose is acted on then, not at the next sample).
    func touched(_ on: Bool) {
        touchHoldTimer?.cancel()
        touchHoldTimer = nil
        if on || policy.totalClaims == 0 {
            policy.setTouchHold(on)
            return flush()
        }
        touchHoldTimer = EventLoop.Timer(afterMs: UInt32(settings.classifier.touchHoldMs.rounded(.up))) { [unowned self] in
            touchHoldTimer = nil
            policy.setTouchHold(false)
            flush()
        }
    }

    // MARK: Running operations

    /// Runs one policy operation for a method call, answers it, and announces what changed.
    package func perform(_ call: MethodCall, _ operation: () throws(PolicyError) -> [Value]) -> Reply {
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
            // for the write, the loop does not (dbus-api.md, "State directory").
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

    /// Announces the policy's changes, batch after batch: completing an instant rotation, or a source
    /// that reports while being started, changes more. Each batch is sent whole before the sensor is
    /// started or stopped; a report made meanwhile reaches the policy as every report does, and this
    /// flush announces it in its next batch: `flush` never runs inside itself (`flushing`), and what a
    /// report asks of the compatibility interface waits until the batches are sent (`whenFlushed`).
    /// Property changes no signal follows wait for the end of the turn (`scheduleAnnouncement`), so a
    /// client changing the same objects over and over in one turn costs one PropertiesChanged per object.
    func flush() {
        guard !flushing else { return }
        flushing = true
        while true {
            let changes = policy.takeChanges()
            guard !changes.isEmpty else { break }
            send(announcer.announce(changes, tables))
            sensorProxyCompat?.follow(changes.events)
            for event in changes.events { follow(event) }
            if policy.suggestedOrientation == .unknown, let timer = suggestionTimer {
                timer.cancel()
                suggestionTimer = nil
            }
            saveState()
            // With no duration, a rotation completes at once, and what waited for it is decided now.
            if settings.rotationDuration == 0, policy.transition != nil { policy.completeTransition() }
        }
        flushing = false
        scheduleAnnouncement()
        send(announcer.takeExported(tables))
        let after = afterFlush
        afterFlush = []
        for work in after { work() }
    }

    /// Runs `work` now, or once the flush under way has sent its batches.
    private func whenFlushed(_ work: @escaping () -> Void) {
        if flushing { afterFlush.append(work) } else { work() }
    }

    /// Pages out what the program no longer touches, what starting or a claim needed and idling does
    /// not, as the loop next goes to sleep for a second or more (`ProgramPages`), and again after the
    /// next two wake-ups (the claimant leaving the bus, a last call). No wake-up of its own: it is given
    /// on the way into the sleeps that follow the turn that made the daemon idle.
    func pageOutWhenIdle() {
        guard pagesOutWhenIdle else { return }
        let (count, bytes) = ProgramPages.given
        if let armed = ProgramPages.pageOutWhenAsleep() {
            Log.debug("idle: \(armed / 1024) KiB of the program's mappings go back to the kernel as the loop sleeps"
                      + (count > 0 ? " (page-outs so far: \(count), the last advised \((bytes ?? 0) / 1024) KiB)" : ""))
        }
    }

    /// What an event asks of the daemon besides its messages: the sensor, the rotation's timer, the log.
    private func follow(_ event: PolicyEvent) {
        switch event {
        case .sensorNeeded(let on):
            if on { ProgramPages.cancel() }
            sensor?.setRunning(on)
            postureSource?.setRunning(on)
            touchSource?.setRunning(on)
            if !on { pageOutWhenIdle() }
        case .willChange(let from, let to):
            Log.debug("rotating from \(from.name) to \(to.name)")
            scheduleCompletion()
        case .deviceOrientationChanged(_, let to): Log.debug("device orientation \(to.name)")
        case .rotationSuggested(let to):
            Log.debug("suggesting \(to.name) while rotation is locked")
            suggestionTimer?.cancel()
            suggestionTimer = EventLoop.Timer(afterMs: UInt32(settings.suggestionSeconds) * 1000) { [unowned self] in
                suggestionTimer = nil
                policy.suggestionExpired()
                flush()
            }
        default: break
        }
    }

    /// The time one turn of announcements may take; what is left waits for the next turn, so
    /// announcing thousands of objects never keeps other clients' calls waiting long.
    static let announcementBudgetMicroseconds = 2000

    private func scheduleAnnouncement() {
        guard announcer.hasPending, !announcementScheduled else { return }
        announcementScheduled = true
        // Weak: a service stopped in a process that goes on (tests) leaves nothing to announce.
        Idle.schedule { [weak self] in
            guard let self else { return }
            announcementScheduled = false
            announcePending(within: OrientationService.announcementBudgetMicroseconds)
            scheduleAnnouncement()
        }
    }

    /// Announces the property changes waiting, as many objects as fit in `budget` µs.
    func announcePending(within budget: Int) {
        let deadline = g_get_monotonic_time() + budget
        repeat {
            send(announcer.takePending(tables, limit: 64))
        } while announcer.hasPending && g_get_monotonic_time() < deadline
    }

    /// Sends the announcer's messages, in order.
    func send(_ announcements: [Announcement]) {
        for announcement in announcements {
            if let departed {
                switch announcement {
                case .properties(_, _, let owner?) where owner == departed: continue
                case .signal(_, _, _, let owner?) where owner == departed: continue
                default: break
                }
            }
            do {
                switch announcement {
                case .properties(let object, let values, let owner):
                    try bus.objects.emitPropertiesChanged(
                        path: object.path, PropertiesChanged(interface: object.interface, changed: values.map { ($0.name, $0.value) }),
                        to: owner)
                case .signal(let interface, let member, let values, let owner):
                    // Signals are the manager's: the objects outside the policy announce property changes only.
                    try bus.objects.emitSignal(path: Orientation1.managerPath, interface: interface, name: member, values: values,
                                               to: owner)
                }
            } catch {
                Log.error("cannot announce \(announcement): \(error)")
            }
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

    /// What survives a restart, as it is now.
    var savedState: SavedState {
        SavedState(rotationLocked: policy.rotationLocked, applicationMask: policy.applicationMaskOverride,
                   interfaceOrientation: policy.interfaceOrientation, applicationOrientations: policy.applicationOverrides)
    }

    func saveState() {
        store.save(savedState)
    }
}

extension OrientationService: SensorSink {
    /// What a source found: poses and presence to the policy, posture too; tilts, light, proximity and
    /// the compass to the compatibility interface.
    public func sensorReported(_ report: SensorReport) {
        switch report {
        case .orientation(let orientation):
            postureSource?.displayReported(orientation)
            mountMatrixCheck.observe(pose: orientation)
            policy.sensorReported(orientation)
            flush()
            if orientation != .unknown { whenFlushed { [weak self] in self?.sensorProxyCompat?.readingArrived() } }
        case .tilt(let tilt):
            whenFlushed { [weak self] in self?.sensorProxyCompat?.readingArrived(tilt: tilt) }
        case .accelerometerPresence:
            // A vanished device reads unknown, never a stale pose.
            if !hasAccelerometer { policy.sensorVanished() }
            sensorProxyCompat?.accelerometerPresenceChanged()
            announcer.name(managerProperty: "HasAccelerometer")
            flush()
        case .posture(let posture, let angle):
            if posture != policy.posture { Log.debug("posture \(posture.rawValue)") }
            policy.setPosture(posture, hingeAngle: angle)
            mountMatrixCheck.observe(posture: posture)
            flush()
        case .reading(let kind, let reading):
            sensorProxyCompat?.scalarSensor(kind, read: reading)
        case .presence(let kind):
            sensorProxyCompat?.scalarSensorPresenceChanged(kind)
        case .touch(let on):
            Log.debug(on ? "touched: the device does not turn the screen" : "touch lifted")
            touched(on)
        }
    }
}
