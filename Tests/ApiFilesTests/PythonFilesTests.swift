// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import XCTest
import TestSupport

/// The Python the project keeps as files (the tests' fixtures, the benchmarks, the example client)
/// is checked as Python: every file compiles with /usr/bin/python3, the interpreter that runs it.
final class PythonFilesTests: XCTestCase {
    func testEveryPythonFileCompiles() throws {
        let listing = runTool(["git", "-C", packageRoot, "ls-files", "--cached", "--others", "--exclude-standard", "*.py"])
        guard listing.status == 0 else { throw XCTSkip("not a git checkout: \(listing.stderr)") }
        let files = listing.stdout.split(separator: "\n").map { packageRoot + "/" + $0 }
        for expected in ["Tests/SensorProxyTests/Fixtures/driver.py",
                         "Tests/IIOTests/Fixtures/umockdev-driver.py", "Benchmarks/sidebyside.py",
                         "examples/python/orientation-client.py"] {
            XCTAssertTrue(files.contains(packageRoot + "/" + expected), "\(expected) is not among the Python files")
        }
        // Compiled to a scratch directory: the tree is left as it is.
        let out = makeTempDirectory("orientationd-pyc")
        defer { _ = runTool(["rm", "-rf", out]) }
        let check = runTool(["env", "PYTHONPYCACHEPREFIX=" + out, "/usr/bin/python3", "-m", "py_compile"] + files, timeoutMs: 60_000)
        XCTAssertEqual(check.status, 0, check.stderr)
    }
}
