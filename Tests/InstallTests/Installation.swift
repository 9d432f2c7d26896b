// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import Foundation
import XCTest
import TestSupport

/// One `make install` of the package into a fresh temporary directory, as a person or a package
/// build runs it. The programs are those this test run was built with (`PROGRAMS_DIR`), so the
/// tests need no second, release build; everything else comes from the repository as
/// `make install` always takes it.
final class Installation {
    /// The temporary directory; with a staged install it is DESTDIR, else it is PREFIX.
    let root: String
    /// The make variables of every call: PREFIX, DESTDIR when staged, PROGRAMS_DIR.
    let variables: [String]
    /// Where the files go, as the installed files name them (PREFIX).
    let prefix: String
    private let staged: Bool

    /// `make install` into a temporary directory: staged under it as DESTDIR with `prefix`
    /// (default: a real install whose PREFIX is the directory itself), with `extra` variables.
    init(prefix: String? = nil, extra: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws {
        root = makeTempDirectory("orientationd-install")
        staged = prefix != nil
        self.prefix = prefix ?? root
        variables = ["PREFIX=\(self.prefix)", "PROGRAMS_DIR=\(programsDirectory())"]
            + (staged ? ["DESTDIR=\(root)"] : []) + extra
        // `make install` installs built programs only; the Wayland helper is the Makefile's to build.
        do { try buildWaylandHelper() } catch {
            remove()
            XCTFail("\(error)", file: file, line: line)
            throw error
        }
        let result = make("install")
        guard result.status == 0 else {
            remove()
            XCTFail("make install failed (\(result.status)): \(result.stderr)", file: file, line: line)
            throw InstallationError.makeFailed(result.stderr)
        }
    }

    /// Runs `make TARGET` in the package root with this installation's variables.
    @discardableResult
    func make(_ target: String, _ more: [String] = []) -> ToolResult {
        runTool(["make", "--no-print-directory", "-C", packageRoot, target] + variables + more, timeoutMs: 120_000)
    }

    /// The real path of a file the install names `installed` (e.g. "/usr/bin/orientationctl").
    func path(_ installed: String) -> String { staged ? root + installed : installed }

    /// The installed file's text, empty when it is missing.
    func text(_ installed: String) -> String { readText(path(installed)) }

    /// Every regular file and symbolic link under the directory, as the install names them, sorted.
    func files() -> [String] {
        let base = URL(fileURLWithPath: root)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isDirectoryKey]) else { return [] }
        var names: [String] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) != true {
            let relative = String(url.path.dropFirst(base.path.count))
            names.append(staged ? relative : root + relative)
        }
        return names.sorted()
    }

    /// The installed files that are not programs.
    func dataFiles() -> [String] { files().filter { (mode($0) ?? 0) & 0o111 == 0 } }

    /// The permission bits of an installed file, nil when it is missing.
    func mode(_ installed: String) -> mode_t? {
        var info = stat()
        return stat(path(installed), &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    /// Removes the directory and everything in it.
    func remove() {
        _ = runTool(["rm", "-rf", root])
    }
}

enum InstallationError: Error {
    case makeFailed(String)
}

/// `[Group] Key=value` lines of a key file (systemd units, D-Bus service files), by group; later keys append.
func keyFileEntries(_ text: String) -> [String: [String: [String]]] {
    var groups: [String: [String: [String]]] = [:]
    var group = ""
    for raw in text.split(separator: "\n") {
        let line = raw.trimmingCharacters(in: .whitespaces)
        if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
        if line.hasPrefix("[") { group = String(line.dropFirst().prefix { $0 != "]" }); continue }
        guard let eq = line.firstIndex(of: "=") else { continue }
        groups[group, default: [:]][String(line[..<eq]), default: []].append(String(line[line.index(after: eq)...]))
    }
    return groups
}
