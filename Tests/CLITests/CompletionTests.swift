// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import TestSupport

/// `orientationctl completions SHELL`, run from the built binary in the real shells: each script is
/// valid for its shell and asks `orientationctl __complete`, which offers what may follow where the
/// cursor is (a command's operands by position, application ids from desktop files and the daemon's
/// overrides, masks after an id), never a word that cannot follow.
final class CompletionTests: XCTestCase {
    static let commands = ["status", "get", "monitor", "lock", "unlock", "accept-suggestion", "set-device", "inject", "app-mask", "app",
                           "attempt", "window", "focus", "follow", "report-focus", "relay-focus", "config", "calibrate", "completions", "help"]

    private func script(_ shell: String) throws -> String {
        let result = runTool([orientationctl, "completions", shell])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let path = makeTempDirectory("orientationctl-completions") + "/orientationctl." + shell
        writeText(path, result.stdout)
        return path
    }

    /// A data directory with two applications' desktop files, for `XDG_DATA_DIRS`.
    private func dataDirectory() -> String {
        let dir = makeTempDirectory("orientationctl-data")
        mkdir(dir + "/applications", 0o755)
        writeText(dir + "/applications/org.example.Player.desktop", "[Desktop Entry]\nName=Player\n")
        writeText(dir + "/applications/org.example.Maps.desktop", "[Desktop Entry]\nName=Maps\n")
        return dir
    }

    func testEachScriptIsValidForItsShellAndAsksTheTool() throws {
        for shell in ["bash", "zsh", "fish"] {
            let path = try script(shell)
            let check = runTool([shell, "-n", path])
            XCTAssertEqual(check.status, 0, "\(shell) -n: \(check.stderr)")
            XCTAssertTrue(readText(path).contains("__complete --"), "the \(shell) script does not ask orientationctl")
        }
    }

    func testBashCompletesEachPositionWithWhatMayFollow() throws {
        let path = try script("bash")
        let data = dataDirectory()
        let queries = """
            source \(path)
            q() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _orientationctl; echo "${COMPREPLY[*]}"; }
            q \(orientationctl) ''
            q \(orientationctl) --address unix:path=/x se
            q \(orientationctl) window --root ''
            q \(orientationctl) window --no
            q \(orientationctl) help comp
            q \(orientationctl) --json app-mask all
            q \(orientationctl) app ''
            q \(orientationctl) app set ''
            q \(orientationctl) app set org.example.Player ''
            q \(orientationctl) app set org.example.Player portrait ''
            q \(orientationctl) app show org.example.M
            q \(orientationctl) app list ''
            q \(orientationctl) focus org.
            q \(orientationctl) lock ''
            q \(orientationctl) status --js
            """
        let result = runTool(["env", "XDG_DATA_DIRS=\(data)", "bash", "-c", queries])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), [
            Self.commands.joined(separator: " "),
            "set-device",
            "view navigation tab",
            "--no-ask-password --no-autorotate",
            "completions",
            "all all-but-upside-down",
            "set reset list show",
            "org.example.Maps org.example.Player",
            "portrait landscape-right landscape-left portrait-upside-down landscape all all-but-upside-down",
            "",
            "org.example.Maps",
            "",
            "org.example.Maps org.example.Player",
            "",
            "--json",
            "",
        ])
    }

    /// The overrides the daemon keeps count as application ids, though no desktop file names them.
    func testApplicationIDsIncludeTheDaemonsOverrides() throws {
        let world = try World()
        defer { _ = world.tearDown() }
        let fixture = try DaemonFixture(in: world)
        defer { _ = fixture.stop() }
        XCTAssertEqual(fixture.ctl("app", "set", "org.example.OnlyAnOverride", "portrait").status, 0)
        let data = dataDirectory()
        let result = runTool(["env", "XDG_DATA_DIRS=\(data)", orientationctl, "__complete", "--", "--address", fixture.bus.address,
                              "app", "reset", ""])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") },
                       ["org.example.Maps", "org.example.OnlyAnOverride", "org.example.Player"])
    }

    func testZshOffersTheSameWords() throws {
        guard toolExists("zsh") else { throw unavailable("zsh is not installed") }
        let path = try script("zsh")
        // _describe is replaced by a stand-in that prints what it was given.
        let queries = """
            compdef() { :; }
            _describe() { print -l -- "${(@P)4}"; }
            source \(path)
            words=(\(orientationctl) app set org.example.Player la); CURRENT=5; _orientationctl
            """
        let result = runTool(["zsh", "-f", "-c", queries])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").map(String.init), ["landscape-right:", "landscape-left:", "landscape:"])
    }

    func testFishCompletesCommandsAndValues() throws {
        let path = try script("fish")
        func complete(_ line: String) -> [String] {
            let result = runTool(["fish", "-c", "source \(path); complete -C '\(orientationctl) \(line)'"])
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        XCTAssertEqual(complete("wi"), ["window"])
        XCTAssertEqual(complete("--address x window --root "), ["navigation", "tab", "view"])
        XCTAssertEqual(complete("completions "), ["bash", "fish", "zsh"])
        XCTAssertEqual(complete("app "), ["list", "reset", "set", "show"])
    }

    func testAnUnknownShellIsAUsageError() {
        let result = runTool([orientationctl, "completions", "tcsh"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("unknown shell 'tcsh'; accepted: bash, zsh, fish"), result.stderr)
    }
}
