// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import Orientation
@testable import Service
import TestSupport
@testable import Configuration

/// A config value that is not UTF-8 is told, never taken for a missing key: GKeyFile reads such a
/// value as absent, which would start the daemon from the default without a word. A bad value is
/// quoted short.
final class ConfigTextTests: XCTestCase {
    func apply(_ bytes: [UInt8]) throws(StartupError) -> (Settings, [String]) {
        let dir = makeTempDirectory("orientationd-config")
        defer { _ = runTool(["rm", "-rf", dir]) }
        let path = dir + "/orientationd.conf"
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        var settings = Settings()
        let warnings = try ConfigFile.apply(path: path, optional: false, to: &settings)
        return (settings, warnings)
    }

    func testAValueThatIsNotUTF8StopsTheStartNamingIt() {
        XCTAssertThrowsError(try apply(Array("[Application]\nIdiom=".utf8) + [0xff, 0x0a])) { error in
            let message = (error as? StartupError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("[Application] Idiom: the value is not UTF-8 text"), message)
        }
    }

    func testAnApplicationsValueThatIsNotUTF8IsAWarning() throws {
        let (settings, warnings) = try apply(Array("[Applications]\norg.example.Bad=".utf8) + [0xfe, 0x0a]
                                             + Array("org.example.Good=portrait\n".utf8))
        XCTAssertEqual(settings.policy.applications, [ApplicationID(rawValue: "org.example.Good")!: .portrait])
        XCTAssertEqual(warnings.count, 1, "\(warnings)")
        XCTAssertTrue(warnings[0].contains("org.example.Bad: the value is not UTF-8 text, ignored"), "\(warnings)")
    }

    func testALongValueIsQuotedShort() {
        XCTAssertThrowsError(try apply(Array(("[Application]\nIdiom=" + String(repeating: "x", count: 100_000) + "\n").utf8))) { error in
            let message = (error as? StartupError)?.message ?? "\(error)"
            XCTAssertTrue(message.contains("Idiom=" + String(repeating: "x", count: 80) + "… (100000 bytes): "), message)
            XCTAssertLessThan(message.count, 400, message)
        }
    }
}

/// The settings a config of `text` gives, which must warn of nothing.
func applyWithoutWarnings(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws(StartupError) -> Settings {
    let dir = makeTempDirectory("orientationd-config")
    defer { _ = runTool(["rm", "-rf", dir]) }
    let path = dir + "/orientationd.conf"
    XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)), file: file, line: line)
    var settings = Settings()
    let warnings = try ConfigFile.apply(path: path, optional: false, to: &settings)
    XCTAssertEqual(warnings, [], file: file, line: line)
    return settings
}

/// `[Posture] Rotate` (P18) and `[Lock] SuggestionSeconds` (P19): read, and refused saying what is accepted.
final class PostureAndLockConfigTests: XCTestCase {
    func apply(_ text: String) throws(StartupError) -> Settings { try applyWithoutWarnings(text) }

    func testTheDefaultsTurnInEveryPostureButLaptopAndSuggestFor20Seconds() throws {
        let settings = try apply("")
        XCTAssertEqual(settings.policy.rotatingPostures, [.stand, .tent, .tablet, .unknown])
        XCTAssertEqual(settings.suggestionSeconds, 20)
        XCTAssertTrue(settings.policy.suggestsRotation)
    }

    func testRotateAndSuggestionSecondsAreRead() throws {
        var settings = try apply("[Posture]\nRotate=tablet; unknown\n[Lock]\nSuggestionSeconds=5\n")
        XCTAssertEqual(settings.policy.rotatingPostures, [.tablet, .unknown])
        XCTAssertEqual(settings.suggestionSeconds, 5)
        settings = try apply("[Posture]\nRotate=\n[Lock]\nSuggestionSeconds=0\n")
        XCTAssertEqual(settings.policy.rotatingPostures, [], "empty: never turn")
        XCTAssertFalse(settings.policy.suggestsRotation, "0: never suggest")
    }

    func testBadValuesStopTheStartSayingWhatIsAccepted() {
        let cases = [
            ("[Posture]\nRotate=tablet;folded\n", "[Posture] Rotate=tablet;folded: 'folded' is not a posture; accepted: laptop, stand, tent, tablet, unknown"),
            ("[Lock]\nSuggestionSeconds=601\n", "[Lock] SuggestionSeconds=601: accepted: whole seconds from 0 (never suggest) to 600"),
            ("[Lock]\nSuggestionSeconds=2.5\n", "accepted: whole seconds"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try apply(text)) { error in
                let message = (error as? StartupError)?.message ?? "\(error)"
                XCTAssertTrue(message.contains(expected), message)
            }
        }
    }
}

/// `[Posture]`'s hinge thresholds: read, and refused when out of range or overlapping.
final class PostureThresholdConfigTests: XCTestCase {
    func apply(_ text: String) throws(StartupError) -> Settings {
        try applyWithoutWarnings(text)
    }

    func testThresholdsAreReadAndCheckedTogether() throws {
        let settings = try apply("[Posture]\nLaptopAngle=170\nTabletAngle=320\nHysteresis=5\nTentKeyboardAngle=45\n")
        XCTAssertEqual(settings.postureThresholds.laptopAngle, 170)
        XCTAssertEqual(settings.postureThresholds.tabletAngle, 320)
        XCTAssertEqual(settings.postureThresholds.hysteresis, 5)
        XCTAssertEqual(settings.postureThresholds.tentKeyboardAngle, 45)
        for (text, expected) in [("[Posture]\nTabletAngle=400\n", "[Posture] TabletAngle=400: accepted: degrees from 100.0 to 360.0"),
                                 ("[Posture]\nLaptopAngle=300\nTabletAngle=310\n", "[Posture]: LaptopAngle + 2 × Hysteresis must be below TabletAngle")] {
            XCTAssertThrowsError(try apply(text)) { error in
                let message = (error as? StartupError)?.message ?? "\(error)"
                XCTAssertTrue(message.contains(expected), message)
            }
        }
    }
}
