// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc

/// The text of a file the tests keep beside their code, by its path under `Tests/` (a driver script
/// run with `/usr/bin/python3`, for instance), so it can be read and checked as what it is.
public func fixtureText(_ relative: String) -> String {
    let path = packageRoot + "/Tests/" + relative
    guard access(path, R_OK) == 0 else { fatalError("the test fixture \(path) is missing") }
    return readText(path)
}
