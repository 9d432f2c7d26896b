// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import DBus
import OrientationAPI
import TestSupport
import SystemCalls

/// A file of the package as text; nil when it cannot be read.
func readPackageFile(_ relativePath: String) -> String? {
    let path = packageRoot + "/" + relativePath
    return access(path, R_OK) == 0 ? readText(path) : nil
}

/// The names in a directory of the package, sorted.
func packageDirectory(_ relativePath: String) -> [String] {
    FileSystem.list(packageRoot + "/" + relativePath)
}
