// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

// policy-benchmark: what one decision of the rotation policy costs.
//
// Run it optimized, never in debug:
//
//     swift run -c release policy-benchmark
//
// A decision is one operation that makes the policy re-decide, plus what the
// service does after it: the operation (a sensor report, a push or pop, a
// present or dismiss, a change of key window), `completeTransition()` for the
// rotation it started, and `takeChanges()`. Every scenario below is built so
// that each decision really rotates, except where a line says otherwise.
//
// Scenarios: one hierarchy at the default depth limit (64 controllers on one
// chain, either nested navigation controllers or a chain of presentations),
// and 1,008 windows (16 clients × 63 windows, under the 64-window limit per
// client, each window holding a small hierarchy).
//
// Each scenario runs in batches; a batch's time divided by its decisions is
// one sample, and the median and 95th percentile of the samples are printed.
// Target: a median of at most 10 µs per decision.

import Glibc
import Orientation
import Policy

// MARK: Measuring

/// Nanoseconds on the monotonic clock.
func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// One printed line: the scenario and its per-decision figures in µs.
struct Result {
    let name: String
    let median: Double
    let p95: Double
}

let decisionsPerBatch = 100
let batches = 400
let warmUpBatches = 20

/// Times `step`, which performs decision number `i`; an even number of decisions per batch keeps pairs together.
func measure(_ name: String, _ step: (Int) -> Void) -> Result {
    var i = 0
    for _ in 0..<(warmUpBatches * decisionsPerBatch) {
        step(i)
        i += 1
    }
    var samples: [Double] = []
    samples.reserveCapacity(batches)
    for _ in 0..<batches {
        let start = now()
        for _ in 0..<decisionsPerBatch {
            step(i)
            i += 1
        }
        let elapsed = now() - start
        samples.append(Double(elapsed) / 1_000 / Double(decisionsPerBatch))
    }
    samples.sort()
    let median = samples.count % 2 == 1
        ? samples[samples.count / 2]
        : (samples[samples.count / 2 - 1] + samples[samples.count / 2]) / 2
    let p95 = samples[Int((Double(samples.count) * 0.95).rounded(.up)) - 1]
    return Result(name: name, median: median, p95: p95)
}

/// `x` with two decimals, right-aligned in `width` characters.
func fixed(_ x: Double, width: Int) -> String {
    let hundredths = Int((x * 100).rounded())
    let fraction = hundredths % 100
    let text = "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    return String(repeating: " ", count: max(0, width - text.count)) + text
}

func padded(_ text: String, width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}

// MARK: Driving the policy

/// Every client connects as a uid of its own (`:1.101` → 101), so only the per-client and total limits apply.
func userOf(_ client: ClientID) -> UserID { UserID(client.split(separator: ".").last ?? "") ?? 0 }

/// Runs a setup step; a refusal means the scenario is wrong, so stop.
func must<T>(_ what: String, _ body: () throws -> T) -> T {
    do {
        return try body()
    } catch {
        fatalError("setup failed, \(what): \(error)")
    }
}

/// Asserts that `step` rotates every time, so that the figures are those of real rotations.
func checkRotates(_ policy: Policy, _ name: String, _ step: (Int) -> Void) {
    _ = policy.takeChanges()
    for i in 0..<4 {
        let before = policy.interfaceOrientation
        step(i)
        if policy.interfaceOrientation == before {
            fatalError("scenario '\(name)': decision \(i) did not rotate (still \(before.name))")
        }
    }
}

/// One decision: the operation, the end of the rotation it started, and the changes taken.
@inline(__always)
func settle(_ policy: Policy) {
    policy.completeTransition()
    _ = policy.takeChanges()
}

let portraitOnly: UInt32 = 2
let landscapeOnly: UInt32 = 24
let landscapeRight: UInt32 = 3
let depthLimit = Limits().depth

/// Sensor reports alternating portrait and landscape, with a claim held.
func sensorSteps(_ policy: Policy) -> (Int) -> Void {
    return { i in
        policy.sensorReported(i & 1 == 0 ? .landscapeLeft : .portrait)
        settle(policy)
    }
}

// MARK: (a) one hierarchy at the depth limit

/// Nested navigation controllers, each forwarding to its top: 63 containers and a view at level 64.
func navigationChain() -> [Result] {
    var results: [Result] = []
    let policy = Policy()
    let app = ":1.1"
    let window = must("register") { try policy.registerWindow(client: app, user: userOf(app)) }
    let navs = (0..<(depthLimit - 1)).map { _ in
        must("create") { try policy.createController(kind: "navigation", client: app, user: userOf(app)) }
    }
    let base = must("create") { try policy.createController(kind: "view", client: app, user: userOf(app)) }
    must("root") { try policy.setRootController(window, navs[0], caller: app) }
    for i in 1..<navs.count {
        must("push \(i)") { try policy.push(navs[i], onto: navs[i - 1], caller: app) }
    }
    let deepest = navs[navs.count - 1]
    must("push base") { try policy.push(base, onto: deepest, caller: app) }
    precondition(policy.decidingController(of: window) == base)
    // The chain is at the limit: one more level is refused.
    let extra = must("create") { try policy.createController(kind: "view", client: app, user: userOf(app)) }
    do {
        try policy.present(extra, from: base, caller: app)
        fatalError("the navigation chain is not at the depth limit")
    } catch {
        precondition(error.kind == .limitsExceeded)
    }

    policy.beginGenerating(client: app)
    settle(policy)
    let sensor = sensorSteps(policy)
    checkRotates(policy, "navigation chain, sensor", sensor)
    results.append(measure("depth \(depthLimit), navigation chain: sensor report", sensor))

    // Push a landscape-only controller on the portrait-only base at level 64, then pop it.
    must("mask") { try policy.setSupportedMask(base, portraitOnly, caller: app) }
    settle(policy)
    let top = must("create") { try policy.createController(kind: "view", client: app, user: userOf(app)) }
    must("mask") { try policy.setSupportedMask(top, landscapeOnly, caller: app) }
    let pushPop: (Int) -> Void = { i in
        do {
            if i & 1 == 0 {
                try policy.push(top, onto: deepest, caller: app)
            } else {
                _ = try policy.pop(deepest, caller: app)
            }
        } catch {
            fatalError("push/pop: \(error)")
        }
        settle(policy)
    }
    checkRotates(policy, "navigation chain, push/pop", pushPop)
    results.append(measure("depth \(depthLimit), navigation chain: push / pop", pushPop))
    return results
}

/// A chain of presentations: 63 view controllers each presented by the previous one; the last presents a 64th.
func presentationChain() -> [Result] {
    var results: [Result] = []
    let policy = Policy()
    let app = ":1.1"
    let window = must("register") { try policy.registerWindow(client: app, user: userOf(app)) }
    let views = (0..<(depthLimit - 1)).map { _ in
        must("create") { try policy.createController(kind: "view", client: app, user: userOf(app)) }
    }
    must("root") { try policy.setRootController(window, views[0], caller: app) }
    for i in 1..<views.count {
        must("present \(i)") { try policy.present(views[i], from: views[i - 1], caller: app) }
    }
    let deepest = views[views.count - 1]
    precondition(policy.decidingController(of: window) == deepest)

    policy.beginGenerating(client: app)
    settle(policy)
    let sensor = sensorSteps(policy)
    checkRotates(policy, "presentation chain, sensor", sensor)
    results.append(measure("depth \(depthLimit), presentation chain: sensor report", sensor))

    // The portrait-only deepest controller presents a landscape-only player preferring landscape-right (level 64).
    must("mask") { try policy.setSupportedMask(deepest, portraitOnly, caller: app) }
    settle(policy)
    let player = must("create") { try policy.createController(kind: "view", client: app, user: userOf(app)) }
    must("mask") { try policy.setSupportedMask(player, landscapeOnly, caller: app) }
    must("preferred") { try policy.setPreferredOrientation(player, landscapeRight, caller: app) }
    let presentDismiss: (Int) -> Void = { i in
        do {
            if i & 1 == 0 {
                try policy.present(player, from: deepest, caller: app)
            } else {
                try policy.dismiss(deepest, caller: app)
            }
        } catch {
            fatalError("present/dismiss: \(error)")
        }
        settle(policy)
    }
    checkRotates(policy, "presentation chain, present/dismiss", presentDismiss)
    results.append(measure("depth \(depthLimit), presentation chain: present / dismiss", presentDismiss))
    return results
}

// MARK: (b) many windows

/// 16 clients × 63 windows; each window's root is a navigation controller holding a view, or a tab controller
/// holding three views. The key window is the last one registered.
func manyWindows() -> [Result] {
    var results: [Result] = []
    let policy = Policy()
    let clients = (0..<16).map { ":1.\(100 + $0)" }
    var windowsByClient: [[WindowID]] = []
    var navigationOf: [WindowID: ControllerID] = [:]
    var baseOf: [WindowID: ControllerID] = [:]
    for (index, client) in clients.enumerated() {
        var mine: [WindowID] = []
        for n in 0..<63 {
            // Each client is a process of its own, for the focus authority (P6f).
            let window = must("register") {
                try policy.registerWindow(client: client, user: userOf(client), process: 1000 + UInt32(index))
            }
            let views = (0..<3).map { _ in
                must("create") { try policy.createController(kind: "view", client: client, user: userOf(client)) }
            }
            if n % 2 == 0 {
                let nav = must("create") { try policy.createController(kind: "navigation", client: client, user: userOf(client)) }
                must("stack") { try policy.setViewControllers(nav, [views[0]], caller: client) }
                must("root") { try policy.setRootController(window, nav, caller: client) }
                navigationOf[window] = nav
                baseOf[window] = views[0]
            } else {
                let tab = must("create") { try policy.createController(kind: "tab", client: client, user: userOf(client)) }
                must("tabs") { try policy.setViewControllers(tab, views, caller: client) }
                must("select") { try policy.setSelectedIndex(tab, 1, caller: client) }
                must("root") { try policy.setRootController(window, tab, caller: client) }
            }
            mine.append(window)
            settle(policy)
        }
        windowsByClient.append(mine)
    }
    let windowCount = policy.windowIDs.count
    precondition(windowCount == 16 * 63)

    // The key window: a navigation window of the last client.
    let keyClient = clients[clients.count - 1]
    let key = windowsByClient[clients.count - 1][62 - 0]  // index 62 is even: a navigation window
    must("make key") { try policy.makeKeyAndVisible(key, caller: keyClient, mayTakeKeyWindow: true) }
    settle(policy)
    precondition(policy.keyWindow == key)
    let label = "\(windowCount) windows"

    for client in clients { policy.beginGenerating(client: client) }
    settle(policy)
    let sensor = sensorSteps(policy)
    checkRotates(policy, "many windows, sensor", sensor)
    results.append(measure("\(label): sensor report", sensor))

    let nav = navigationOf[key]!
    let base = baseOf[key]!
    must("mask") { try policy.setSupportedMask(base, portraitOnly, caller: keyClient) }
    settle(policy)
    let top = must("create") { try policy.createController(kind: "view", client: keyClient, user: userOf(keyClient)) }
    must("mask") { try policy.setSupportedMask(top, landscapeOnly, caller: keyClient) }
    let pushPop: (Int) -> Void = { i in
        do {
            if i & 1 == 0 {
                try policy.push(top, onto: nav, caller: keyClient)
            } else {
                _ = try policy.pop(nav, caller: keyClient)
            }
        } catch {
            fatalError("push/pop: \(error)")
        }
        settle(policy)
    }
    checkRotates(policy, "many windows, push/pop", pushPop)
    results.append(measure("\(label): push / pop in the key window", pushPop))

    let player = must("create") { try policy.createController(kind: "view", client: keyClient, user: userOf(keyClient)) }
    must("mask") { try policy.setSupportedMask(player, landscapeOnly, caller: keyClient) }
    must("preferred") { try policy.setPreferredOrientation(player, landscapeRight, caller: keyClient) }
    let presentDismiss: (Int) -> Void = { i in
        do {
            if i & 1 == 0 {
                try policy.present(player, from: base, caller: keyClient)
            } else {
                try policy.dismiss(base, caller: keyClient)
            }
        } catch {
            fatalError("present/dismiss: \(error)")
        }
        settle(policy)
    }
    checkRotates(policy, "many windows, present/dismiss", presentDismiss)
    results.append(measure("\(label): present / dismiss in the key window", presentDismiss))

    // A push and pop in a window that is not key: re-decided, nothing rotates.
    let otherClient = clients[0]
    let other = windowsByClient[0][0]
    let otherNav = navigationOf[other]!
    let otherTop = must("create") { try policy.createController(kind: "view", client: otherClient, user: userOf(otherClient)) }
    let otherPushPop: (Int) -> Void = { i in
        do {
            if i & 1 == 0 {
                try policy.push(otherTop, onto: otherNav, caller: otherClient)
            } else {
                _ = try policy.pop(otherNav, caller: otherClient)
            }
        } catch {
            fatalError("push/pop elsewhere: \(error)")
        }
        settle(policy)
    }
    results.append(measure("\(label): push / pop in a window not key (no rotation)", otherPushPop))

    // Two windows of different clients, one landscape-only and one portrait-only by their delegates, made key in turn.
    let landscapeWindow = windowsByClient[3][10]
    let portraitWindow = windowsByClient[7][20]
    must("delegate") { try policy.setDelegateMask(landscapeWindow, landscapeOnly, caller: clients[3]) }
    must("delegate") { try policy.setDelegateMask(portraitWindow, portraitOnly, caller: clients[7]) }
    settle(policy)
    let makeKey: (Int) -> Void = { i in
        do {
            if i & 1 == 0 {
                try policy.makeKeyAndVisible(landscapeWindow, caller: clients[3], mayTakeKeyWindow: true)
            } else {
                try policy.makeKeyAndVisible(portraitWindow, caller: clients[7], mayTakeKeyWindow: true)
            }
        } catch {
            fatalError("make key: \(error)")
        }
        settle(policy)
    }
    checkRotates(policy, "many windows, make key", makeKey)
    results.append(measure("\(label): MakeKeyAndVisible, alternating", makeKey))

    // The compositor moving the focus between the same two clients: each focus finds the process's window.
    let focus: (Int) -> Void = { _ in
        policy.setFocus(FocusReport(nil, process: policy.keyWindow == landscapeWindow ? 1007 : 1003), authority: ":1.99")
        settle(policy)
    }
    checkRotates(policy, "many windows, focus", focus)
    results.append(measure("\(label): SetFocusedProcess, alternating", focus))
    return results
}

// MARK: (c) replacing a wide stack

/// `SetViewControllers` on a navigation controller in the key window, alternating `views` view
/// controllers in one order and in the reverse: the cost of one call, which must grow with the
/// stack, not with its square.
func wideStack(views count: Int) -> Double {
    let policy = Policy()
    let app = ":1.1"
    let window = must("register") { try policy.registerWindow(client: app, user: userOf(app)) }
    let nav = must("create") { try policy.createController(kind: "navigation", client: app, user: userOf(app)) }
    must("root") { try policy.setRootController(window, nav, caller: app) }
    let views = (0..<count).map { _ in must("create") { try policy.createController(kind: "view", client: app, user: userOf(app)) } }
    let reversed = Array(views.reversed())
    var samples: [Double] = []
    for _ in 0..<40 {
        let start = now()
        for i in 0..<10 {
            must("set") { try policy.setViewControllers(nav, i & 1 == 0 ? views : reversed, caller: app) }
            _ = policy.takeChanges()
        }
        samples.append(Double(now() - start) / 1_000 / 10)
    }
    samples.sort()
    return samples[samples.count / 2]
}

// MARK: Report

let results = navigationChain() + presentationChain() + manyWindows()
let wide = [1000, 4095].map { ($0, wideStack(views: $0)) }

let target = 10.0
let nameWidth = results.map(\.name.count).max() ?? 0
print("orientationd policy: cost of one decision (operation + completeTransition + takeChanges)")
print("\(batches) batches of \(decisionsPerBatch) decisions per scenario; target: median ≤ \(Int(target)) µs per decision")
print("")
print(padded("scenario", width: nameWidth) + "   median µs     p95 µs   target")
for r in results {
    print(padded(r.name, width: nameWidth) + "   " + fixed(r.median, width: 9) + "  " + fixed(r.p95, width: 9)
        + "   " + (r.median <= target ? "met" : "MISSED"))
}
print("")
print("SetViewControllers on a navigation controller in the key window, its views in one order then the reverse (no rotation)")
print("views   median µs per call   µs per view")
for (views, cost) in wide {
    print(padded("\(views)", width: 8) + fixed(cost, width: 18) + "   " + fixed(cost / Double(views), width: 11))
}
