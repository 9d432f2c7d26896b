// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import TestSupport

/// Every ```console block of Docs/dbus-api.md runs, as written, against a fresh daemon.
final class DocExamplesTests: XCTestCase {
    struct Example {
        var line: Int
        var command: String
        var expected: [String]
    }

    /// The ```console blocks: `$ command` lines, each followed by its expected output.
    static func consoleBlocks(_ markdown: String) -> [[Example]] {
        var blocks: [[Example]] = []
        var current: [Example]?
        for (index, raw) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            if current == nil {
                if line.trimmingPrefix(while: \.isWhitespace) == "```console" { current = [] }
                continue
            }
            if line.hasPrefix("```") {
                blocks.append(current!)
                current = nil
            } else if line.hasPrefix("$ ") {
                current!.append(Example(line: index + 1, command: String(line.dropFirst(2)), expected: []))
            } else if !current!.isEmpty {
                current![current!.count - 1].expected.append(line)
            }
        }
        return blocks
    }

    /// Exact, except that an expected line ending in `…` only has to be a prefix.
    static func matches(_ actual: [String], _ expected: [String]) -> Bool {
        guard actual.count == expected.count else { return false }
        return zip(actual, expected).allSatisfy { a, e in
            e.hasSuffix("…") ? a.hasPrefix(e.dropLast()) : a == e
        }
    }

    func testConsoleExamplesInTheApiDocumentPrintWhatTheySay() throws {
        let markdown = try XCTUnwrap(readPackageFile("Docs/dbus-api.md"), "Docs/dbus-api.md is missing")
        let blocks = Self.consoleBlocks(markdown)
        XCTAssertGreaterThanOrEqual(blocks.count, 5, "the document shows its examples in ```console blocks")
        let commands = blocks.joined().map(\.command)
        for tool in ["busctl --address=$ADDRESS", "dbus-send --bus=$ADDRESS", "gdbus call --address $ADDRESS"] {
            XCTAssertTrue(commands.contains { $0.hasPrefix(tool) }, "no example uses \(tool)")
        }
        for tool in ["busctl", "dbus-send", "gdbus"] where !toolExists(tool) {
            throw unavailable("\(tool) is not installed")
        }
        for block in blocks where !block.isEmpty {
            let world = try World()
            defer { _ = world.tearDown() }
            try world.startDaemon(checked: false)
            for example in block {
                // stderr joins stdout in order, as a terminal shows them.
                let result = runTool(["env", "ADDRESS=\(world.bus.address)", "LC_ALL=C.UTF-8", "SYSTEMD_COLORS=0",
                                      "SYSTEMD_PAGER=", "sh", "-c", "exec 2>&1; " + example.command])
                var actual = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                if actual.last == "" { actual.removeLast() }
                var expected = example.expected
                while expected.last == "" { expected.removeLast() }
                if !Self.matches(actual, expected) {
                    XCTFail("""
                        Docs/dbus-api.md:\(example.line): $ \(example.command)
                        expected:
                        \(expected.joined(separator: "\n"))
                        got:
                        \(actual.joined(separator: "\n"))
                        """)
                }
            }
        }
    }

    func testExampleExtractionAndMatching() {
        let blocks = Self.consoleBlocks("""
            text
            ```console
            $ echo a
            a
            $ true
            ```
            ```sh
            $ not an example
            ```
            """)
        XCTAssertEqual(blocks.count, 1)
        XCTAssertEqual(blocks[0].map(\.command), ["echo a", "true"])
        XCTAssertEqual(blocks[0].map(\.expected), [["a"], []])
        XCTAssertTrue(Self.matches(["method return time=1.5 sender=:1.0"], ["method return time=…"]))
        XCTAssertFalse(Self.matches(["a", "b"], ["a"]))
        XCTAssertFalse(Self.matches(["ab"], ["a"]))
    }
}
