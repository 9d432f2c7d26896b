// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// The format of one channel in an IIO buffer frame, from its scan element's `type` file:
/// `[be|le]:[s|u]BITS/STORAGE[XREPEAT]>>SHIFT`, e.g. `le:s16/32>>0` or `be:u12/16>>4`.
public struct ScanElementType: Equatable, Sendable {
    public var isBigEndian: Bool
    public var isSigned: Bool
    /// Significant bits of the value.
    public var bits: Int
    /// Bits the value occupies in the frame: 8, 16, 32 or 64.
    public var storageBits: Int
    /// How far right the value must be shifted out of its storage.
    public var shift: Int
    /// How many values of this format follow each other (`X3`); 1 without a repeat.
    public var repeatCount: Int

    public init(isBigEndian: Bool, isSigned: Bool, bits: Int, storageBits: Int, shift: Int, repeatCount: Int = 1) {
        self.isBigEndian = isBigEndian
        self.isSigned = isSigned
        self.bits = bits
        self.storageBits = storageBits
        self.shift = shift
        self.repeatCount = repeatCount
    }

    /// Bytes of one value in the frame.
    public var storageBytes: Int { storageBits / 8 }

    /// Parses a `type` file's text; nil when it is not the format above or makes no sense (bits beyond the storage).
    public init?(parsing text: String) {
        var s = Substring(text)
        while let last = s.last, last == "\n" || last == " " { s = s.dropLast() }
        while let first = s.first, first == " " { s = s.dropFirst() }
        func take(_ prefix: String) -> Bool {
            guard s.hasPrefix(prefix) else { return false }
            s = s.dropFirst(prefix.count)
            return true
        }
        func number() -> Int? {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 3, let n = Int(digits) else { return nil }
            s = s.dropFirst(digits.count)
            return n
        }
        if take("be:") { isBigEndian = true } else if take("le:") { isBigEndian = false } else { return nil }
        if take("s") || take("S") { isSigned = true } else if take("u") || take("U") { isSigned = false } else { return nil }
        guard let bits = number(), take("/"), let storage = number() else { return nil }
        var repeatCount = 1
        if take("X") {
            guard let n = number(), n >= 1 else { return nil }
            repeatCount = n
        }
        guard take(">>"), let shift = number(), s.isEmpty else { return nil }
        guard [8, 16, 32, 64].contains(storage), bits >= 1, shift + bits <= storage else { return nil }
        self.bits = bits
        self.storageBits = storage
        self.shift = shift
        self.repeatCount = repeatCount
    }

    /// The first value of this format at `offset` in `frame`, shifted, masked and sign-extended; nil when the frame is too short.
    public func decode(_ frame: [UInt8], at offset: Int) -> Int64? {
        guard offset >= 0, offset + storageBytes <= frame.count else { return nil }
        var word: UInt64 = 0
        for i in 0..<storageBytes {
            let byte = UInt64(frame[offset + (isBigEndian ? i : storageBytes - 1 - i)])
            word = (word << 8) | byte
        }
        word >>= UInt64(shift)
        if bits < 64 { word &= (UInt64(1) << UInt64(bits)) - 1 }
        if isSigned, bits < 64, word & (UInt64(1) << UInt64(bits - 1)) != 0 {
            word |= ~((UInt64(1) << UInt64(bits)) - 1)
        }
        return Int64(bitPattern: word)
    }
}

/// One enabled channel of a buffer: its scan element's name (`in_accel_x`), `index` and `type`.
public struct ScanChannel: Equatable, Sendable {
    public var name: String
    public var index: Int
    public var type: ScanElementType
    public init(name: String, index: Int, type: ScanElementType) {
        self.name = name
        self.index = index
        self.type = type
    }
}

/// Where each enabled channel sits in a frame, as the kernel lays it out: channels in `index` order, each aligned
/// to its storage size, the frame padded to a multiple of the largest storage size.
public struct FrameLayout: Equatable, Sendable {
    /// Byte offset of each channel, by name.
    public let offsets: [String: Int]
    public let channels: [String: ScanChannel]
    /// Bytes per frame.
    public let frameSize: Int

    public init(_ enabled: [ScanChannel]) {
        var offset = 0, largest = 1
        var offsets: [String: Int] = [:], channels: [String: ScanChannel] = [:]
        for channel in enabled.sorted(by: { $0.index < $1.index }) {
            let unit = channel.type.storageBytes
            offset = (offset + unit - 1) / unit * unit
            offsets[channel.name] = offset
            channels[channel.name] = channel
            offset += unit * channel.type.repeatCount
            largest = max(largest, unit)
        }
        self.offsets = offsets
        self.channels = channels
        frameSize = (offset + largest - 1) / largest * largest
    }

    /// The value of channel `name` in `frame` (one frame's bytes); nil for an unknown channel or a short frame.
    public func value(of name: String, in frame: [UInt8]) -> Int64? {
        guard let channel = channels[name], let offset = offsets[name], frame.count >= frameSize else { return nil }
        return channel.type.decode(frame, at: offset)
    }
}
