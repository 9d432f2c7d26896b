// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// The release both tools report with `--version`; debian/changelog names the same one (a test
/// compares them).
public enum Release {
    public static let version = "0.1.0"
}
