// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// Why a change was refused; the policy is left exactly as it was.
public struct PolicyError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The refusal's kind; its raw value is the last part of the D-Bus error name.
    public enum Kind: String, Sendable {
        case invalidArgs = "InvalidArgs"
        case accessDenied = "AccessDenied"
        case unknownObject = "UnknownObject"
        case limitsExceeded = "LimitsExceeded"
        case noCommonOrientation = "NoCommonOrientation"
        case preferredNotSupported = "PreferredNotSupported"
        case inUse = "InUse"
        case alreadyPresenting = "AlreadyPresenting"
        case cannotPop = "CannotPop"
        case notGenerating = "NotGenerating"
        case notKeyWindow = "NotKeyWindow"
        case unsupportedOrientations = "UnsupportedOrientations"
        case noSuggestion = "NoSuggestion"
    }

    public let kind: Kind
    /// Names the object and the values involved, in plain words.
    public let message: String

    /// Creates a refusal of `kind` explained by `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }
}
