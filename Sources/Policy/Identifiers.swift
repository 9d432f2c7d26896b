// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// A client of the service: the unique bus name that created and owns objects.
public typealias ClientID = String

/// A window's number; it counts up from 1 and is never reused while the policy lives. 64 bits,
/// so no number of registrations in a daemon's life can wrap it.
public struct WindowID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "window \(rawValue)" }
}

/// A controller's number; it counts up from 1 and is never reused while the policy lives. 64 bits,
/// so no number of creations in a daemon's life can wrap it.
public struct ControllerID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "controller \(rawValue)" }
}
