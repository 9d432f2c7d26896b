// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// A classic BPF socket filter (`SO_ATTACH_FILTER`) that lets through only the uevents of one
/// subsystem, so the kernel drops every other device event before it wakes the daemon.
///
/// It understands both formats a uevent socket receives:
/// - udev's monitor format (`libudev\0`, magic 0xfeedcafe, then a header holding the MurmurHash2 of the
///   subsystem in network order at offset 24): the hash is compared, as libudev's own monitor filter does;
/// - the kernel's format, `ACTION@DEVPATH\0ACTION=…\0DEVPATH=…\0SUBSYSTEM=…\0…`: the kernel always writes
///   those three keys first and in that order, with the same action and devpath as the header, so when
///   the header's NUL is at offset L, `SUBSYSTEM=` starts at 2L + 17. Classic BPF has no loops: the
///   search for the NUL is unrolled over the first `longestHeader` bytes, and a longer header (no device
///   path is that long) is let through, for the daemon to look at itself.
/// Anything else is dropped. The program is what the kernel checks (`sk_chk_filter`): jumps forward and
/// within it, at most 4,096 instructions, ending in a return.
public struct UeventFilter: Equatable, Sendable {
    /// One `struct sock_filter`.
    public struct Instruction: Equatable, Sendable {
        public var code: UInt16
        public var jt: UInt8
        public var jf: UInt8
        public var k: UInt32
    }

    public let subsystem: String
    public let instructions: [Instruction]

    /// The most instructions the kernel accepts in one program (`BPF_MAXINSNS`).
    public static let maximumLength = 4096
    /// Kernel messages whose first NUL lies beyond this many bytes are let through unexamined. The
    /// longest device paths of real machines (input devices behind USB hubs) are about 150 bytes.
    /// Each byte costs four instructions, which the kernel converts and compiles when the filter is
    /// attached: at 1,000 bytes that was a quarter of the daemon's start.
    public static let longestHeader = 256

    // Opcodes of `linux/filter.h` (`bpf_common.h`).
    static let ldWordAbsolute: UInt16 = 0x20      // BPF_LD | BPF_W | BPF_ABS
    static let ldByteAbsolute: UInt16 = 0x30      // BPF_LD | BPF_B | BPF_ABS
    static let ldWordIndexed: UInt16 = 0x40       // BPF_LD | BPF_W | BPF_IND
    static let ldHalfIndexed: UInt16 = 0x48       // BPF_LD | BPF_H | BPF_IND
    static let ldByteIndexed: UInt16 = 0x50       // BPF_LD | BPF_B | BPF_IND
    static let ldxImmediate: UInt16 = 0x01        // BPF_LDX | BPF_W | BPF_IMM
    static let jumpAlways: UInt16 = 0x05          // BPF_JMP | BPF_JA
    static let jumpIfEqual: UInt16 = 0x15         // BPF_JMP | BPF_JEQ | BPF_K
    static let returnConstant: UInt16 = 0x06      // BPF_RET | BPF_K

    /// The filter for `subsystem` (at most 10 bytes, which `SUBSYSTEM=iio` is far from).
    public init(subsystem: String) {
        self.subsystem = subsystem
        instructions = UeventFilter.program(subsystem: Array(subsystem.utf8))
    }

    /// libudev's `util_string_hash32`: MurmurHash2 of the bytes with seed 0, as its monitor header carries.
    public static func murmurHash2(_ bytes: [UInt8]) -> UInt32 {
        let m: UInt32 = 0x5bd1_e995
        var h = UInt32(truncatingIfNeeded: bytes.count)
        var i = 0
        while bytes.count - i >= 4 {
            var k = UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
            k &*= m
            k ^= k >> 24
            k &*= m
            h &*= m
            h ^= k
            i += 4
        }
        let rest = bytes.count - i
        if rest >= 3 { h ^= UInt32(bytes[i + 2]) << 16 }
        if rest >= 2 { h ^= UInt32(bytes[i + 1]) << 8 }
        if rest >= 1 {
            h ^= UInt32(bytes[i])
            h &*= m
        }
        h ^= h >> 13
        h &*= m
        h ^= h >> 15
        return h
    }

    /// Big-endian words of `bytes`, as BPF's absolute and indexed loads read them.
    private static func word(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reduce(0) { $0 << 8 | UInt32($1) } << (8 * UInt32(4 - bytes.count))
    }

    private static func program(subsystem: [UInt8]) -> [Instruction] {
        precondition(subsystem.count <= 10, "a subsystem name of at most 10 bytes")
        var p = Assembler(capacity: 4 * longestHeader + 32)
        // udev's format: "libu" "dev\0", the magic, then the subsystem's hash.
        p.emit(ldWordAbsolute, 0)
        p.jumpIfEqual(word(Array("libu".utf8)[...]), else: .kernel)
        p.emit(ldWordAbsolute, 4)
        p.jumpIfEqual(word(Array("dev\0".utf8)[...]), else: .kernel)
        p.emit(ldWordAbsolute, 8)
        p.jumpIfEqual(0xfeed_cafe, else: .udevDrop)
        p.emit(ldWordAbsolute, 24)
        p.jumpIfEqual(murmurHash2(subsystem), else: .udevDrop)
        p.emit(returnConstant, acceptAll)
        p.label(.udevDrop)
        p.emit(returnConstant, 0)
        // The kernel's format: per offset i, `ldb [i]; jeq #0 ? (ldx #2i+17; ja compare) : next offset`.
        p.label(.kernel)
        for i in 1...longestHeader {
            p.emit(ldByteAbsolute, UInt32(i))
            p.emit(jumpIfEqual, 0, jt: 0, jf: 2)
            p.emit(ldxImmediate, UInt32(2 * i + 17))
            p.jumpAlways(.compare)
        }
        p.emit(returnConstant, acceptAll)          // no NUL that early: the daemon looks itself
        // `SUBSYSTEM=<name>\0` from X on, in words, then a half word and a byte as needed.
        p.label(.compare)
        let wanted = Array("SUBSYSTEM=".utf8) + subsystem + [0]
        var at = 0
        while at < wanted.count {
            let size = min(4, wanted.count - at) == 3 ? 2 : min(4, wanted.count - at)
            let load = size == 4 ? ldWordIndexed : (size == 2 ? ldHalfIndexed : ldByteIndexed)
            p.emit(load, UInt32(at))
            p.jumpIfEqual(word(wanted[at..<(at + size)]) >> (8 * UInt32(4 - size)), else: .drop)
            at += size
        }
        p.emit(returnConstant, acceptAll)
        p.label(.drop)
        p.emit(returnConstant, 0)
        return p.resolved()
    }

    /// `BPF_RET` of this many bytes: the whole datagram.
    static let acceptAll: UInt32 = 0xFFFF_FFFF

    /// Builds a program with named forward targets and resolves them into relative offsets.
    private struct Assembler {
        enum Label: Int, CaseIterable { case kernel, udevDrop, compare, drop }
        /// A jump whose offset is known once its target is placed: `jf` of a `jeq`, or `k` of a `ja`.
        struct Fixup {
            var index: Int
            var target: Label
            var conditional: Bool
        }
        private var code: [Instruction] = []
        private var labels = [Int](repeating: -1, count: Label.allCases.count)
        private var fixups: [Fixup] = []

        init(capacity: Int) {
            code.reserveCapacity(capacity)
            fixups.reserveCapacity(capacity / 4 + 8)
        }

        mutating func emit(_ opcode: UInt16, _ k: UInt32, jt: UInt8 = 0, jf: UInt8 = 0) {
            code.append(Instruction(code: opcode, jt: jt, jf: jf, k: k))
        }

        /// `jeq #value`: on equal to the next instruction, else to `target`.
        mutating func jumpIfEqual(_ value: UInt32, else target: Label) {
            fixups.append(Fixup(index: code.count, target: target, conditional: true))
            emit(UeventFilter.jumpIfEqual, value)
        }

        mutating func jumpAlways(_ target: Label) {
            fixups.append(Fixup(index: code.count, target: target, conditional: false))
            emit(UeventFilter.jumpAlways, 0)
        }

        mutating func label(_ name: Label) { labels[name.rawValue] = code.count }

        func resolved() -> [Instruction] {
            var result = code
            for fixup in fixups {
                let offset = labels[fixup.target.rawValue] - (fixup.index + 1)
                precondition(offset >= 0 && (!fixup.conditional || offset <= 255), "BPF jumps forward, conditionally by at most 255")
                if fixup.conditional { result[fixup.index].jf = UInt8(offset) } else { result[fixup.index].k = UInt32(offset) }
            }
            return result
        }
    }
}
