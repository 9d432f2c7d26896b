/// A client of the service: the unique bus name that created and owns objects.
public typealias ClientID = String

/// A window's number; it counts up from 1 and is never reused while the policy lives.
public struct WindowID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "window \(rawValue)" }
}

/// A controller's number; it counts up from 1 and is never reused while the policy lives.
public struct ControllerID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "controller \(rawValue)" }
}
