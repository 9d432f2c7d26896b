@preconcurrency import Glibc
import XCTest
import TestSupport

/// `orientationctl completions SHELL`, run from the built binary: each script is valid for its real
/// shell, names every command, and answers completion queries as the command table says.
final class CompletionTests: XCTestCase {
    static let commands = ["status", "get", "monitor", "lock", "unlock", "set-device", "inject", "app-mask", "app",
                           "attempt", "window", "follow", "relay-focus", "completions", "help"]

    private func script(_ shell: String) throws -> String {
        let result = runTool([orientationctl, "completions", shell])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let path = makeTempDirectory("orientationctl-completions") + "/orientationctl." + shell
        writeText(path, result.stdout)
        return path
    }

    func testEachScriptIsValidForItsShellAndNamesEveryCommand() throws {
        for shell in ["bash", "zsh", "fish"] {
            let path = try script(shell)
            let check = runTool([shell, "-n", path])
            XCTAssertEqual(check.status, 0, "\(shell) -n: \(check.stderr)")
            let text = readText(path)
            // Options as fish writes them too (`-l json`), and values of operands and options.
            for word in Self.commands + ["address", "json", "delegate-mask", "no-autorotate", "navigation", "landscape-left"] {
                XCTAssertTrue(text.contains(word), "the \(shell) script does not name \(word)")
            }
        }
    }

    func testBashCompletesCommandsOptionsAndValues() throws {
        let path = try script("bash")
        let queries = """
            source \(path)
            q() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _orientationctl; echo "${COMPREPLY[*]}"; }
            q orientationctl ''
            q orientationctl --address unix:path=/x se
            q orientationctl window --root ''
            q orientationctl window --no
            q orientationctl help comp
            q orientationctl --json app-mask all
            """
        let result = runTool(["bash", "-c", queries])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), [
            Self.commands.joined(separator: " "),
            "set-device",
            "view navigation tab",
            "--no-autorotate",
            "completions",
            "all all-but-upside-down",
            "",
        ])
    }

    func testFishCompletesCommandsAndValues() throws {
        let path = try script("fish")
        func complete(_ line: String) -> [String] {
            let result = runTool(["fish", "-c", "source \(path); complete -C '\(line)'"])
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        XCTAssertEqual(complete("orientationctl wi"), ["window"])
        XCTAssertEqual(complete("orientationctl --address x window --root "), ["navigation", "tab", "view"])
        XCTAssertEqual(complete("orientationctl completions "), ["bash", "fish", "zsh"])
    }

    func testAnUnknownShellIsAUsageError() {
        let result = runTool([orientationctl, "completions", "tcsh"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("unknown shell 'tcsh'; accepted: bash, zsh, fish"), result.stderr)
    }
}
