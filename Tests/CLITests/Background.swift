// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import TestSupport

/// The test targets' one process helper, as the tests here start programs in the background: stdout
/// and stderr each in a file of `directory`, named after `name`, read as they grow.
typealias Background = ChildProcess

extension ChildProcess {
    convenience init(_ argv: [String], in directory: String, name: String) throws {
        try self.init(argv, output: .files(stdout: "\(directory)/\(name).out", stderr: "\(directory)/\(name).err"))
    }

    /// Everything printed on stdout so far.
    var stdout: String { log }
    /// Everything printed on stderr so far.
    var stderr: String { errors }
}
