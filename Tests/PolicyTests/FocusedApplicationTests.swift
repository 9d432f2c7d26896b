// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
@testable import Policy
import XCTest

let landscapeApp = ApplicationID(rawValue: "org.example.Video")!
let plainApp = ApplicationID(rawValue: "org.example.Notes")!
let mLandscapeMask = OrientationMask(rawValue: mLandscape)
let mPortraitMask = OrientationMask(rawValue: mPortrait)

extension Fixture {
    /// The focus authority focuses `app` in `process`, whose desktop file declares `desktopFile`.
    func focus(_ app: ApplicationID?, _ process: UInt32 = 4242, desktopFile: OrientationMask? = nil) {
        policy.setFocusedApplication(app, process: process, desktopFile: desktopFile, authority: focusWatcher)
    }
}

/// P6a: the focused application's declaration is the mask in force when it has no window of its own.
final class P6a_FocusedApplicationTests: XCTestCase {
    func testP6a_theFocusedApplicationsDeclarationIsInForce() {
        run("P6a", [
            Scenario(name: "a landscape-only app in front turns an upright device's screen", setup: { f in
                f.claim()
                f.device(.portrait)
            }, action: { f in f.focus(landscapeApp, desktopFile: mLandscapeMask) }, orientation: LR, events: rotation(P, LR),
                     check: { f in
                         XCTAssertEqual(f.policy.focusedApplication, landscapeApp)
                         XCTAssertEqual(f.policy.focusedDeclaration, ApplicationDeclarationInForce(mask: mLandscapeMask, source: .desktopFile))
                         XCTAssertEqual(f.policy.supportedMask, mLandscapeMask)
                         XCTAssertNil(f.policy.keyWindow)
                     }),
            Scenario(name: "it beats the rotation lock, as a video player does on iOS", setup: { f in
                f.claim()
                f.device(.portrait)
                f.policy.setRotationLocked(true)
            }, action: { f in f.focus(landscapeApp, desktopFile: mLandscapeMask) }, orientation: LR, events: rotation(P, LR)),
            Scenario(name: "an app without a declaration follows the device again (P10), whatever the one before forced",
                     setup: { f in
                         f.claim()
                         f.device(.portrait)
                         f.focus(landscapeApp, desktopFile: mLandscapeMask)
                     }, action: { f in f.focus(plainApp, 4343) }, orientation: P, events: rotation(LR, P), check: { f in
                         XCTAssertEqual(f.policy.focusedDeclaration, .none)
                         XCTAssertEqual(f.policy.supportedMask, f.policy.applicationMask)
                     }),
            Scenario(name: "locked: the app without a declaration stays where the last one left the screen", setup: { f in
                f.claim()
                f.device(.portrait)
                f.policy.setRotationLocked(true)
                f.focus(landscapeApp, desktopFile: mLandscapeMask)
            }, action: { f in f.focus(plainApp, 4343) }, orientation: LR, events: []),
            Scenario(name: "focusing an app allowed in the device's orientation turns to it (P10)", setup: { f in
                f.claim()
                f.device(.landscapeLeft)
                f.focus(ApplicationID(rawValue: "org.example.Portrait")!, desktopFile: mPortraitMask)
            }, action: { f in f.focus(plainApp, 4343) }, orientation: LR, events: rotation(P, LR)),
            Scenario(name: "a device turn inside the declaration rotates (P8)", setup: { f in
                f.claim()
                f.device(.portrait)
                f.focus(landscapeApp, desktopFile: mLandscapeMask)
            }, action: { f in f.device(.landscapeRight) }, orientation: LL, events: [dev(.landscapeRight)] + rotation(LR, LL)),
            Scenario(name: "a device turn outside it does not (P8)", setup: { f in
                f.claim()
                f.device(.landscapeRight)
                f.focus(landscapeApp, desktopFile: mLandscapeMask)
            }, action: { f in f.device(.portrait) }, orientation: LL, events: [dev(.portrait)]),
            Scenario(name: "no authority's application: the application mask (P7)", action: { f in f.focus(nil) },
                     check: { f in XCTAssertEqual(f.policy.supportedMask, f.policy.applicationMask) }),
            Scenario(name: "an invalid desktop-file mask is no declaration", setup: { f in f.claim(); f.device(.portrait) },
                     action: { f in f.focus(landscapeApp, desktopFile: OrientationMask(rawValue: 1)) }, orientation: P,
                     check: { f in XCTAssertEqual(f.policy.focusedDeclaration, .none) }),
        ])
    }

    func testP6a_overrideThenConfigThenDesktopFile() {
        let configured = PolicyConfiguration(applications: [landscapeApp: mPortraitMask])
        let f = Fixture(configured)
        XCTAssertEqual(f.policy.declaration(of: landscapeApp, desktopFile: mLandscapeMask),
                       ApplicationDeclarationInForce(mask: mPortraitMask, source: .config))
        XCTAssertEqual(f.policy.declaration(of: plainApp, desktopFile: mLandscapeMask),
                       ApplicationDeclarationInForce(mask: mLandscapeMask, source: .desktopFile))
        XCTAssertEqual(f.policy.declaration(of: plainApp, desktopFile: nil), .none)
        XCTAssertNoThrow(try f.policy.setApplicationOrientations(landscapeApp, mAll))
        XCTAssertEqual(f.policy.declaration(of: landscapeApp, desktopFile: mLandscapeMask),
                       ApplicationDeclarationInForce(mask: OrientationMask(rawValue: mAll), source: .override))
        var asked = false
        _ = f.policy.declaration(of: landscapeApp, desktopFile: { asked = true; return nil }())
        XCTAssertFalse(asked, "the desktop file is not read when an override decides")
        f.policy.resetApplicationOrientations(landscapeApp)
        XCTAssertEqual(f.policy.declaration(of: landscapeApp, desktopFile: nil).source, .config)
    }

    func testP6a_anOverrideOfTheFocusedAppAppliesAtOnce() {
        run("P6a", [
            Scenario(name: "overriding the app in front to landscape turns the screen (P9)", setup: { f in
                f.claim()
                f.device(.portrait)
                f.focus(plainApp)
            }, action: { f in try f.policy.setApplicationOrientations(plainApp, mLandscape) }, orientation: LR,
                     events: rotation(P, LR), check: { f in
                         XCTAssertEqual(f.policy.focusedDeclaration.source, .override)
                         XCTAssertEqual(f.policy.applicationOverrides, [plainApp: mLandscapeMask])
                     }),
            Scenario(name: "resetting it lets the desktop file's declaration decide again", setup: { f in
                f.claim()
                f.device(.portrait)
                try f.policy.setApplicationOrientations(landscapeApp, mPortrait)
                f.focus(landscapeApp, desktopFile: mLandscapeMask)
            }, action: { f in f.policy.resetApplicationOrientations(landscapeApp) }, orientation: LR,
                     events: rotation(P, LR), check: { f in XCTAssertEqual(f.policy.focusedDeclaration.source, .desktopFile) }),
            Scenario(name: "another app's override changes nothing on screen", setup: { f in
                f.claim()
                f.device(.portrait)
                f.focus(plainApp)
            }, action: { f in try f.policy.setApplicationOrientations(landscapeApp, mLandscape) }, orientation: P,
                     events: []),
            Scenario(name: "resetting an app without an override is no error and no change",
                     action: { f in
                         f.policy.resetApplicationOrientations(plainApp)
                         XCTAssertTrue(f.policy.takeChanges().isEmpty)
                     }),
        ])
    }

    func testP6a_badOverridesAreRefusedWithNothingChanged() {
        var full = PolicyConfiguration()
        full.limits.applicationOverrides = 2
        run("P6a", [
            Scenario(name: "an id that is not a desktop-file id", action: { f in
                try f.policy.setApplicationOrientations(f.policy.applicationID("../../etc/passwd"), mPortrait)
            }, error: .invalidArgs),
            Scenario(name: "an empty id", action: { f in try f.policy.setApplicationOrientations(f.policy.applicationID(""), mPortrait) }, error: .invalidArgs),
            Scenario(name: "a reset of a bad id", action: { f in f.policy.resetApplicationOrientations(try f.policy.applicationID("a/b")) }, error: .invalidArgs),
            Scenario(name: "mask 0", action: { f in try f.policy.setApplicationOrientations(plainApp, 0) },
                     error: .invalidArgs),
            Scenario(name: "a mask with bits outside 30", action: { f in
                try f.policy.setApplicationOrientations(plainApp, 33)
            }, error: .invalidArgs),
            Scenario(name: "one override more than the limit", configuration: full, setup: { f in
                try f.policy.setApplicationOrientations(f.policy.applicationID("a.one"), mPortrait)
                try f.policy.setApplicationOrientations(f.policy.applicationID("a.two"), mPortrait)
            }, action: { f in try f.policy.setApplicationOrientations(f.policy.applicationID("a.three"), mPortrait) }, error: .limitsExceeded),
            Scenario(name: "at the limit, an existing override may still change", configuration: full, setup: { f in
                try f.policy.setApplicationOrientations(f.policy.applicationID("a.one"), mPortrait)
                try f.policy.setApplicationOrientations(f.policy.applicationID("a.two"), mPortrait)
            }, action: { f in try f.policy.setApplicationOrientations(f.policy.applicationID("a.two"), mLandscape) },
                     check: { f in XCTAssertEqual(f.policy.applicationOverrides[ApplicationID(rawValue: "a.two")!], mLandscapeMask) }),
        ])
    }

    func testP6a_aRegisteredWindowTakesItsApplicationsDeclaration() {
        run("P6a", [
            Scenario(name: "a window without a delegate mask in the focused process takes the app's declaration",
                     setup: { f in
                         f.claim()
                         f.device(.portrait)
                         f.windowsNamed["b"] = try f.window(B)
                     }, action: { f in f.focus(landscapeApp, pidB, desktopFile: mLandscapeMask) }, orientation: LR,
                     events: rotation(P, LR), check: { f in
                         XCTAssertEqual(f.policy.keyWindow, f.w("b"))
                         XCTAssertEqual(f.policy.supportedMask(of: f.w("b")), mLandscapeMask)
                     }),
            Scenario(name: "its delegate's mask wins over the declaration (P2)", setup: { f in
                f.claim()
                f.device(.portrait)
                f.windowsNamed["b"] = try f.window(B, delegate: mAll)
            }, action: { f in f.focus(landscapeApp, pidB, desktopFile: mLandscapeMask) }, orientation: P, events: [],
                     check: { f in XCTAssertEqual(f.policy.supportedMask(of: f.w("b")).rawValue, mAll) }),
            Scenario(name: "the window gives the declaration back when its process loses focus", setup: { f in
                f.windowsNamed["b"] = try f.window(B)
                f.focus(landscapeApp, pidB, desktopFile: mLandscapeMask)
            }, action: { f in f.focus(plainApp, pidA) }, check: { f in
                XCTAssertEqual(f.policy.supportedMask(of: f.w("b")), f.policy.applicationMask)
            }),
            Scenario(name: "the authority leaving clears the application and its declaration", setup: { f in
                f.windowsNamed["b"] = try f.window(B)
                f.focus(landscapeApp, pidB, desktopFile: mLandscapeMask)
            }, action: { f in f.policy.clientLeft(focusWatcher) }, check: { f in
                XCTAssertNil(f.policy.focusedApplication)
                XCTAssertEqual(f.policy.focusedDeclaration, .none)
                XCTAssertEqual(f.policy.supportedMask(of: f.w("b")), f.policy.applicationMask)
            }),
        ])
    }

    func testP6a_focusChangesNameTheManagersProperties() {
        let f = Fixture()
        _ = f.policy.takeChanges()
        f.focus(landscapeApp, desktopFile: mLandscapeMask)
        let changes = f.policy.takeChanges()
        XCTAssertEqual(changes.manager.names, ["SupportedMask", "FocusedProcess", "FocusedApplication", "FocusedApplicationMask",
                                               "FocusedApplicationSource"])
        f.focus(landscapeApp, desktopFile: mLandscapeMask)
        XCTAssertTrue(f.policy.takeChanges().isEmpty, "the same focus again changes nothing")
        XCTAssertNoThrow(try f.policy.setApplicationOrientations(landscapeApp, mLandscape))
        XCTAssertEqual(f.policy.takeChanges().manager.names, ["FocusedApplicationSource", "ApplicationOrientations"])

        let window = try! f.policy.registerWindow(client: B, user: 20, process: pidB)
        f.focus(landscapeApp, pidB, desktopFile: mLandscapeMask)
        _ = f.policy.takeChanges()
        f.focus(plainApp, pidA)
        XCTAssertEqual(f.policy.takeChanges().windows[window]?.names.contains("SupportedMask"), true,
                       "a window giving its application's declaration back announces its SupportedMask")
    }
}
