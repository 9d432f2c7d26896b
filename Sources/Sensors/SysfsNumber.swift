// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// Numbers as sysfs prints them, read the same way whatever the locale ("-25.6" is −25.6, never −25).
public enum SysfsNumber {
    /// `n` in decimal, as sysfs prints an integer. Written digit by digit: the standard library's
    /// integer printing is code the daemon would otherwise run only for the log line at start, and
    /// keep resident in its own 64 KB windows (Docs/performance.md, "Idle memory").
    public static func decimal(_ n: Int) -> String {
        var digits: [UInt8] = []
        digits.reserveCapacity(20)
        var rest = n.magnitude
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        if n < 0 { digits.append(UInt8(ascii: "-")) }
        digits.reverse()
        return String(decoding: digits, as: UTF8.self)
    }

    /// A decimal number (`-25.6`, `0.009576806`, `256`, `1e-3`) with blanks and a newline around it; nil for anything else,
    /// including `nan`, `inf`, hexadecimal and trailing garbage, which `strtod` would take in part.
    public static func parse<S: StringProtocol>(_ text: S) -> Double? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { parse(bytes: $0) }
    }

    /// `parse` of the bytes as read, with no string made: a polled attribute is read several times a
    /// second. An integer of up to 15 digits, which is what a raw value is, is added up digit by digit
    /// (exact in a Double); anything else goes through `Double(String)`.
    public static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let kept = unblanked(bytes)
        let (start, end) = (kept.lowerBound, kept.upperBound)
        guard start < end else { return nil }
        var i = start
        if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
        let firstDigit = i
        var digits = 0
        while i < end, isDigit(bytes[i]) { i += 1; digits += 1 }
        // Only digits after the sign, and few enough to be exact in a Double: added up as they are.
        if i == end, digits > 0, digits <= 15 {
            var value: Int64 = 0
            for b in bytes[firstDigit..<end] { value = value * 10 + Int64(b - UInt8(ascii: "0")) }
            return Double(bytes[start] == UInt8(ascii: "-") ? -value : value)
        }
        if i < end, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, isDigit(bytes[i]) { i += 1; digits += 1 }
        }
        guard digits > 0 else { return nil }
        if i < end, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            var exponentDigits = 0
            while i < end, isDigit(bytes[i]) { i += 1; exponentDigits += 1 }
            guard exponentDigits > 0 else { return nil }
        }
        guard i == end else { return nil }
        // Swift's Double(String) parses with the C locale, whatever LC_NUMERIC says.
        guard let value = Double(String(decoding: bytes[start..<end], as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// Where `bytes` lies without the blanks and newlines around it (sysfs text is ASCII, and a blank
    /// is never part of a longer UTF-8 character).
    public static func unblanked<C: RandomAccessCollection>(_ bytes: C) -> Range<Int> where C.Element == UInt8, C.Index == Int {
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, isBlank(bytes[start]) { start += 1 }
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    private static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0a || b == 0x0d }
    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
}
