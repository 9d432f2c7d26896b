// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// Searching text by its bytes. The standard library's `contains(_: String)`, `replacing(_:with:)`
/// and `split(separator: String)` live in the string-processing runtime, whose code and relocated
/// data every program that calls one of them carries (scripts/check-lean-daemon keeps it out of the
/// daemon and orientationctl).
package extension String {
    /// Whether `other` occurs in the text; the empty string occurs in every text.
    func includes(_ other: String) -> Bool {
        var text = self, pattern = other
        return text.withUTF8 { haystack in pattern.withUTF8 { Self.firstMatch(of: $0, in: haystack, from: 0) != nil } }
    }

    /// The text with every occurrence of `target` replaced by `replacement`, left to right; the text
    /// itself when `target` is empty.
    func replacingEvery(_ target: String, with replacement: String) -> String {
        var text = self, pattern = target
        return text.withUTF8 { haystack in
            pattern.withUTF8 { needle in
                guard !needle.isEmpty else { return self }
                var out: [UInt8] = []
                out.reserveCapacity(haystack.count)
                var start = 0
                while let found = Self.firstMatch(of: needle, in: haystack, from: start) {
                    out += haystack[start..<found]
                    out += replacement.utf8
                    start = found + needle.count
                }
                out += haystack[start...]
                return String(decoding: out, as: UTF8.self)
            }
        }
    }

    private static func firstMatch(of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>,
                                   from start: Int) -> Int? {
        guard needle.count <= haystack.count - start else { return nil }
        guard !needle.isEmpty else { return start }
        for index in start...(haystack.count - needle.count)
        where haystack[index] == needle[0] && UnsafeBufferPointer(rebasing: haystack[index..<index + needle.count]).elementsEqual(needle) {
            return index
        }
        return nil
    }
}
