// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
@testable import Policy
import XCTest

extension Fixture {
    /// The focus authority reports `report`.
    func report(_ report: FocusReport) {
        policy.setFocus(report, authority: focusWatcher)
    }
}

let tablet = PolicyConfiguration(idiom: .tablet)

/// A focus that clears is a focus change (Docs/applications.md, "Screen size: phones and tablets"): P9,
/// then P10, as for any other.
final class P9_P10_FocusClearedTests: XCTestCase {
    func testP9_P10_aFocusThatClearsFollowsTheDeviceAgain() {
        let upright: (Fixture) -> Void = { f in
            f.claim()
            f.device(.portrait)
            f.focus(landscapeApp, desktopFile: mLandscapeMask)
        }
        run("P9, P10", [
            Scenario(name: "the reporter leaves the bus: the screen turns back to the upright device", setup: upright,
                     action: { f in f.policy.clientLeft(focusWatcher) }, orientation: P, events: rotation(LR, P), check: { f in
                         XCTAssertNil(f.policy.focusedApplication)
                         XCTAssertNil(f.policy.focusAuthority)
                         XCTAssertEqual(f.policy.focusedDeclaration, .none)
                     }),
            Scenario(name: "the reporter reports no application: the same", setup: upright,
                     action: { f in f.focus(nil, 0) }, orientation: P, events: rotation(LR, P),
                     check: { f in XCTAssertEqual(f.policy.focusAuthority, focusWatcher) }),
            Scenario(name: "the reporter reports an unknown application in a process: the same", setup: upright,
                     action: { f in f.focus(nil, 777) }, orientation: P, events: rotation(LR, P)),
            Scenario(name: "locked: the screen stays where the app left it (P9 keeps a supported orientation)", setup: { f in
                upright(f)
                f.policy.setRotationLocked(true)
            }, action: { f in f.policy.clientLeft(focusWatcher) }, orientation: LR, events: []),
            Scenario(name: "a device the application mask does not allow: P9 only", configuration:
                        PolicyConfiguration(applicationMask: OrientationMask(rawValue: mLandscape)), setup: { f in
                f.claim()
                f.device(.portrait)
                f.focus(landscapeApp, desktopFile: mLandscapeMask)
            }, action: { f in f.policy.clientLeft(focusWatcher) }, orientation: LR, events: []),
            Scenario(name: "another client leaving is no focus change", setup: { f in
                upright(f)
                f.claim(":1.77")
            }, action: { f in f.policy.clientLeft(":1.77") }, orientation: LR, events: []),
        ])
    }
}

/// Screen size (applications.md): on a tablet a declaration binds only while its window fills the
/// screen; the user's override always binds; `[Applications] Declarations` changes the default.
final class P6a_ScreenSizeTests: XCTestCase {
    func testP6a_onATabletADeclarationBindsOnlyFullscreen() {
        let windowed = FocusReport(landscapeApp, process: 4242, desktopFile: mLandscapeMask, fillsScreen: false)
        var fullscreen = windowed
        fullscreen.fillsScreen = true
        run("P6a", [
            Scenario(name: "a tablet: a windowed app's declaration does not bind, and says why", configuration: tablet,
                     setup: { f in f.claim(); f.device(.portrait) },
                     action: { f in f.report(windowed) }, orientation: P, events: [], check: { f in
                         XCTAssertEqual(f.policy.focusedDeclaration, ApplicationDeclarationInForce(mask: [], source: .notFullscreen))
                         XCTAssertEqual(f.policy.supportedMask, f.policy.applicationMask)
                     }),
            Scenario(name: "a tablet: a fullscreen app's declaration binds", configuration: tablet,
                     setup: { f in f.claim(); f.device(.portrait) },
                     action: { f in f.report(fullscreen) }, orientation: LR, events: rotation(P, LR),
                     check: { f in XCTAssertEqual(f.policy.focusedDeclaration.source, .desktopFile) }),
            Scenario(name: "a tablet: leaving fullscreen lets the device decide again", configuration: tablet,
                     setup: { f in f.claim(); f.device(.portrait); f.report(fullscreen) },
                     action: { f in f.report(windowed) }, orientation: P, events: rotation(LR, P)),
            Scenario(name: "a tablet: a reporter that does not say counts as fullscreen", configuration: tablet,
                     setup: { f in f.claim(); f.device(.portrait) },
                     action: { f in f.focus(landscapeApp, desktopFile: mLandscapeMask) }, orientation: LR),
            Scenario(name: "a tablet: the user's override binds windowed too", configuration: tablet,
                     setup: { f in f.claim(); f.device(.portrait); try f.policy.setApplicationOrientations(landscapeApp, mLandscape) },
                     action: { f in f.report(windowed) }, orientation: LR, events: rotation(P, LR),
                     check: { f in XCTAssertEqual(f.policy.focusedDeclaration.source, .override) }),
            Scenario(name: "a tablet: the config's declaration is a declaration like any other", configuration:
                        PolicyConfiguration(idiom: .tablet, applications: [landscapeApp: mLandscapeMask]),
                     setup: { f in f.claim(); f.device(.portrait) },
                     action: { f in f.report(FocusReport(landscapeApp, process: 4242, fillsScreen: false)) }, orientation: P,
                     check: { f in XCTAssertEqual(f.policy.focusedDeclaration.source, .notFullscreen) }),
            Scenario(name: "a tablet: an app that declares nothing is 'none', windowed or not", configuration: tablet,
                     action: { f in f.report(FocusReport(plainApp, process: 4242, fillsScreen: false)) },
                     check: { f in XCTAssertEqual(f.policy.focusedDeclaration, .none) }),
            Scenario(name: "a phone: a windowed app's declaration binds", setup: { f in f.claim(); f.device(.portrait) },
                     action: { f in f.report(windowed) }, orientation: LR, events: rotation(P, LR)),
            Scenario(name: "Declarations=fullscreen on a phone", configuration: PolicyConfiguration(declarations: .fullscreen),
                     setup: { f in f.claim(); f.device(.portrait) },
                     action: { f in f.report(windowed) }, orientation: P, events: []),
            Scenario(name: "Declarations=bind on a tablet", configuration: PolicyConfiguration(idiom: .tablet, declarations: .bind),
                     setup: { f in f.claim(); f.device(.portrait) },
                     action: { f in f.report(windowed) }, orientation: LR, events: rotation(P, LR)),
            Scenario(name: "Declarations=ignore: the device decides, even fullscreen", configuration:
                        PolicyConfiguration(declarations: .ignore),
                     setup: { f in f.claim(); f.device(.portrait) },
                     action: { f in f.report(fullscreen) }, orientation: P, events: [],
                     check: { f in XCTAssertEqual(f.policy.focusedDeclaration, ApplicationDeclarationInForce(mask: [], source: .ignored)) }),
            Scenario(name: "Declarations=ignore: the override still binds", configuration: PolicyConfiguration(declarations: .ignore),
                     setup: { f in f.claim(); f.device(.portrait); try f.policy.setApplicationOrientations(landscapeApp, mLandscape) },
                     action: { f in f.report(fullscreen) }, orientation: LR),
        ])
    }

    func testP6a_theDefaultBindingFollowsTheIdiom() {
        XCTAssertEqual(PolicyConfiguration().declarationBinding, .bind)
        XCTAssertEqual(tablet.declarationBinding, .fullscreen)
        XCTAssertEqual(PolicyConfiguration(idiom: .tablet, declarations: .ignore).declarationBinding, .ignore)
        XCTAssertEqual(try DeclarationBinding(parsing: "Fullscreen"), .fullscreen)
        XCTAssertThrowsError(try DeclarationBinding(parsing: "windowed"))
    }
}

/// The user's own desktop file (applications.md): sent by the session with the focus, below the
/// config and above the system's desktop file, and only for that report.
final class P6a_UserDesktopFileTests: XCTestCase {
    func testP6a_theUsersOwnDesktopFileDeclares() {
        run("P6a", [
            Scenario(name: "the user's file declares for an app the system's does not", setup: { f in f.claim(); f.device(.portrait) },
                     action: { f in f.report(FocusReport(plainApp, process: 4242, userDesktopFile: mLandscapeMask)) },
                     orientation: LR, events: rotation(P, LR),
                     check: { f in XCTAssertEqual(f.policy.focusedDeclaration.source, .userDesktopFile) }),
            Scenario(name: "the user's file comes before the system's", setup: { f in f.claim(); f.device(.portrait) },
                     action: { f in
                         f.report(FocusReport(landscapeApp, process: 4242, desktopFile: mLandscapeMask, userDesktopFile: mPortraitMask))
                     }, orientation: P, events: [],
                     check: { f in XCTAssertEqual(f.policy.focusedDeclaration, ApplicationDeclarationInForce(mask: mPortraitMask, source: .userDesktopFile)) }),
            Scenario(name: "the config comes before the user's file",
                     configuration: PolicyConfiguration(applications: [plainApp: mPortraitMask]),
                     action: { f in f.report(FocusReport(plainApp, process: 4242, userDesktopFile: mLandscapeMask)) },
                     check: { f in XCTAssertEqual(f.policy.focusedDeclaration.source, .config) }),
            Scenario(name: "another session's report without the file: the system's declaration again", setup: { f in
                f.claim()
                f.device(.portrait)
                f.report(FocusReport(landscapeApp, process: 4242, desktopFile: mLandscapeMask, userDesktopFile: mPortraitMask))
                f.policy.clientLeft(focusWatcher)
            }, action: { f in
                f.policy.setFocus(FocusReport(landscapeApp, process: 5252, desktopFile: mLandscapeMask), authority: ":1.99")
            }, orientation: LR, events: rotation(P, LR), check: { f in XCTAssertEqual(f.policy.focusedDeclaration.source, .desktopFile) }),
            Scenario(name: "an invalid mask from the user's file is no declaration",
                     action: { f in f.report(FocusReport(plainApp, process: 4242, userDesktopFile: OrientationMask(rawValue: 1))) },
                     check: { f in XCTAssertEqual(f.policy.focusedDeclaration, .none) }),
            Scenario(name: "resetting an override of the app in front keeps its user's file", setup: { f in
                f.claim()
                f.device(.portrait)
                try f.policy.setApplicationOrientations(plainApp, mPortrait)
                f.report(FocusReport(plainApp, process: 4242, userDesktopFile: mLandscapeMask))
            }, action: { f in f.policy.resetApplicationOrientations(plainApp) }, orientation: LR, events: rotation(P, LR),
                     check: { f in XCTAssertEqual(f.policy.focusedDeclaration.source, .userDesktopFile) }),
        ])
    }
}
