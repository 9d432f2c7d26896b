// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// The tests' world (a private bus, the daemon and other programs as child processes, the embedded
/// bus, fixtures, accounts) is the Harness, which the benchmarks use too; the tests see it through
/// TestSupport, which adds what needs XCTest.
@_exported import Harness
