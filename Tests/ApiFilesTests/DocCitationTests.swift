// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Foundation
import XCTest
import TestSupport

/// Nothing in the tree cites a document that is not in it, nor a section a document does not have: every
/// Markdown document a tracked file names is the tree's (at that path, or in Docs/ or the root), and every
/// section cited after it (`, "Section"`) is one of that document's headings or bold paragraph leads.
final class DocCitationTests: XCTestCase {
    func trackedFiles() throws -> [String] {
        let listed = runTool(["git", "-C", packageRoot, "ls-files"])
        guard listed.status == 0 else { throw unavailable("git cannot list the tree: \(listed.stderr)") }
        return listed.stdout.split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("traces/") && !$0.hasSuffix(".csv") && !$0.hasSuffix(".png") && !$0.hasPrefix("LICENSE") }
    }

    /// The document a citation names, as a path from the root; nil when the tree has none.
    func document(_ name: String) -> String? {
        var name = name
        if name.hasPrefix("/usr/share/doc/") { name = (name as NSString).lastPathComponent }
        let base = (name as NSString).lastPathComponent
        return [name, "Docs/" + base, base].first { FileManager.default.fileExists(atPath: packageRoot + "/" + $0) }
    }

    private var sectionsByDocument: [String: [String]] = [:]

    /// A document's headings and the leads of its bold paragraphs, lower case.
    func sections(_ path: String) -> [String] {
        if let known = sectionsByDocument[path] { return known }
        let text = readText(packageRoot + "/" + path)
        var found = text.split(separator: "\n").filter { $0.hasPrefix("#") }
            .map { $0.drop { $0 == "#" || $0 == " " }.replacingOccurrences(of: "`", with: "").lowercased() }
        found += text.matches(of: /\*\*([^*]+?)\.?\*\*/).map { String($0.output.1).lowercased() }
        sectionsByDocument[path] = found
        return found
    }

    /// The citations in a text: only the lines that name a document are searched, each with the next
    /// line, where a cited section's name may go on.
    func citations(in text: String) -> Set<[String]> {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var found: Set<[String]> = []
        for (index, line) in lines.enumerated() where line.contains(".md") {
            let window = line + (index + 1 < lines.count ? "\n" + lines[index + 1] : "")
            for match in window.matches(of: /([A-Za-z0-9_.\/-]*[A-Za-z0-9_-]+\.md)\b(?:, "([^"]+)")?/) {
                found.insert([String(match.output.1)] + (match.output.2.map { [String($0)] } ?? []))
            }
        }
        return found
    }

    func testEveryCitedDocumentAndSectionIsInTheTree() throws {
        var missing: [String] = []
        for file in try trackedFiles() {
            guard let text = try? String(contentsOfFile: packageRoot + "/" + file, encoding: .utf8) else { continue }
            for citation in citations(in: text) {
                let name = citation[0]
                guard let path = document(name) else {
                    missing.append("\(file) cites \(name), which is not in the tree")
                    continue
                }
                guard citation.count > 1 else { continue }
                let section = citation[1].replacing(/\s*\n\s*(\/\/\/ ?|# ?)?/, with: " ").lowercased()
                if !sections(path).contains(where: { $0.contains(section) }) {
                    missing.append("\(file) cites \(name), \"\(section)\", which \(path) has no heading for")
                }
            }
        }
        XCTAssertEqual(missing, [], missing.joined(separator: "\n"))
    }
}
