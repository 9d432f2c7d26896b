// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Foundation
import XCTest
@testable import Service
import TestSupport
@testable import Configuration

/// The manual pages render without a warning, and name every option, command and key the programs
/// accept, so a new one cannot go undocumented.
final class ManualPageTests: XCTestCase {
    static let pages = ["man8/orientationd.8", "man1/orientationctl.1", "man5/orientationd.conf.5"]

    /// The scdoc source of a page, e.g. `orientationd.8`.
    private func source(_ page: String) -> String { TestSupport.readText("\(packageRoot)/man/\(page).scd") }

    /// `--flags` at the start of lines of a help text.
    private func options(in help: String) -> Set<String> {
        Set(help.split(separator: "\n").compactMap { $0.firstMatch(of: /^\s+(--[a-z][a-z-]*)/).map { String($0.output.1) } })
    }

    /// Whether the page has an entry (a line of its own, maybe indented) for `flag`, not only a mention.
    private func describes(_ page: String, _ flag: String) -> Bool {
        page.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("*\(flag)*") }
    }

    private func help(_ program: String, _ arguments: [String] = ["--help"]) -> String {
        let result = runTool([programsDirectory() + "/" + program] + arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout
    }

    func testGroffRendersTheInstalledPagesWithoutWarnings() throws {
        guard toolExists("groff") else { throw unavailable("groff is not installed") }
        let install = try Installation()
        defer { install.remove() }
        for page in Self.pages {
            let path = "\(install.prefix)/share/man/\(page)"
            XCTAssertTrue(FileManager.default.fileExists(atPath: path), path)
            let result = runTool(["groff", "-ww", "-z", "-man", path])
            XCTAssertEqual(result.status, 0, "\(page): \(result.stderr)")
            XCTAssertEqual(result.stderr, "", page)
        }
    }

    func testOrientationdPageNamesEveryOption() {
        let flags = options(in: help("orientationd"))
        XCTAssertTrue(flags.contains("--sensor-proxy-compat"), "the help text lists the options: \(flags)")
        let page = source("orientationd.8")
        for flag in flags {
            XCTAssertTrue(describes(page, flag), "orientationd(8) does not describe \(flag)")
        }
        for status in ["*0*", "*1*", "*2*"] { XCTAssertTrue(page.contains("\n\(status)\n"), "exit status \(status)") }
    }

    /// Each command of the overview, and each option of each command's own help.
    func testOrientationctlPageNamesEveryCommandAndOption() {
        let overview = help("orientationctl")
        let page = source("orientationctl.1")
        var commands: [String] = []
        var inCommands = false
        for line in overview.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("Commands:") { inCommands = true; continue }
            if inCommands, line.isEmpty { break }
            if inCommands, let name = line.firstMatch(of: /^  ([a-z][a-z-]*)/) { commands.append(String(name.output.1)) }
        }
        XCTAssertGreaterThan(commands.count, 5, "the overview lists the commands: \(overview)")
        for command in commands {
            XCTAssertNotNil(page.firstMatch(of: try! Regex("\\n\\*\(command)\\*( |\\n)")), "orientationctl(1) has no entry for \(command)")
            for flag in options(in: help("orientationctl", ["help", command])) {
                XCTAssertTrue(describes(page, flag), "orientationctl(1) does not describe \(command) \(flag)")
            }
        }
        for flag in options(in: overview) {
            XCTAssertTrue(describes(page, flag), "orientationctl(1) does not describe \(flag)")
        }
        for status in ["*0*", "*1*", "*2*"] { XCTAssertTrue(page.contains("\n\(status)\n"), "exit status \(status)") }
    }

    func testConfigPageNamesEveryKeyTheDaemonReads() {
        let page = source("orientationd.conf.5")
        for (group, keys) in ConfigFile.known {
            XCTAssertTrue(page.contains("\n# \(group.uppercased())\n"), "orientationd.conf(5) has no section for [\(group)]")
            for key in keys {
                XCTAssertTrue(page.contains("*\(key)=*"), "orientationd.conf(5) does not describe [\(group)] \(key)")
            }
        }
    }
}
