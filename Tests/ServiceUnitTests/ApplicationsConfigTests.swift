// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import Orientation
@testable import Service
import TestSupport
@testable import Configuration

/// The config's `[Applications]`: declarations per application id and `DataDirs`; a bad key or value
/// is a warning naming it, never a refusal to start, and the desktop file then decides.
final class ApplicationsConfigTests: XCTestCase {
    func read(_ text: String) throws -> (Settings, [String]) {
        let dir = makeTempDirectory("orientationd-config")
        defer { _ = runTool(["rm", "-rf", dir]) }
        writeText(dir + "/orientationd.conf", text)
        var settings = Settings()
        let warnings = try ConfigFile.apply(path: dir + "/orientationd.conf", optional: false, to: &settings)
        return (settings, warnings)
    }

    func testDeclarationsAndDataDirsAreRead() throws {
        let (settings, warnings) = try read("[Applications]\nDataDirs=/opt/apps:/srv/share\norg.gnome.Maps=portrait\n"
                                            + "org.example.Video=landscape\n")
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(settings.applicationDataDirs, ["/opt/apps", "/srv/share"])
        XCTAssertEqual(settings.policy.applications, [ApplicationID(rawValue: "org.gnome.Maps")!: .portrait,
                                                      ApplicationID(rawValue: "org.example.Video")!: .landscape])
    }

    func testBadEntriesAreWarnedAboutAndIgnored() throws {
        let (settings, warnings) = try read("[Applications]\nDataDirs=relative/dir\norg.example.Zero=0\norg.example.Word=sideways\n"
                                            + "org.example.Good=all\n")
        XCTAssertNil(settings.applicationDataDirs)
        XCTAssertEqual(settings.policy.applications, [ApplicationID(rawValue: "org.example.Good")!: .all])
        XCTAssertEqual(warnings.count, 3, "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.contains("relative/dir") && $0.contains("not an absolute directory") }, "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.contains("org.example.Zero=0") && $0.contains("desktop file decides") }, "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.contains("org.example.Word=sideways") }, "\(warnings)")
    }

    func testDeclarationsSaysWhenDeclarationsBind() throws {
        XCTAssertNil(try read("[Applications]\nDeclarations=\n").0.policy.declarations, "empty: the idiom's default")
        XCTAssertEqual(try read("[Application]\nIdiom=tablet\n").0.policy.declarationBinding, .fullscreen)
        let (settings, warnings) = try read("[Application]\nIdiom=tablet\n[Applications]\nDeclarations=bind\n")
        XCTAssertEqual(warnings, [])
        XCTAssertEqual(settings.policy.declarationBinding, .bind)
        let (bad, badWarnings) = try read("[Application]\nIdiom=tablet\n[Applications]\nDeclarations=windowed\n")
        XCTAssertEqual(bad.policy.declarationBinding, .fullscreen)
        XCTAssertEqual(badWarnings.count, 1, "\(badWarnings)")
        XCTAssertTrue(badWarnings.first?.contains("'windowed' is not a way for declarations to bind") ?? false, "\(badWarnings)")
        XCTAssertTrue(badWarnings.first?.contains("fullscreen on a tablet) stays") ?? false, "the idiom's default: \(badWarnings)")
    }
}
