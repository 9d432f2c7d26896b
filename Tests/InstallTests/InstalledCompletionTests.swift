// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Foundation
import XCTest
import TestSupport

/// The completion scripts `make install` writes with the built `orientationctl completions SHELL`:
/// each lands where its shell looks, is the script the client prints, reads as valid in its shell,
/// and, sourced from where it was installed, completes the commands `orientationctl --help` lists
/// (asking the installed `orientationctl`, on PATH as it is once installed).
final class InstalledCompletionTests: XCTestCase {
    static let scripts = ["bash": "share/bash-completion/completions/orientationctl",
                          "zsh": "share/zsh/site-functions/_orientationctl",
                          "fish": "share/fish/vendor_completions.d/orientationctl.fish"]

    /// The commands of `orientationctl --help`.
    private func helpCommands() -> Set<String> {
        let overview = runTool([programsDirectory() + "/orientationctl", "--help"]).stdout
        var names: Set<String> = []
        var inCommands = false
        for line in overview.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("Commands:") { inCommands = true; continue }
            if inCommands, line.isEmpty { break }
            if inCommands, let name = line.firstMatch(of: /^  ([a-z][a-z-]*)/) { names.insert(String(name.output.1)) }
        }
        return names
    }

    func testEachShellsScriptIsInstalledWhereItLooksAndReads() throws {
        let install = try Installation()
        defer { install.remove() }
        for (shell, check) in [("bash", ["bash", "-n"]), ("zsh", ["zsh", "-n"]), ("fish", ["fish", "--no-execute"])] {
            let path = "\(install.prefix)/\(Self.scripts[shell]!)"
            let printed = runTool([programsDirectory() + "/orientationctl", "completions", shell])
            XCTAssertEqual(printed.status, 0, printed.stderr)
            XCTAssertEqual(TestSupport.readText(path), printed.stdout, "\(path) is what 'orientationctl completions \(shell)' prints")
            guard toolExists(shell) else { throw unavailable("\(shell) is not installed") }
            let result = runTool(check + [path])
            XCTAssertEqual(result.status, 0, "\(shell): \(result.stderr)")
        }
    }

    /// bash registers the function with `complete` when it reads the installed file; the test calls
    /// that function as bash's completion does, with COMP_WORDS and COMP_CWORD set.
    func testTheInstalledBashScriptCompletesTheCommandsOfTheHelp() throws {
        let install = try Installation()
        defer { install.remove() }
        let query = #"""
            . "$1"; shift
            spec=$(complete -p orientationctl) || exit 3
            function=${spec##*-F }; function=${function%% *}
            COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
            "$function" orientationctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\n' "${COMPREPLY[@]}"
            """#
        func complete(_ words: String...) -> [String] {
            let result = runTool(["env", "PATH=\(install.prefix)/bin:/usr/bin:/bin", "bash", "--norc", "--noprofile", "-c", query, "bash",
                                  "\(install.prefix)/\(Self.scripts["bash"]!)"] + words)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout.split(separator: "\n").map(String.init)
        }
        let commands = helpCommands()
        XCTAssertGreaterThan(commands.count, 10, "the help lists the commands")
        XCTAssertEqual(Set(complete("orientationctl", "")), commands)
        XCTAssertEqual(complete("orientationctl", "set-d"), ["set-device"])
        XCTAssertEqual(complete("orientationctl", "completions", ""), ["bash", "zsh", "fish"])
    }

    func testTheInstalledFishScriptCompletesTheCommandsOfTheHelp() throws {
        guard toolExists("fish") else { throw unavailable("fish is not installed") }
        let install = try Installation()
        defer { install.remove() }
        func complete(_ line: String) -> [String] {
            let result = runTool(["env", "PATH=\(install.prefix)/bin:/usr/bin:/bin", "fish", "--no-config", "-c",
                                  "source $argv[1]; complete -C $argv[2]",
                                  "\(install.prefix)/\(Self.scripts["fish"]!)", line])
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        }
        XCTAssertEqual(Set(complete("orientationctl ")), helpCommands())
        XCTAssertEqual(complete("orientationctl set-d"), ["set-device"])
    }
}
