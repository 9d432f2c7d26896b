// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
@testable import Policy
import XCTest

/// P6f: under a focus authority the key window follows the focused process.
final class P6f_FocusTests: XCTestCase {
    func testP6f_focusMovesTheKeyWindow() {
        run("P6f", [
            Scenario(name: "focusing a process makes its window key and its mask rules", setup: { f in
                f.windowsNamed["a"] = try f.window(A, root: try f.vc(mPortrait))
                f.windowsNamed["b"] = try f.window(B, root: try f.vc(mLandscape, client: B))
            }, action: { f in f.policy.setFocusedProcess(pidB, authority: focusWatcher) },
                     orientation: LR, events: rotation(P, LR), check: { f in
                         XCTAssertEqual(f.policy.keyWindow, f.w("b"))
                         XCTAssertEqual(f.policy.focusedProcess, pidB)
                         XCTAssertEqual(f.policy.focusAuthority, focusWatcher)
                     }),
            Scenario(name: "focus moving back brings the other process's window back", setup: { f in
                f.windowsNamed["a"] = try f.window(A, root: try f.vc(mPortrait))
                f.windowsNamed["b"] = try f.window(B, root: try f.vc(mLandscape, client: B))
                f.policy.setFocusedProcess(pidB, authority: focusWatcher)
            }, action: { f in f.policy.setFocusedProcess(pidA, authority: focusWatcher) },
                     orientation: P, events: rotation(LR, P), check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("a")) }),
            Scenario(name: "a focused process without windows: no key window, the application mask (P7)",
                     configuration: PolicyConfiguration(applicationMask: .landscape), setup: { f in
                         f.windowsNamed["a"] = try f.window(A, delegate: mLandscapeLeft)
                     }, action: { f in f.policy.setFocusedProcess(4242, authority: focusWatcher) }, orientation: LL,
                     check: { f in
                         XCTAssertNil(f.policy.keyWindow)
                         XCTAssertEqual(f.policy.supportedMask.rawValue, mLandscape)
                     }),
            Scenario(name: "0 focuses nothing", setup: { f in f.windowsNamed["a"] = try f.window(A) },
                     action: { f in f.policy.setFocusedProcess(0, authority: focusWatcher) }, check: { f in
                         XCTAssertNil(f.policy.keyWindow)
                         XCTAssertEqual(f.policy.focusedProcess, 0)
                         XCTAssertEqual(f.policy.focusAuthority, focusWatcher)
                     }),
            Scenario(name: "the focused process's most recently chosen window, not its newest", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["b1"] = try f.window(B, delegate: mLandscapeLeft)
                f.windowsNamed["b2"] = try f.window(B)
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
                try f.policy.makeKeyAndVisible(f.w("b1"), caller: B)
            }, action: { f in f.policy.setFocusedProcess(pidB, authority: focusWatcher) }, orientation: LL,
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("b1")) }),
            Scenario(name: "none chosen: the focused process's most recently registered window", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["b1"] = try f.window(B)
                f.windowsNamed["b2"] = try f.window(B, delegate: mLandscapeRight)
            }, action: { f in f.policy.setFocusedProcess(pidB, authority: focusWatcher) }, orientation: LR,
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("b2")) }),
            Scenario(name: "a process's windows over several connections count as one", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["b"] = try f.policy.registerWindow(client: ":1.21", user: 21, process: pidB)
            }, action: { f in f.policy.setFocusedProcess(pidB, authority: focusWatcher) },
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("b")) }),
            Scenario(name: "a window of unknown process is never focused", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["x"] = try f.policy.registerWindow(client: ":1.99", user: 99, process: 0)
            }, action: { f in f.policy.setFocusedProcess(0, authority: focusWatcher) },
                     check: { f in XCTAssertNil(f.policy.keyWindow) }),
            Scenario(name: "a focus change rotates while locked, as any change of key window (P9)", setup: { f in
                f.claim()
                f.device(.portrait)
                f.policy.setRotationLocked(true)
                f.windowsNamed["a"] = try f.window(A, root: try f.vc(mPortrait))
                f.windowsNamed["b"] = try f.window(B, root: try f.vc(mLandscape, client: B))
            }, action: { f in f.policy.setFocusedProcess(pidB, authority: focusWatcher) },
                     orientation: LR, events: rotation(P, LR)),
            Scenario(name: "focusing the focused process again changes nothing", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
            }, action: { f in
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
                XCTAssertTrue(f.policy.takeChanges().isEmpty, "nothing to announce")
            }, events: []),
        ])
    }

    func testP6f_aNonFocusedProcessChoiceIsRememberedAndAppliedOnFocus() {
        run("P6f", [
            Scenario(name: "a background MakeKeyAndVisible does not take the key window", setup: { f in
                f.claim()
                f.device(.portrait)
                f.windowsNamed["a"] = try f.window(A, root: try f.vc(mLandscape))
                f.windowsNamed["b"] = try f.window(B, root: try f.vc(mPortrait, client: B))
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
            }, action: { f in try f.policy.makeKeyAndVisible(f.w("b"), caller: B) }, orientation: LR, events: [],
                     check: { f in
                         XCTAssertEqual(f.policy.keyWindow, f.w("a"), "the focused process keeps the key window")
                         XCTAssertEqual(f.policy.supportedMask.rawValue, mLandscape)
                     }),
            Scenario(name: "… and KeyWhenFocused shows the choice at once, on the new choice and the old", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["b1"] = try f.window(B)
                f.windowsNamed["b2"] = try f.window(B)
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
                _ = f.policy.takeChanges()
            }, action: { f in try f.policy.makeKeyAndVisible(f.w("b1"), caller: B) }, check: { f in
                XCTAssertTrue(f.policy.keyWhenFocused(f.w("b1")), "the choice")
                XCTAssertFalse(f.policy.keyWhenFocused(f.w("b2")), "the newest is no longer the choice")
                XCTAssertNotEqual(f.policy.keyWindow, f.w("b1"), "not key while its process is not in front")
                XCTAssertTrue(f.policy.keyWhenFocused(f.w("a")), "the focused process's own")
            }),
            Scenario(name: "… and needs no privilege, since it takes nothing", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["b"] = try f.window(B)
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
            }, action: { f in try f.policy.makeKeyAndVisible(f.w("b"), caller: B, mayTakeKeyWindow: false) },
                     check: { f in XCTAssertFalse(f.policy.takesKeyWindow(f.w("b"))) }),
            Scenario(name: "the remembered choice is applied when its process gains focus", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["b1"] = try f.window(B)
                f.windowsNamed["b2"] = try f.window(B, delegate: mLandscapeLeft)
                f.windowsNamed["b3"] = try f.window(B)
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
                try f.policy.makeKeyAndVisible(f.w("b2"), caller: B)
            }, action: { f in f.policy.setFocusedProcess(pidB, authority: focusWatcher) }, orientation: LL,
                     events: rotation(P, LL), check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("b2")) }),
            Scenario(name: "the latest choice wins", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["b1"] = try f.window(B, delegate: mLandscapeRight)
                f.windowsNamed["b2"] = try f.window(B, delegate: mLandscapeLeft)
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
                try f.policy.makeKeyAndVisible(f.w("b2"), caller: B)
                try f.policy.makeKeyAndVisible(f.w("b1"), caller: B)
            }, action: { f in f.policy.setFocusedProcess(pidB, authority: focusWatcher) }, orientation: LR,
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("b1")) }),
            Scenario(name: "the focused process switches its own key window at once", setup: { f in
                f.windowsNamed["a1"] = try f.window(A, delegate: mPortrait)
                f.windowsNamed["a2"] = try f.window(A, delegate: mLandscapeLeft)
                f.windowsNamed["b"] = try f.window(B)
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
                try f.policy.makeKeyAndVisible(f.w("a1"), caller: A)
            }, action: { f in try f.policy.makeKeyAndVisible(f.w("a2"), caller: A) }, orientation: LL,
                     events: rotation(P, LL), check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("a2")) }),
            Scenario(name: "a privileged MakeKeyAndVisible is the owner's choice too", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["b1"] = try f.window(B)
                f.windowsNamed["b2"] = try f.window(B)
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
            }, action: { f in
                try f.policy.makeKeyAndVisible(f.w("b1"), caller: nil)
                XCTAssertEqual(f.policy.keyWindow, f.w("a"), "B is not focused")
                f.policy.setFocusedProcess(pidB, authority: focusWatcher)
            }, check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("b1")) }),
            Scenario(name: "a new window of the focused process becomes key when none was chosen", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
            }, action: { f in f.windowsNamed["a2"] = try f.window(A, delegate: mLandscapeLeft) }, orientation: LL,
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("a2")) }),
            Scenario(name: "a new window does not displace the chosen one", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
                try f.policy.makeKeyAndVisible(f.w("a"), caller: A)
            }, action: { f in f.windowsNamed["a2"] = try f.window(A, delegate: mLandscapeLeft) }, orientation: P,
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("a")) }),
            Scenario(name: "a background process's first window does not become key", setup: { f in
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
            }, action: { f in f.windowsNamed["b"] = try f.window(B, delegate: mLandscapeLeft) }, orientation: P,
                     check: { f in XCTAssertNil(f.policy.keyWindow) }),
            Scenario(name: "closing the focused key window: its process's next, never another's", setup: { f in
                f.windowsNamed["a1"] = try f.window(A, delegate: mLandscapeRight)
                f.windowsNamed["b"] = try f.window(B, delegate: mPortrait)
                f.windowsNamed["a2"] = try f.window(A, delegate: mLandscapeLeft)
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
                try f.policy.makeKeyAndVisible(f.w("a1"), caller: A)
                try f.policy.makeKeyAndVisible(f.w("b"), caller: B)
            }, action: { f in try f.policy.closeWindow(f.w("a1"), caller: A) }, orientation: LL,
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("a2")) }),
            Scenario(name: "the focused process's last window goes: no key window", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["b"] = try f.window(B)
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
            }, action: { f in f.policy.clientLeft(A) }, check: { f in XCTAssertNil(f.policy.keyWindow) }),
        ])
    }

    func testP6f_theAuthorityLeavingClearsTheFocus() {
        run("P6f", [
            Scenario(name: "the focus is cleared, the key window stays", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["b"] = try f.window(B, delegate: mLandscapeLeft)
                f.policy.setFocusedProcess(pidB, authority: focusWatcher)
            }, action: { f in f.policy.clientLeft(focusWatcher) }, orientation: LL, events: [], check: { f in
                XCTAssertNil(f.policy.focusAuthority)
                XCTAssertEqual(f.policy.focusedProcess, 0)
                XCTAssertEqual(f.policy.keyWindow, f.w("b"))
            }),
            Scenario(name: "with no key window, P6 finds one: the most recently key", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["b"] = try f.window(B)
                f.policy.setFocusedProcess(pidB, authority: focusWatcher)
                f.policy.setFocusedProcess(0, authority: focusWatcher)
            }, action: { f in f.policy.clientLeft(focusWatcher) },
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("b")) }),
            Scenario(name: "afterwards the take-key-window rule applies again", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["b"] = try f.window(B)
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
                f.policy.clientLeft(focusWatcher)
            }, action: { f in try f.policy.makeKeyAndVisible(f.w("b"), caller: B) }, error: .accessDenied),
            Scenario(name: "the authority is known to the service, so its departure is followed",
                     setup: { f in f.policy.setFocusedProcess(pidA, authority: focusWatcher) },
                     action: { _ in }, check: { f in XCTAssertTrue(f.policy.isKnown(focusWatcher)) }),
            Scenario(name: "a replaced authority leaving changes nothing", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["b"] = try f.window(B)
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
                f.policy.setFocusedProcess(pidB, authority: ":1.31")
            }, action: { f in f.policy.clientLeft(focusWatcher) }, check: { f in
                XCTAssertEqual(f.policy.focusAuthority, ":1.31")
                XCTAssertEqual(f.policy.focusedProcess, pidB)
                XCTAssertEqual(f.policy.keyWindow, f.w("b"))
            }),
        ])
    }

    /// Without a focus authority nobody says who is in front, so taking the key window from
    /// another client's window needs the take-key-window privilege (dbus-api.md, "Privilege").
    func testP6f_takingTheKeyWindowWithoutAnAuthority() {
        run("P6f take-key-window", [
            Scenario(name: "refused without the privilege, and nothing changes, rotation lock included", setup: { f in
                f.claim()
                f.device(.portrait)
                f.policy.setRotationLocked(true)
                f.windowsNamed["a"] = try f.window(A, root: try f.vc(mPortrait))
                f.windowsNamed["b"] = try f.window(B, root: try f.vc(mLandscape, client: B))
            }, action: { f in try f.policy.makeKeyAndVisible(f.w("b"), caller: B) }, orientation: P, error: .accessDenied,
                     check: { f in
                         XCTAssertEqual(f.policy.keyWindow, f.w("a"))
                         XCTAssertTrue(f.policy.rotationLocked)
                     }),
            Scenario(name: "the refusal is not remembered as a choice", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["b1"] = try f.window(B)
                f.windowsNamed["b2"] = try f.window(B)
                XCTAssertThrowsError(try f.policy.makeKeyAndVisible(f.w("b1"), caller: B))
            }, action: { f in f.policy.setFocusedProcess(pidB, authority: focusWatcher) },
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("b2"), "the newest, as nothing was chosen") }),
            Scenario(name: "taken with the privilege", setup: { f in
                f.windowsNamed["a"] = try f.window(A, root: try f.vc(mPortrait))
                f.windowsNamed["b"] = try f.window(B, root: try f.vc(mLandscape, client: B))
            }, action: { f in try f.policy.makeKeyAndVisible(f.w("b"), caller: B, mayTakeKeyWindow: true) },
                     orientation: LR, events: rotation(P, LR), check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("b")) }),
            Scenario(name: "from the client's own key window it needs none", setup: { f in
                f.windowsNamed["a1"] = try f.window(A)
                f.windowsNamed["a2"] = try f.window(A)
                f.windowsNamed["b"] = try f.window(B)
            }, action: { f in
                XCTAssertFalse(f.policy.takesKeyWindow(f.w("a2")))
                try f.policy.makeKeyAndVisible(f.w("a2"), caller: A)
            }, check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("a2")) }),
            Scenario(name: "making the key window key again needs none", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
            }, action: { f in try f.policy.makeKeyAndVisible(f.w("a"), caller: A) }),
            Scenario(name: "a first window becomes key with none", action: { f in
                f.windowsNamed["b"] = try f.window(B)
            }, check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("b")) }),
            Scenario(name: "a privileged caller (configure-application) needs none", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["b"] = try f.window(B)
            }, action: { f in try f.policy.makeKeyAndVisible(f.w("b"), caller: nil) },
                     check: { f in XCTAssertEqual(f.policy.keyWindow, f.w("b")) }),
            Scenario(name: "the rule asks for the privilege exactly when another client's window is key", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["b"] = try f.window(B)
            }, action: { _ in }, check: { f in
                XCTAssertTrue(f.policy.takesKeyWindow(f.w("b")))
                XCTAssertFalse(f.policy.takesKeyWindow(f.w("a")))
                f.policy.setFocusedProcess(pidA, authority: focusWatcher)
                XCTAssertFalse(f.policy.takesKeyWindow(f.w("b")), "under an authority focus decides, not the privilege")
            }),
            Scenario(name: "the message names the windows and the privilege", setup: { f in
                f.windowsNamed["a"] = try f.window(A)
                f.windowsNamed["b"] = try f.window(B)
            }, action: { f in
                do {
                    try f.policy.makeKeyAndVisible(f.w("b"), caller: B)
                    XCTFail("taken without the privilege")
                } catch let error as PolicyError {
                    XCTAssertTrue(error.message.contains("take-key-window"), error.message)
                    XCTAssertTrue(error.message.contains("\(f.w("a"))") && error.message.contains("\(f.w("b"))"), error.message)
                } catch {
                    XCTFail("\(error)")
                }
            }),
        ])
    }
}
