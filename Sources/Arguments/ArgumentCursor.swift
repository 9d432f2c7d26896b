// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// Walks a command line one argument at a time, for `orientationd` and `orientationctl` alike.
/// A long option takes its value as the next argument or after `=`: `--address ADDRESS` and
/// `--address=ADDRESS` read the same.
public struct ArgumentCursor {
    private let arguments: [String]
    private var index = 0
    /// The value written after `=` in the option last read, until `value()` takes it.
    private var attached: String?

    public init(_ arguments: [String]) { self.arguments = arguments }

    /// The next argument, taken; `--name=value` comes back as `--name`, its value kept for `value()`.
    /// Only long options split: `-h`, `--` and operands come back whole.
    public mutating func next() -> String? {
        attached = nil
        guard index < arguments.count else { return nil }
        let argument = arguments[index]
        index += 1
        guard argument.utf8.starts(with: "--".utf8), let equals = argument.firstIndex(of: "=") else { return argument }
        attached = String(argument[argument.index(after: equals)...])
        return String(argument[..<equals])
    }

    /// The value of the option just read: what followed `=`, else the next argument; nil when there is none.
    public mutating func value() -> String? {
        if let value = attached {
            attached = nil
            return value
        }
        guard index < arguments.count else { return nil }
        index += 1
        return arguments[index - 1]
    }

    /// The option just read was written `--name=value` and nothing took the value: a flag given one.
    public var hasUnusedValue: Bool { attached != nil }

    /// The next argument, not taken.
    public var peek: String? { index < arguments.count ? arguments[index] : nil }

    /// Every argument not read yet.
    public var remaining: [String] { Array(arguments[index...]) }
}
