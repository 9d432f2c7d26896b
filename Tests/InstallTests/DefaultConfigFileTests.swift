// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Foundation
import XCTest
import Orientation
@testable import Service
import TestSupport
@testable import Configuration

/// data/orientationd.conf, installed as the default config file, lists every key the daemon reads,
/// each commented out with its default, so it cannot drift from the code.
final class DefaultConfigFileTests: XCTestCase {
    /// Keys whose default is "not set": the file shows an example value instead, and says so.
    static let unsetByDefault: Set = ["SupportedOrientations", "PortraitSize", "MountMatrix"]

    private let text = TestSupport.readText(packageRoot + "/data/orientationd.conf")

    /// The `#Key=value` lines by group, and any line that sets a key.
    private func entries() -> (commented: [String: [String: String]], set: [String], comments: [String: String]) {
        var commented: [String: [String: String]] = [:]
        var set: [String] = []
        var comments: [String: String] = [:]
        var group = ""
        var comment = ""
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            if let match = line.firstMatch(of: /^\[([A-Za-z]+)\]$/) {
                group = String(match.output.1)
            } else if let match = line.firstMatch(of: /^#([A-Za-z]+)=(.*)$/) {
                commented[group, default: [:]][String(match.output.1)] = String(match.output.2)
                comments[String(match.output.1)] = comment
            } else if line.hasPrefix("#") {
                comment += line + "\n"
                continue
            } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                set.append(line)
            }
            comment = ""
        }
        return (commented, set, comments)
    }

    func testEveryKeyTheDaemonReadsIsListedAndNoOther() {
        let found = entries().commented.mapValues { Set($0.keys) }
        XCTAssertEqual(Set(found.keys), Set(ConfigFile.known.keys), "the groups")
        for (group, keys) in ConfigFile.known {
            XCTAssertEqual(found[group] ?? [], keys, "the keys of [\(group)]")
        }
    }

    func testTheFileSetsNothing() {
        let set = entries().set.filter { !$0.hasPrefix("[") }
        XCTAssertEqual(set, [], "every key is commented out, so the file means the defaults")
    }

    /// With every key uncommented the daemon reads the file without a warning, and gets its own
    /// defaults back, but for the keys that are not set by default, whose example the file says is one.
    func testUncommentedTheKeysAreTheDefaults() throws {
        let (_, _, comments) = entries()
        for key in Self.unsetByDefault {
            XCTAssertTrue(comments[key]?.contains("Not set by default") == true, "the comment above \(key) says it is not set")
        }
        let uncommented = text.replacing(/(?m)^#([A-Za-z]+=)/) { String($0.output.1) }
        let directory = makeTempDirectory("orientationd-conf")
        defer { _ = runTool(["rm", "-rf", directory]) }
        let path = directory + "/orientationd.conf"
        writeText(path, uncommented)

        var settings = Settings()
        let warnings = try ConfigFile.apply(path: path, optional: false, to: &settings)
        XCTAssertEqual(warnings, [])

        let defaults = Settings()
        XCTAssertEqual(settings.policy.idiom, defaults.policy.idiom)
        XCTAssertNil(settings.idiomFile, "Idiom=auto: the chassis decides")
        XCTAssertEqual(settings.policy.limits, defaults.policy.limits)
        XCTAssertEqual(settings.queueLimits, defaults.queueLimits)
        XCTAssertEqual(settings.rotationDuration, defaults.rotationDuration)
        XCTAssertEqual(settings.sensor, defaults.sensor)
        XCTAssertEqual(settings.pollHz, defaults.pollHz)
        XCTAssertEqual(settings.classifier, defaults.classifier)
        XCTAssertEqual(settings.privilegedUsers, defaults.privilegedUsers)
        XCTAssertEqual(settings.privilegedGroups, defaults.privilegedGroups)
        XCTAssertEqual(settings.sensorProxyCompat, defaults.sensorProxyCompat)
        // The examples of the keys not set by default: valid, and the idiom's own mask for the phone.
        XCTAssertEqual(settings.policy.applicationMask, .allButUpsideDown)
        XCTAssertNotNil(settings.portraitSize)
        XCTAssertNotNil(settings.mountMatrix)
    }
}
