// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
@testable import Policy
import XCTest

/// Every refusal kind at least once; each leaves the state exactly as it was and announces nothing.
final class ErrorKindTests: XCTestCase {
    func testEveryErrorKindLeavesTheStateUnchanged() {
        let small = PolicyConfiguration(limits: Limits(windows: 1, controllers: 3, depth: 2))
        run("errors", [
            // InvalidArgs
            Scenario(name: "InvalidArgs: pop on a view", setup: { f in f.named["c"] = try f.vc() },
                     action: { f in _ = try f.policy.pop(f["c"], caller: A) }, error: .invalidArgs),
            Scenario(name: "InvalidArgs: push onto a tab", setup: { f in
                f.named["t"] = try f.tab([])
                f.named["c"] = try f.vc()
            }, action: { f in try f.policy.push(f["c"], onto: f["t"], caller: A) }, error: .invalidArgs),
            Scenario(name: "InvalidArgs: set view controllers on a view", setup: { f in
                f.named["v"] = try f.vc()
                f.named["c"] = try f.vc()
            }, action: { f in try f.policy.setViewControllers(f["v"], [f["c"]], caller: A) }, error: .invalidArgs),
            Scenario(name: "InvalidArgs: selected index on a navigation", setup: { f in f.named["n"] = try f.nav([try f.vc()]) },
                     action: { f in try f.policy.setSelectedIndex(f["n"], 0, caller: A) }, error: .invalidArgs),
            Scenario(name: "InvalidArgs: selected index out of range", setup: { f in
                f.named["t"] = try f.tab([try f.vc(), try f.vc()])
            }, action: { f in try f.policy.setSelectedIndex(f["t"], 2, caller: A) }, error: .invalidArgs),
            Scenario(name: "InvalidArgs: controller mask with bit 5", setup: { f in f.named["c"] = try f.vc() },
                     action: { f in try f.policy.setSupportedMask(f["c"], 34, caller: A) }, error: .invalidArgs),
            // AccessDenied
            Scenario(name: "AccessDenied: another's controller's mask", setup: { f in f.named["c"] = try f.vc(client: B) },
                     action: { f in try f.policy.setSupportedMask(f["c"], mPortrait, caller: A) }, error: .accessDenied),
            Scenario(name: "AccessDenied: pushing another's controller", setup: { f in
                f.named["n"] = try f.nav([])
                f.named["c"] = try f.vc(client: B)
            }, action: { f in try f.policy.push(f["c"], onto: f["n"], caller: A) }, error: .accessDenied),
            Scenario(name: "AccessDenied: another's controller as root", setup: { f in
                f.windowsNamed["w"] = try f.window()
                f.named["c"] = try f.vc(client: B)
            }, action: { f in try f.policy.setRootController(f.w("w"), f["c"], caller: A) }, error: .accessDenied),
            Scenario(name: "AccessDenied: presenting another's controller", setup: { f in
                f.named["r"] = try f.vc()
                f.named["c"] = try f.vc(client: B)
            }, action: { f in try f.policy.present(f["c"], from: f["r"], caller: A) }, error: .accessDenied),
            Scenario(name: "AccessDenied: destroying another's controller", setup: { f in f.named["c"] = try f.vc(client: B) },
                     action: { f in try f.policy.destroy(f["c"], caller: A) }, error: .accessDenied),
            Scenario(name: "AccessDenied: dismissing from another's controller", setup: { f in
                f.named["r"] = try f.vc(client: B)
                try f.policy.present(try f.vc(client: B), from: f["r"], caller: B)
            }, action: { f in try f.policy.dismiss(f["r"], caller: A) }, error: .accessDenied),
            // UnknownObject
            Scenario(name: "UnknownObject: controller", action: { f in
                try f.policy.setShouldAutorotate(ControllerID(rawValue: 42), false, caller: A)
            }, error: .unknownObject),
            Scenario(name: "UnknownObject: pushing a destroyed controller", setup: { f in
                f.named["n"] = try f.nav([])
                f.named["c"] = try f.vc()
                try f.policy.destroy(f["c"], caller: A)
            }, action: { f in try f.policy.push(f["c"], onto: f["n"], caller: A) }, error: .unknownObject),
            Scenario(name: "UnknownObject: closed window", setup: { f in
                f.windowsNamed["w"] = try f.window()
                try f.policy.closeWindow(f.w("w"), caller: A)
            }, action: { f in try f.policy.closeWindow(f.w("w"), caller: A) }, error: .unknownObject),
            // LimitsExceeded
            Scenario(name: "LimitsExceeded: windows", configuration: small, setup: { f in try f.window() },
                     action: { f in try f.window() }, error: .limitsExceeded),
            Scenario(name: "LimitsExceeded: windows are per client", configuration: small, setup: { f in try f.window(A) },
                     action: { f in try f.window(B) }),
            Scenario(name: "LimitsExceeded: controllers", configuration: small, setup: { f in
                _ = try f.vc(); _ = try f.vc(); _ = try f.vc()
            }, action: { f in _ = try f.vc() }, error: .limitsExceeded),
            Scenario(name: "LimitsExceeded: a destroyed controller frees its slot", configuration: small, setup: { f in
                _ = try f.vc(); _ = try f.vc()
                try f.policy.destroy(try f.vc(), caller: A)
            }, action: { f in _ = try f.vc() }),
            // NoCommonOrientation, PreferredNotSupported: P5, P9.
            Scenario(name: "NoCommonOrientation: root", setup: { f in
                f.windowsNamed["w"] = try f.window(delegate: mPortrait)
                f.named["c"] = try f.vc(mLandscape)
            }, action: { f in try f.policy.setRootController(f.w("w"), f["c"], caller: A) }, error: .noCommonOrientation),
            Scenario(name: "NoCommonOrientation: presented, its preferred orientation would leave the window's mask", setup: { f in
                f.named["r"] = try f.vc()
                f.windowsNamed["w"] = try f.window(delegate: mPortrait | mLandscapeRight, root: f["r"])
                f.named["c"] = try f.vc(mLandscape, preferred: LL.rawValue)
            }, action: { f in try f.policy.present(f["c"], from: f["r"], caller: A) }, error: .noCommonOrientation),
            Scenario(name: "NoCommonOrientation: presented off the deciding path, the decider's mask stays", setup: { f in
                f.named["a"] = try f.vc()
                f.named["b"] = try f.vc(mPortrait)
                f.windowsNamed["w"] = try f.window(root: try f.nav([f["a"], f["b"]]))
                f.named["c"] = try f.vc(mLandscapeRight, preferred: LR.rawValue)
            }, action: { f in try f.policy.present(f["c"], from: f["a"], caller: A) }, error: .noCommonOrientation),
            Scenario(name: "PreferredNotSupported: detached presenter too", setup: { f in
                f.named["r"] = try f.vc()
                f.named["c"] = try f.vc(mPortrait, preferred: LL.rawValue)
            }, action: { f in try f.policy.present(f["c"], from: f["r"], caller: A) }, error: .preferredNotSupported),
            // InUse
            Scenario(name: "InUse: root of another window", setup: { f in
                f.named["c"] = try f.vc()
                try f.window(root: f["c"])
                f.windowsNamed["w"] = try f.window()
            }, action: { f in try f.policy.setRootController(f.w("w"), f["c"], caller: A) }, error: .inUse),
            Scenario(name: "InUse: child of another container", setup: { f in
                f.named["c"] = try f.vc()
                _ = try f.nav([f["c"]])
                f.named["n"] = try f.nav([])
            }, action: { f in try f.policy.push(f["c"], onto: f["n"], caller: A) }, error: .inUse),
            Scenario(name: "InUse: already presented", setup: { f in
                f.named["c"] = try f.vc()
                try f.policy.present(f["c"], from: try f.vc(), caller: A)
                f.named["t"] = try f.tab([])
            }, action: { f in try f.policy.setViewControllers(f["t"], [f["c"]], caller: A) }, error: .inUse),
            Scenario(name: "InUse: a root pushed", setup: { f in
                f.named["c"] = try f.vc()
                try f.window(root: f["c"])
                f.named["n"] = try f.nav([])
            }, action: { f in try f.policy.push(f["c"], onto: f["n"], caller: A) }, error: .inUse),
            Scenario(name: "InUse: a placed controller presented", setup: { f in
                f.named["c"] = try f.vc()
                _ = try f.nav([f["c"]])
                f.named["r"] = try f.vc()
            }, action: { f in try f.policy.present(f["c"], from: f["r"], caller: A) }, error: .inUse),
            Scenario(name: "InUse: pushed onto itself", setup: { f in f.named["n"] = try f.nav([]) },
                     action: { f in try f.policy.push(f["n"], onto: f["n"], caller: A) }, error: .inUse),
            Scenario(name: "InUse: presenting itself", setup: { f in f.named["c"] = try f.vc() },
                     action: { f in try f.policy.present(f["c"], from: f["c"], caller: A) }, error: .inUse),
            Scenario(name: "InUse: an ancestor under its descendant", setup: { f in
                f.named["inner"] = try f.nav([])
                f.named["outer"] = try f.nav([f["inner"]])
            }, action: { f in try f.policy.push(f["outer"], onto: f["inner"], caller: A) }, error: .inUse),
            Scenario(name: "InUse: the presenter presented by what it presents", setup: { f in
                f.named["a"] = try f.vc()
                f.named["b"] = try f.vc()
                try f.policy.present(f["b"], from: f["a"], caller: A)
            }, action: { f in try f.policy.present(f["a"], from: f["b"], caller: A) }, error: .inUse),
            Scenario(name: "InUse: listed twice", setup: { f in
                f.named["t"] = try f.tab([])
                f.named["c"] = try f.vc()
            }, action: { f in try f.policy.setViewControllers(f["t"], [f["c"], f["c"]], caller: A) }, error: .inUse),
            Scenario(name: "reordering a container's own children is allowed", setup: { f in
                f.named["a"] = try f.vc()
                f.named["b"] = try f.vc()
                f.named["t"] = try f.tab([f["a"], f["b"]], selected: 1)
            }, action: { f in try f.policy.setViewControllers(f["t"], [f["b"], f["a"]], caller: A) }, check: { f in
                XCTAssertEqual(f.policy.controller(f["t"])?.children, [f["b"], f["a"]])
                XCTAssertEqual(f.policy.controller(f["t"])?.selectedIndex, 0)
            }),
            // AlreadyPresenting
            Scenario(name: "AlreadyPresenting", setup: { f in
                f.named["r"] = try f.vc()
                try f.policy.present(try f.vc(), from: f["r"], caller: A)
                f.named["c"] = try f.vc()
            }, action: { f in try f.policy.present(f["c"], from: f["r"], caller: A) }, error: .alreadyPresenting),
            // CannotPop
            Scenario(name: "CannotPop: one", setup: { f in f.named["n"] = try f.nav([try f.vc()]) },
                     action: { f in _ = try f.policy.pop(f["n"], caller: A) }, error: .cannotPop),
            Scenario(name: "CannotPop: empty", setup: { f in f.named["n"] = try f.nav([]) },
                     action: { f in _ = try f.policy.pop(f["n"], caller: A) }, error: .cannotPop),
            // NotGenerating, NotKeyWindow, UnsupportedOrientations
            Scenario(name: "NotGenerating", setup: { f in f.claim(B) },
                     action: { f in try f.policy.endGenerating(client: A) }, error: .notGenerating),
            Scenario(name: "NotKeyWindow", setup: { f in
                try f.window()
                f.windowsNamed["w"] = try f.window()
            }, action: { f in try f.policy.requestGeometryUpdate(f.w("w"), mPortrait, caller: A) }, error: .notKeyWindow),
            Scenario(name: "UnsupportedOrientations", setup: { f in f.windowsNamed["w"] = try f.window(delegate: mLandscapeLeft) },
                     action: { f in try f.policy.requestGeometryUpdate(f.w("w"), mPortrait, caller: A) },
                     error: .unsupportedOrientations),
        ])
    }

    func testLimitsExceededDepth() throws {
        let f = Fixture(PolicyConfiguration(limits: Limits(windows: 4, controllers: 100, depth: 3)))
        let a = try f.nav([])
        let b = try f.nav([])
        try f.policy.push(b, onto: a, caller: A)
        let c = try f.vc()
        try f.policy.present(c, from: b, caller: A)  // a → b → c: depth 3
        let d = try f.vc()
        assertRefused(.limitsExceeded, f, "presented at depth 4") { try f.policy.present(d, from: c, caller: A) }
        let chain = try f.nav([try f.vc()])  // a hierarchy of height 2
        assertRefused(.limitsExceeded, f, "a tall subtree under depth 2") { try f.policy.push(chain, onto: b, caller: A) }
        try f.policy.push(try f.vc(), onto: b, caller: A)  // depth 3 is fine
    }

    func testErrorMessagesNameTheObjectsAndValues() throws {
        let f = Fixture()
        let w = try f.window(root: try f.vc(mPortrait))
        do {
            try f.policy.setDelegateMask(w, mLandscape, caller: A)
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error.kind, .noCommonOrientation)
            XCTAssertTrue(error.message.contains("window \(w.rawValue)"), error.message)
            XCTAssertTrue(error.message.contains("24"), error.message)
            XCTAssertTrue(error.description.hasPrefix("NoCommonOrientation: "), error.description)
        }
        do {
            try f.policy.setApplicationMask(64)
            XCTFail("no error")
        } catch {
            XCTAssertTrue(error.message.contains("64") && error.message.contains("30"), error.message)
        }
    }

    func testErrorKindRawValuesAreDBusNames() {
        let names: [PolicyError.Kind: String] = [
            .invalidArgs: "InvalidArgs", .accessDenied: "AccessDenied", .unknownObject: "UnknownObject",
            .limitsExceeded: "LimitsExceeded", .noCommonOrientation: "NoCommonOrientation",
            .preferredNotSupported: "PreferredNotSupported", .inUse: "InUse", .alreadyPresenting: "AlreadyPresenting",
            .cannotPop: "CannotPop", .notGenerating: "NotGenerating", .notKeyWindow: "NotKeyWindow",
            .unsupportedOrientations: "UnsupportedOrientations",
        ]
        for (kind, name) in names { XCTAssertEqual(kind.rawValue, name) }
    }
}
