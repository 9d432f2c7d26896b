// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// Bounds on the arguments of incoming method calls, checked while they are read, so a call that
/// passes them costs no more than the elements read before the bound: a million-element array or
/// a 30 MiB string is refused without being turned into a million values or a 30 MiB copy.
/// The bus already bounds the whole message (the system bus: 32 MiB).
public struct ArgumentLimits: Equatable, Sendable {
    /// The most elements one array or dictionary argument may hold, at any depth.
    public var maxArrayElements: Int
    /// The longest string, object path or signature argument, in bytes.
    public var maxStringBytes: Int

    /// Defaults generous for any interface yet far below what the bus lets through.
    public init(maxArrayElements: Int = 65536, maxStringBytes: Int = 65536) {
        self.maxArrayElements = maxArrayElements
        self.maxStringBytes = maxStringBytes
    }
}
