// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
@testable import Policy
import TestSupport
import XCTest

/// Random operations on the whole API, with the invariants checked after each one.
final class RandomizedPolicyTests: XCTestCase {
    struct Stats {
        var rotations = 0
        var successes = 0
        var maxControllers = 0
        var errors: [String: Int] = [:]
    }
    var stats = Stats()

    func testRandomOperationsKeepTheInvariants() {
        for seed: UInt64 in [1, 2, 0xC0FFEE, 20_260_101] {
            if let failure = runOnce(seed: seed, steps: 2500) {
                XCTFail(failure)
            }
        }
        // The walk must reach the interesting places, or it proves little.
        XCTAssertGreaterThan(stats.rotations, 20, "rotations")
        XCTAssertGreaterThan(stats.successes, 1000, "successful operations")
        XCTAssertGreaterThan(stats.maxControllers, 5, "controllers alive at once")
        for kind: PolicyError.Kind in [.invalidArgs, .accessDenied, .unknownObject, .limitsExceeded, .noCommonOrientation,
                                       .inUse, .alreadyPresenting, .cannotPop, .notGenerating, .notKeyWindow, .noSuggestion] {
            XCTAssertGreaterThan(stats.errors[kind.rawValue, default: 0], 0, "never refused with \(kind.rawValue): \(stats.errors)")
        }
    }

    /// Returns a description of the first broken invariant, with the seed and step to replay it.
    func runOnce(seed: UInt64, steps: Int) -> String? {
        var rng = SplitMix64(seed: seed)
        let idiom: Idiom = seed % 2 == 0 ? .phone : .tablet
        let policy = Policy(configuration: PolicyConfiguration(idiom: idiom, limits: Limits(windows: 3, controllers: 10, depth: 5, windowsPerUser: 5, controllersPerUser: 16, totalWindows: 8, totalControllers: 28)))
        // Four client slots; a client that leaves comes back under a new name. Two users share them,
        // so the per-user and total limits are reached too.
        var clients: [ClientID] = (0..<4).map { ":1.\($0)" }
        var departed: Set<ClientID> = []
        var generation = 4
        // What the events say, to check their order.
        var shownOrientation = policy.interfaceOrientation
        var shownDevice = policy.deviceOrientation
        var pendingFromEvents: Transition? = nil

        func randomMask() -> UInt32 {
            switch rng.below(10) {
            case 0: return 0
            case 1: return rng.pick([1, 32, 33, 64, UInt32.max, 31])
            default: return UInt32(rng.below(16)) << 1
            }
        }
        func randomWindow() -> WindowID { WindowID(rawValue: UInt64(rng.below(Int(policy.nextWindow) + 2))) }
        func randomController() -> ControllerID {
            let ids = policy.controllerIDs
            if !ids.isEmpty, rng.chance(80) { return rng.pick(ids) }
            return ControllerID(rawValue: UInt64(rng.below(Int(policy.nextController) + 2)))
        }
        func randomClient() -> ClientID { rng.chance(95) ? rng.pick(clients) : ":9.99" }
        /// A few processes, each behind any client, so one process may hold several connections.
        func randomProcess() -> UInt32 { rng.chance(5) ? 0 : rng.pick([1001, 1002, 1003]) }
        func owner(of c: ControllerID) -> ClientID { policy.controller(c)?.owner ?? randomClient() }
        /// Usually the owner, sometimes anybody.
        func callerFor(_ c: ControllerID) -> ClientID { rng.chance(85) ? owner(of: c) : randomClient() }
        func callerFor(_ w: WindowID) -> ClientID { rng.chance(85) ? (policy.window(w)?.owner ?? randomClient()) : randomClient() }

        for step in 0..<steps {
            _ = policy.takeChanges()
            let before = Snapshot(policy)
            let readableBefore = Readable(policy)
            var name = ""
            var thrown: PolicyError?
            var lockedBefore = policy.rotationLocked
            let deviceBefore = policy.deviceOrientation
            let heldBefore = policy.touchHold
            let awaitingBefore = policy.awaitingFreshPose
            do {
                switch rng.below(28) {
                case 0:
                    let client = randomClient(), process = randomProcess()
                    name = "registerWindow(\(client), process: \(process))"
                    _ = try policy.registerWindow(client: client, user: userOf(client) % 2, process: process)
                case 1, 2:
                    let kind = rng.pick(["view", "view", "navigation", "tab", "split", ""])
                    let client = randomClient()
                    name = "createController(\(kind), \(client))"
                    _ = try policy.createController(kind: kind, client: client, user: userOf(client) % 2)
                case 3:
                    let w = randomWindow()
                    let caller: ClientID? = rng.chance(20) ? nil : callerFor(w)
                    let mayTake = rng.chance(50)
                    name = "makeKeyAndVisible(\(w), \(String(describing: caller)), mayTakeKeyWindow: \(mayTake))"
                    try policy.makeKeyAndVisible(w, caller: caller, mayTakeKeyWindow: mayTake)
                case 4:
                    let w = randomWindow(), mask = randomMask()
                    name = "setDelegateMask(\(w), \(mask))"
                    try policy.setDelegateMask(w, mask, caller: callerFor(w))
                case 5:
                    let w = randomWindow()
                    let c: ControllerID? = rng.chance(15) ? nil : randomController()
                    name = "setRootController(\(w), \(String(describing: c)))"
                    try policy.setRootController(w, c, caller: callerFor(w))
                case 6:
                    let w = rng.chance(70) ? (policy.keyWindow ?? randomWindow()) : randomWindow()
                    let mask = randomMask()
                    name = "requestGeometryUpdate(\(w), \(mask))"
                    try policy.requestGeometryUpdate(w, mask, caller: callerFor(w))
                case 7:
                    let w = randomWindow()
                    name = "closeWindow(\(w))"
                    try policy.closeWindow(w, caller: callerFor(w))
                case 8:
                    let c = randomController(), mask = randomMask()
                    name = "setSupportedMask(\(c), \(mask))"
                    try policy.setSupportedMask(c, mask, caller: callerFor(c))
                case 9:
                    let c = randomController(), value = rng.chance(50)
                    name = "setShouldAutorotate(\(c), \(value))"
                    try policy.setShouldAutorotate(c, value, caller: callerFor(c))
                case 10:
                    let c = randomController(), value = UInt32(rng.below(6))
                    name = "setPreferredOrientation(\(c), \(value))"
                    try policy.setPreferredOrientation(c, value, caller: callerFor(c))
                case 11:
                    let c = randomController(), value = rng.chance(50)
                    name = "setForwardsToChild(\(c), \(value))"
                    try policy.setForwardsToChild(c, value, caller: callerFor(c))
                case 12:
                    let c = randomController(), index = UInt32(rng.below(4))
                    name = "setSelectedIndex(\(c), \(index))"
                    try policy.setSelectedIndex(c, index, caller: callerFor(c))
                case 13, 14:
                    let nav = randomController(), child = randomController()
                    name = "push(\(child), onto: \(nav))"
                    try policy.push(child, onto: nav, caller: callerFor(nav))
                case 15:
                    let nav = randomController()
                    name = "pop(\(nav))"
                    _ = try policy.pop(nav, caller: callerFor(nav))
                case 16:
                    let c = randomController()
                    let list = (0..<rng.below(4)).map { _ in randomController() }
                    name = "setViewControllers(\(c), \(list))"
                    try policy.setViewControllers(c, list, caller: callerFor(c))
                case 17, 18:
                    let presenter = randomController(), presented = randomController()
                    name = "present(\(presented), from: \(presenter))"
                    try policy.present(presented, from: presenter, caller: callerFor(presenter))
                case 19:
                    let c = randomController()
                    name = "dismiss(\(c))"
                    try policy.dismiss(c, caller: callerFor(c))
                case 20:
                    let c = randomController()
                    name = "destroy(\(c))"
                    try policy.destroy(c, caller: callerFor(c))
                case 21:
                    let client = randomClient()
                    if rng.chance(50) {
                        name = "beginGenerating(\(client))"
                        policy.beginGenerating(client: client)
                    } else {
                        name = "endGenerating(\(client))"
                        try policy.endGenerating(client: client)
                    }
                case 22:
                    let d = DeviceOrientation(rawValue: UInt32(rng.below(7)))!
                    name = "sensorReported(\(d))"
                    policy.sensorReported(d)
                case 23:
                    let raw = UInt32(rng.below(8))
                    name = "setDeviceOrientation(\(raw))"
                    try policy.setDeviceOrientation(raw)
                case 24:
                    switch rng.below(12) {
                    case 10, 11:
                        let held = rng.chance(60)
                        name = "setTouchHold(\(held))"
                        policy.setTouchHold(held)
                    case 0...3:
                        name = "attemptRotation"
                        policy.attemptRotation()
                    case 4...6:
                        let value = rng.chance(40)
                        name = "setRotationLocked(\(value))"
                        lockedBefore = policy.rotationLocked
                        policy.setRotationLocked(value)
                    case 7:
                        let posture = rng.pick(Posture.allCases), angle = Double(rng.below(400)) - 20
                        name = "setPosture(\(posture), \(angle))"
                        policy.setPosture(posture, hingeAngle: angle)
                    case 8:
                        name = "acceptSuggestion"
                        try policy.acceptSuggestion()
                    default:
                        name = "suggestionExpired"
                        policy.suggestionExpired()
                    }
                case 25:
                    let mask = randomMask()
                    name = "setApplicationMask(\(mask))"
                    try policy.setApplicationMask(mask)
                case 26:
                    let process = rng.chance(15) ? 0 : randomProcess(), authority = randomClient()
                    name = "setFocusedProcess(\(process), authority: \(authority))"
                    policy.setFocusedProcess(process, authority: authority)
                default:
                    if rng.chance(8) {
                        let slot = rng.below(clients.count)
                        let client = clients[slot]
                        name = "clientLeft(\(client))"
                        policy.clientLeft(client)
                        departed.insert(client)
                        clients[slot] = ":1.\(generation)"
                        generation += 1
                    } else {
                        name = "completeTransition"
                        policy.completeTransition()
                    }
                }
            } catch {
                thrown = error
            }

            let changes = policy.takeChanges()
            if let thrown { stats.errors[thrown.kind.rawValue, default: 0] += 1 } else { stats.successes += 1 }
            stats.rotations += changes.events.filter { if case .willChange = $0 { true } else { false } }.count
            stats.maxControllers = max(stats.maxControllers, policy.controllerIDs.count)
            var problems: [String] = []
            if let thrown {
                let after = Snapshot(policy)
                if after != before { problems.append("\(thrown) changed the state:\n\(after.difference(from: before))") }
                if !changes.isEmpty { problems.append("\(thrown) announced \(changes)") }
                if thrown.message.isEmpty { problems.append("empty message") }
            }
            // Events: device changes are real changes; rotations never overlap; each DidChange ends the WillChange before it.
            for event in changes.events {
                switch event {
                case .deviceOrientationChanged(let from, let d):
                    if d == shownDevice { problems.append("device signal without a change: \(d)") }
                    if from != shownDevice { problems.append("device change from \(from), but the device read \(shownDevice)") }
                    shownDevice = d
                case .willChange(let from, let to):
                    if pendingFromEvents != nil { problems.append("WillChange(\(from), \(to)) during a transition") }
                    if from != shownOrientation || from == to || to == .unknown {
                        problems.append("WillChange(\(from), \(to)) but the orientation was \(shownOrientation)")
                    }
                    pendingFromEvents = Transition(from: from, to: to)
                    shownOrientation = to
                case .didChange(let from, let to):
                    if pendingFromEvents != Transition(from: from, to: to) {
                        problems.append("DidChange(\(from), \(to)) does not end \(String(describing: pendingFromEvents))")
                    }
                    pendingFromEvents = nil
                default: break
                }
            }
            // Exactly the properties that read differently are named, per object (PropertiesChanged on every object).
            if thrown == nil {
                let readableAfter = Readable(policy)
                func check(_ what: String, _ before: [String: String], _ after: [String: String], _ named: [String]) {
                    let differing = after.keys.filter { before[$0] != after[$0] }.sorted()
                    if differing != named.sorted() {
                        problems.append("\(what): \(differing) read differently but \(named.sorted()) were named; "
                            + "before \(before), after \(after)")
                    }
                }
                check("manager", readableBefore.manager, readableAfter.manager, changes.manager.names)
                for (id, after) in readableAfter.windows {
                    guard let before = readableBefore.windows[id] else { continue }
                    check("\(id)", before, after, changes.windows[id]?.names ?? [])
                }
                for (id, after) in readableAfter.controllers {
                    guard let before = readableBefore.controllers[id] else { continue }
                    check("\(id)", before, after, changes.controllers[id]?.names ?? [])
                }
                for id in changes.windows.keys where readableAfter.windows[id] == nil { problems.append("\(id) is gone but named") }
                for id in changes.controllers.keys where readableAfter.controllers[id] == nil { problems.append("\(id) is gone but named") }
            }
            if shownDevice != policy.deviceOrientation { problems.append("DeviceOrientation changed silently") }
            if shownOrientation != policy.interfaceOrientation { problems.append("InterfaceOrientation changed silently") }
            if pendingFromEvents != policy.transition { problems.append("transition does not match the events") }
            // P11: while locked, reports do not move DeviceOrientation (claims may still gate it, and the
            // first pose after a claim began or the device went is the one the claim starts with).
            if lockedBefore, policy.rotationLocked, !awaitingBefore, name.hasPrefix("sensorReported") || name.hasPrefix("setDeviceOrientation"),
               policy.deviceOrientation != deviceBefore {
                problems.append("a report moved DeviceOrientation while locked")
            }
            // P20: during a hold a sensor report turns nothing and no suggestion is made.
            if heldBefore, policy.touchHold, name.hasPrefix("sensorReported"),
               changes.events.contains(where: { if case .willChange = $0 { true } else { false } }) {
                problems.append("a sensor report turned the screen during a touch hold")
            }
            if policy.touchHold, changes.events.contains(where: { if case .rotationSuggested = $0 { true } else { false } }) {
                problems.append("a suggestion was made during a touch hold")
            }
            problems += invariants(policy, departed: departed)
            if !problems.isEmpty {
                return "seed \(seed) step \(step) \(name): " + problems.joined(separator: "; ") + "\nstate:\n\(Snapshot(policy))"
            }
        }
        return nil
    }

    func invariants(_ p: Policy, departed: Set<ClientID>) -> [String] {
        var problems: [String] = []
        let limits = p.configuration.limits
        if p.interfaceOrientation == .unknown { problems.append("interface orientation unknown") }
        if p.totalClaims == 0, p.deviceOrientation != .unknown { problems.append("device reads \(p.deviceOrientation) unclaimed") }
        if p.totalClaims != p.claims.values.reduce(0, +) { problems.append("totalClaims \(p.totalClaims) ≠ sum of claims") }
        if p.claims.values.contains(where: { $0 <= 0 }) { problems.append("a zero claim count is stored") }
        // P19: a suggestion stands only while locked, where the interface could turn, in a posture that turns the screen.
        if p.suggestedOrientation != .unknown {
            if !p.rotationLocked { problems.append("suggestion \(p.suggestedOrientation) while unlocked") }
            if !p.postureTurnsScreen { problems.append("suggestion in \(p.posture) posture") }
            if p.suggestedOrientation == p.interfaceOrientation { problems.append("suggestion of the current orientation") }
            if !p.supportedMask.contains(p.suggestedOrientation) { problems.append("suggestion outside the mask in force") }
        }
        if p.hingeAngle < 0 && p.hingeAngle != -1 { problems.append("hinge angle \(p.hingeAngle)") }
        if p.transition == nil, !p.supportedMask.contains(p.interfaceOrientation) {
            problems.append("\(p.interfaceOrientation) outside the mask in force \(p.supportedMask)")
        }
        if p.transition == nil, !p.deferred.isEmpty { problems.append("decisions deferred with no transition") }
        // P6, and P6f under a focus authority.
        if p.focusAuthority == nil {
            if p.focusedProcess != 0 { problems.append("focused \(p.focusedProcess) with no authority") }
            if p.windowIDs.isEmpty != (p.keyWindow == nil) {
                problems.append("key window \(String(describing: p.keyWindow)) with windows \(p.windowIDs)")
            }
        } else if p.keyWindow != p.focusTarget {
            problems.append("P6f: key window \(String(describing: p.keyWindow)) while \(p.focusedProcess) is focused, "
                + "not its window \(String(describing: p.focusTarget))")
        }
        if let key = p.keyWindow, p.focusAuthority != nil, p.window(key)?.process != p.focusedProcess {
            problems.append("P6f: key window \(key) is not the focused process's")
        }
        if let authority = p.focusAuthority, departed.contains(authority) { problems.append("departed \(authority) is the authority") }
        if let key = p.keyWindow, p.window(key) == nil { problems.append("key window \(key) does not exist") }
        if p.keyWindow == nil, p.supportedMask != p.applicationMask { problems.append("P7: mask in force is not the application mask") }

        // Where each controller stands, found by scanning every object.
        var places: [ControllerID: [String]] = [:]
        var perOwner: [ClientID: (windows: Int, controllers: Int)] = [:]
        for id in p.windowIDs {
            let w = p.window(id)!
            perOwner[w.owner, default: (0, 0)].windows += 1
            if departed.contains(w.owner) { problems.append("\(id) owned by departed \(w.owner)") }
            let windowMask = p.supportedMask(of: id)
            if windowMask.isEmpty || !windowMask.isValid { problems.append("\(id) mask \(windowMask)") }
            if p.effectiveMask(of: id).isEmpty { problems.append("\(id) effective mask empty") }
            if let root = w.rootController {
                places[root, default: []].append("root of \(id)")
                guard let c = p.controller(root) else { problems.append("\(id) root \(root) missing"); continue }
                if c.rootOf != id { problems.append("\(root).rootOf ≠ \(id)") }
                if c.owner != w.owner { problems.append("\(root) owned apart from \(id)") }
                // P5: every controller in the hierarchy shares an orientation with the window mask.
                for member in p.subtree(of: root) {
                    if let m = p.controller(member), m.supportedMask.isDisjoint(with: windowMask) {
                        problems.append("P5: \(member) \(m.supportedMask) shares nothing with \(id) \(windowMask)")
                    }
                }
            }
            if let deciding = p.decidingController(of: id), p.window(containing: deciding) != id {
                problems.append("deciding \(deciding) not in \(id)")
            }
        }
        for id in p.controllerIDs {
            let c = p.controller(id)!
            perOwner[c.owner, default: (0, 0)].controllers += 1
            if departed.contains(c.owner) { problems.append("\(id) owned by departed \(c.owner)") }
            if !c.supportedMask.isValid { problems.append("\(id) mask \(c.supportedMask)") }
            if c.kind == .view, !c.children.isEmpty { problems.append("view \(id) has children") }
            if c.kind == .tab, !(Int(c.selectedIndex) < c.children.count || (c.selectedIndex == 0 && c.children.isEmpty)) {
                problems.append("\(id) selects \(c.selectedIndex) of \(c.children.count)")
            }
            for child in c.children {
                places[child, default: []].append("child of \(id)")
                guard let k = p.controller(child) else { problems.append("\(id) child \(child) missing"); continue }
                if k.parent != id { problems.append("\(child).parent ≠ \(id)") }
                if k.owner != c.owner { problems.append("\(child) owned apart from \(id)") }
            }
            if let presented = c.presented {
                places[presented, default: []].append("presented by \(id)")
                guard let k = p.controller(presented) else { problems.append("\(id) presents missing \(presented)"); continue }
                if k.presenting != id { problems.append("\(presented).presenting ≠ \(id)") }
                if k.owner != c.owner { problems.append("\(presented) owned apart from \(id)") }
            }
            // Back-links point at something that holds it.
            if let parent = c.parent, p.controller(parent)?.children.contains(id) != true { problems.append("\(id).parent dangling") }
            if let presenter = c.presenting, p.controller(presenter)?.presented != id { problems.append("\(id).presenting dangling") }
            if let w = c.rootOf, p.window(w)?.rootController != id { problems.append("\(id).rootOf dangling") }
            // No cycles: walking up ends within the number of controllers, within the depth limit.
            var level = 1
            var current = id
            while let up = p.controller(current)?.up {
                current = up
                level += 1
                if level > p.controllerIDs.count + 1 { problems.append("cycle above \(id)"); break }
            }
            if level > limits.depth { problems.append("\(id) stands \(level) deep, limit \(limits.depth)") }
        }
        for (id, list) in places where list.count > 1 { problems.append("\(id) stands in \(list.count) places: \(list)") }
        for (client, counts) in perOwner {
            if counts.windows > limits.windows || counts.controllers > limits.controllers {
                problems.append("\(client) owns \(counts), over the limits")
            }
            let book = p.owned[client]
            if book?.windows.count != counts.windows || book?.controllers.count != counts.controllers {
                problems.append("\(client) bookkeeping \(String(describing: book)) ≠ \(counts)")
            }
        }
        // The per-user books add up, and nothing exceeds a per-user or total limit.
        var perUser: [UserID: (windows: Int, controllers: Int)] = [:]
        for (_, book) in p.owned {
            perUser[book.user, default: (0, 0)].windows += book.windows.count
            perUser[book.user, default: (0, 0)].controllers += book.controllers.count
        }
        for (user, counts) in perUser where counts.windows + counts.controllers > 0 {
            let booked = p.perUser[user]
            if booked?.windows != counts.windows || booked?.controllers != counts.controllers {
                problems.append("uid \(user) bookkeeping \(String(describing: booked)) ≠ \(counts)")
            }
            if counts.windows > limits.windowsPerUser || counts.controllers > limits.controllersPerUser {
                problems.append("uid \(user) owns \(counts), over the per-user limits")
            }
        }
        for (user, booked) in p.perUser where perUser[user] == nil || booked.windows + booked.controllers == 0 {
            problems.append("uid \(user) keeps an entry \(booked) with nothing owned")
        }
        // The listings of the oldest objects agree with a full sort.
        for n in [1, 3, 1000] {
            if p.firstWindowIDs(n) != Array(p.windowIDs.prefix(n)) { problems.append("first \(n) windows listed wrongly") }
            if p.firstControllerIDs(n) != Array(p.controllerIDs.prefix(n)) { problems.append("first \(n) controllers listed wrongly") }
        }
        if p.windowCount != p.windowIDs.count || p.controllerCount != p.controllerIDs.count { problems.append("counts disagree") }
        if p.windowIDs.count > limits.totalWindows || p.controllerIDs.count > limits.totalControllers {
            problems.append("\(p.windowIDs.count) windows, \(p.controllerIDs.count) controllers: over the total limits")
        }
        return problems
    }
}

/// What clients can read, per object (D-Bus properties).
struct Readable {
    /// The manager's properties a change names, by their names on the bus (the orientations are
    /// announced by their events, so they are checked against the events instead).
    var manager: [String: String]
    var windows: [WindowID: [String: String]] = [:]
    var controllers: [ControllerID: [String: String]] = [:]

    init(_ p: Policy) {
        manager = ["SupportedMask": "\(p.supportedMask.rawValue)", "ApplicationMask": "\(p.applicationMask.rawValue)",
                   "RotationLocked": "\(p.rotationLocked)", "KeyWindow": String(describing: p.keyWindow),
                   "FocusedProcess": "\(p.focusedProcess)", "InterfaceLockedByApplication": "\(p.interfaceLockedByApplication)",
                   "Posture": p.posture.rawValue, "HingeAngle": "\(p.hingeAngle)",
                   "SuggestedOrientation": "\(p.suggestedOrientation.rawValue)", "TouchHold": "\(p.touchHold)"]
        for id in p.windowIDs {
            let w = p.window(id)!
            windows[id] = ["DelegateMask": "\(w.delegateMask.rawValue)", "RootController": String(describing: w.rootController),
                           "IsKey": "\(p.keyWindow == id)", "SupportedMask": "\(p.supportedMask(of: id).rawValue)",
                           "EffectiveMask": "\(p.effectiveMask(of: id).rawValue)",
                           "DecidingController": String(describing: p.decidingController(of: id)),
                           "KeyWhenFocused": "\(p.keyWhenFocused(id))"]
        }
        for id in p.controllerIDs {
            let c = p.controller(id)!
            controllers[id] = ["SupportedMask": "\(c.supportedMask.rawValue)", "ShouldAutorotate": "\(c.shouldAutorotate)",
                               "PreferredOrientation": "\(c.preferredOrientation)", "ForwardsToChild": "\(c.forwardsToChild)",
                               "ViewControllers": "\(c.children)", "SelectedIndex": "\(c.selectedIndex)",
                               "PresentedController": String(describing: c.presented),
                               "PresentingController": String(describing: c.presenting),
                               "Parent": String(describing: c.parent),
                               "PrefersOrientationLocked": "\(c.prefersOrientationLocked)"]
        }
    }
}
