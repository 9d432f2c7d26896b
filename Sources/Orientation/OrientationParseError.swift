// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// A name, number or mask that could not be read; the message says what was wrong and what is accepted.
public struct OrientationParseError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What was wrong, and what is accepted, in plain words.
    public let message: String

    /// Creates an error carrying `message`.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
