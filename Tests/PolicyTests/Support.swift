// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
@testable import Policy
import XCTest

// Clients.
let A: ClientID = ":1.10"
let B: ClientID = ":1.20"
/// A client that watches focus, such as a compositor or a session helper (P6f).
let focusWatcher: ClientID = ":1.30"

/// The processes behind the clients, for the focus authority.
let pidA: UInt32 = 1010
let pidB: UInt32 = 1020

/// The process of a test client; 0 (unknown) for any other.
func process(of client: ClientID) -> UInt32 {
    switch client {
    case A: pidA
    case B: pidB
    default: 0
    }
}

/// Each test client connects as a uid of its own, taken from its unique name (`:1.10` → 10),
/// unless a test gives the user explicitly.
func userOf(_ client: ClientID) -> UserID { UserID(client.split(separator: ".").last ?? "") ?? 0 }

// Raw masks as written on the bus.
let mPortrait: UInt32 = 2
let mUpsideDown: UInt32 = 4
let mLandscapeRight: UInt32 = 8
let mLandscapeLeft: UInt32 = 16
let mLandscape: UInt32 = 24
let mAll: UInt32 = 30
let mAllButUpsideDown: UInt32 = 26

// Short names for orientations.
let P = InterfaceOrientation.portrait
let PUD = InterfaceOrientation.portraitUpsideDown
let LR = InterfaceOrientation.landscapeRight
let LL = InterfaceOrientation.landscapeLeft

/// A policy with helpers to build hierarchies, collecting the events it emits.
final class Fixture {
    let policy: Policy
    private(set) var log: [PolicyEvent] = []
    private var drained = 0

    init(_ configuration: PolicyConfiguration = PolicyConfiguration(), savedApplicationMask: OrientationMask? = nil,
         savedOrientation: InterfaceOrientation? = nil, rotationLocked: Bool = false) {
        policy = Policy(configuration: configuration, savedApplicationMask: savedApplicationMask,
                        savedOrientation: savedOrientation, rotationLocked: rotationLocked)
    }

    static func tablet() -> Fixture { Fixture(PolicyConfiguration(idiom: .tablet)) }

    /// Moves the policy's pending events into the log.
    /// A device change is logged without the orientation it came from, as `dev(_:)` writes it.
    func collect() {
        log += policy.takeChanges().events.map {
            if case .deviceOrientationChanged(_, let to) = $0 { dev(to) } else { $0 }
        }
    }

    /// The events since the last drain.
    func drain() -> [PolicyEvent] {
        collect()
        defer { drained = log.count }
        return Array(log[drained...])
    }

    /// Completes every transition, including those started by deferred decisions.
    func settle() {
        var guardCount = 0
        while policy.transition != nil, guardCount < 16 {
            policy.completeTransition()
            guardCount += 1
        }
        collect()
    }

    @discardableResult
    func window(_ client: ClientID = A, delegate: UInt32 = 0, root: ControllerID? = nil) throws -> WindowID {
        let w = try policy.registerWindow(client: client, user: userOf(client), process: process(of: client))
        if delegate != 0 { try policy.setDelegateMask(w, delegate, caller: client) }
        if let root { try policy.setRootController(w, root, caller: client) }
        return w
    }

    func vc(_ mask: UInt32 = 0, preferred: UInt32 = 0, autorotate: Bool = true, client: ClientID = A) throws -> ControllerID {
        let c = try policy.createController(kind: "view", client: client, user: userOf(client))
        if mask != 0 { try policy.setSupportedMask(c, mask, caller: client) }
        if preferred != 0 { try policy.setPreferredOrientation(c, preferred, caller: client) }
        if !autorotate { try policy.setShouldAutorotate(c, false, caller: client) }
        return c
    }

    func nav(_ children: [ControllerID], forwards: Bool = true, mask: UInt32 = 0, client: ClientID = A) throws -> ControllerID {
        let c = try policy.createController(kind: "navigation", client: client, user: userOf(client))
        if mask != 0 { try policy.setSupportedMask(c, mask, caller: client) }
        if !forwards { try policy.setForwardsToChild(c, false, caller: client) }
        if !children.isEmpty { try policy.setViewControllers(c, children, caller: client) }
        return c
    }

    func tab(_ children: [ControllerID], selected: UInt32 = 0, forwards: Bool = true, mask: UInt32 = 0,
             client: ClientID = A) throws -> ControllerID {
        let c = try policy.createController(kind: "tab", client: client, user: userOf(client))
        if mask != 0 { try policy.setSupportedMask(c, mask, caller: client) }
        if !forwards { try policy.setForwardsToChild(c, false, caller: client) }
        if !children.isEmpty { try policy.setViewControllers(c, children, caller: client) }
        if selected != 0 { try policy.setSelectedIndex(c, selected, caller: client) }
        return c
    }

    /// One claim, then the sensor reports `d` (settled).
    func claim(_ client: ClientID = A) { policy.beginGenerating(client: client) }

    func device(_ d: DeviceOrientation) { policy.sensorReported(d) }

    /// A named controller created during setup, for actions to find.
    var named: [String: ControllerID] = [:]
    var windowsNamed: [String: WindowID] = [:]
    subscript(_ name: String) -> ControllerID { named[name]! }
    func w(_ name: String) -> WindowID { windowsNamed[name]! }
}

/// Only the events that describe orientations: device changes and rotations.
func orientationEvents(_ events: [PolicyEvent]) -> [PolicyEvent] {
    events.filter {
        switch $0 {
        case .deviceOrientationChanged, .willChange, .didChange: true
        default: false
        }
    }
}

func will(_ a: InterfaceOrientation, _ b: InterfaceOrientation) -> PolicyEvent { .willChange(from: a, to: b) }
func did(_ a: InterfaceOrientation, _ b: InterfaceOrientation) -> PolicyEvent { .didChange(from: a, to: b) }
/// A device change as the fixture logs it: the orientation it came from is checked by the randomized tests.
func dev(_ d: DeviceOrientation) -> PolicyEvent { .deviceOrientationChanged(from: .unknown, to: d) }
/// One full rotation, as announced once completed.
func rotation(_ a: InterfaceOrientation, _ b: InterfaceOrientation) -> [PolicyEvent] { [will(a, b), did(a, b)] }

/// Everything a client could read (and the hidden bookkeeping), to prove a refused change changed nothing.
struct Snapshot: Equatable, CustomStringConvertible {
    let lines: [String]

    init(_ p: Policy) {
        var l: [String] = []
        l.append("manager io=\(p.interfaceOrientation) device=\(p.deviceOrientation) latest=\(p.latestReport) "
            + "override=\(String(describing: p.applicationMaskOverride)) forced=\(p.latestReportIsForced) fresh=\(p.awaitingFreshPose) "
            + "app=\(p.applicationMask.rawValue) locked=\(p.rotationLocked) key=\(String(describing: p.keyWindow)) "
            + "transition=\(String(describing: p.transition)) supported=\(p.supportedMask.rawValue) "
            + "total=\(p.totalClaims) deferred=\(p.deferred) next=\(p.nextWindow)/\(p.nextController) "
            + "authority=\(String(describing: p.focusAuthority)) focused=\(p.focusedProcess) clock=\(p.clock) "
            + "application=\(String(describing: p.focusedApplication)) declaration=\(p.focusedDeclaration) "
            + "overrides=\(p.applicationOverrides.map { "\($0.key)=\($0.value.rawValue)" }.sorted()) "
            + "posture=\(p.posture) hinge=\(p.hingeAngle) suggested=\(p.suggestedOrientation) "
            + "held=\(String(describing: p.heldDeviceOrientation))")
        for (client, count) in p.claims.sorted(by: { $0.key < $1.key }) { l.append("claims \(client)=\(count)") }
        for (client, o) in p.owned.sorted(by: { $0.key < $1.key }) {
            l.append("owned \(client) uid=\(o.user) windows=\(o.windows.sorted()) controllers=\(o.controllers.sorted())")
        }
        for (user, counts) in p.perUser.sorted(by: { $0.key < $1.key }) {
            l.append("uid \(user) windows=\(counts.windows) controllers=\(counts.controllers)")
        }
        for id in p.windowIDs {
            let w = p.window(id)!
            l.append("\(id) owner=\(w.owner) delegate=\(w.delegateMask.rawValue) root=\(String(describing: w.rootController)) "
                + "process=\(w.process) lastKey=\(String(describing: w.lastKey)) chosen=\(String(describing: w.chosen)) supported=\(p.supportedMask(of: id).rawValue) "
                + "effective=\(p.effectiveMask(of: id).rawValue) deciding=\(String(describing: p.decidingController(of: id)))")
        }
        for id in p.controllerIDs {
            let c = p.controller(id)!
            l.append("\(id) owner=\(c.owner) kind=\(c.kind) mask=\(c.supportedMask.rawValue) auto=\(c.shouldAutorotate) "
                + "preferred=\(c.preferredOrientation) forwards=\(c.forwardsToChild) children=\(c.children) "
                + "selected=\(c.selectedIndex) presented=\(String(describing: c.presented)) "
                + "presenting=\(String(describing: c.presenting)) parent=\(String(describing: c.parent)) "
                + "rootOf=\(String(describing: c.rootOf))")
        }
        lines = l
    }

    var description: String { lines.joined(separator: "\n") }

    /// The lines that differ, for a readable failure.
    func difference(from other: Snapshot) -> String {
        let a = Set(lines), b = Set(other.lines)
        return "before only:\n" + other.lines.filter { !a.contains($0) }.joined(separator: "\n")
            + "\nafter only:\n" + lines.filter { !b.contains($0) }.joined(separator: "\n")
    }
}

/// One row of a rule's table: build a state, do one thing, and say what must follow.
struct Scenario {
    var name: String
    var configuration = PolicyConfiguration()
    var setup: (Fixture) throws -> Void = { _ in }
    var action: (Fixture) throws -> Void
    /// The interface orientation once every transition is completed.
    var orientation: InterfaceOrientation? = nil
    /// The device and rotation events of the action (transitions completed), in order.
    var events: [PolicyEvent]? = nil
    /// The refusal expected; the state must then be unchanged and nothing announced.
    var error: PolicyError.Kind? = nil
    /// Anything else to check afterwards.
    var check: ((Fixture) throws -> Void)? = nil
}

extension XCTestCase {
    /// Runs every row; a failure names the rule's row.
    func run(_ rule: String, _ scenarios: [Scenario], file: StaticString = #filePath, line: UInt = #line) {
        for s in scenarios {
            let label = "\(rule) / \(s.name)"
            let f = Fixture(s.configuration)
            do { try s.setup(f) } catch {
                XCTFail("\(label): setup threw \(error)", file: file, line: line)
                continue
            }
            f.settle()
            _ = f.drain()
            let before = Snapshot(f.policy)
            var thrown: PolicyError?
            do { try s.action(f) } catch let error as PolicyError { thrown = error } catch {
                XCTFail("\(label): unexpected error \(error)", file: file, line: line)
            }
            if let kind = s.error {
                XCTAssertEqual(thrown?.kind, kind, "\(label): expected \(kind.rawValue), got \(String(describing: thrown))",
                               file: file, line: line)
                XCTAssertFalse(thrown?.message.isEmpty ?? true, "\(label): empty message", file: file, line: line)
                let after = Snapshot(f.policy)
                XCTAssertEqual(after, before, "\(label): a refused change changed the state\n\(after.difference(from: before))",
                               file: file, line: line)
                let changes = f.policy.takeChanges()
                XCTAssertTrue(changes.isEmpty, "\(label): a refused change announced \(changes)", file: file, line: line)
            } else if let thrown {
                XCTFail("\(label): unexpected refusal \(thrown)", file: file, line: line)
            }
            f.settle()
            let events = orientationEvents(f.drain())
            if let expected = s.events {
                XCTAssertEqual(events, expected, "\(label): events", file: file, line: line)
            }
            if let expected = s.orientation {
                XCTAssertEqual(f.policy.interfaceOrientation, expected, "\(label): orientation", file: file, line: line)
            }
            XCTAssertNil(f.policy.transition, "\(label): transition left pending", file: file, line: line)
            do { try s.check?(f) } catch { XCTFail("\(label): check threw \(error)", file: file, line: line) }
        }
    }

    /// Asserts that `body` is refused with `kind` and changes nothing.
    func assertRefused(_ kind: PolicyError.Kind, _ f: Fixture, _ what: String = "",
                       file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        f.collect()
        let before = Snapshot(f.policy)
        do {
            try body()
            XCTFail("\(what): expected \(kind.rawValue), nothing thrown", file: file, line: line)
        } catch let error as PolicyError {
            XCTAssertEqual(error.kind, kind, "\(what): \(error)", file: file, line: line)
        } catch {
            XCTFail("\(what): \(error)", file: file, line: line)
        }
        let after = Snapshot(f.policy)
        XCTAssertEqual(after, before, "\(what): state changed\n\(after.difference(from: before))", file: file, line: line)
        XCTAssertTrue(f.policy.takeChanges().isEmpty, "\(what): changes announced", file: file, line: line)
    }
}

extension Policy {
    /// `SetFocusedProcess` as the service makes it (P6f): no application focused, in `process`.
    func setFocusedProcess(_ process: UInt32, authority: ClientID) {
        setFocus(FocusReport(nil, process: process), authority: authority)
    }

    /// `SetFocusedApplication` without the window's state, as the service makes it.
    func setFocusedApplication(_ application: ApplicationID?, process: UInt32, desktopFile: OrientationMask?, authority: ClientID) {
        setFocus(FocusReport(application, process: process, desktopFile: desktopFile), authority: authority)
    }
}
