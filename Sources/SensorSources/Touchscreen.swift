// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// One touchscreen or pen, read for the touch hold (P20, Docs/sensors.md, "Touch hold"): whether
/// something touches it, and nothing more. Its node is opened read-only and never grabbed
/// (`EVIOCGRAB` is never called: the desktop reads it as before). Before the first read the descriptor
/// is masked with `EVIOCSMASK` to `EV_SYN`, `EV_KEY` `BTN_TOUCH` and `EV_ABS` `ABS_MT_TRACKING_ID`, so
/// no coordinate ever reaches the daemon. The state at open, and after the kernel dropped events
/// (`SYN_DROPPED`), comes from `EVIOCGKEY`.
final class Touchscreen {
    private var input: InputEventNode?
    /// `BTN_TOUCH` as last reported.
    private var button = false
    /// Contacts begun (`ABS_MT_TRACKING_ID` ≥ 0) and not yet ended (−1), for a device that reports no `BTN_TOUCH`.
    private var contacts = 0
    /// Events are dropped until the next `SYN_REPORT`, after the kernel's `SYN_DROPPED`.
    private var dropping = false
    /// Whether something touches it, as last told.
    private(set) var isTouched = false
    private let changed: (Bool) -> Void

    // linux/input-event-codes.h
    private static let synEvent: UInt16 = 0x00, keyEvent: UInt16 = 0x01, absEvent: UInt16 = 0x03
    private static let synReport: UInt16 = 0, synDropped: UInt16 = 3
    static let buttonTouch = 0x14a
    static let trackingID = 0x39
    /// `KEY_CNT`, `ABS_CNT` in bytes, and the types' mask (`EV_CNT` bits, in a long).
    private static let keyBytes = 0x300 / 8, absBytes = 0x40 / 8, typeBytes = 8

    /// `EVIOCSMASK`: `_IOW('E', 0x93, struct input_mask)`.
    static let setMaskRequest = InputEventNode.request(0x93, length: MemoryLayout<InputMask>.size, writes: true)
    /// `EVIOCGKEY(len)`: `_IOC(_IOC_READ, 'E', 0x18, len)`.
    static func keyStateRequest(_ length: Int) -> UInt { InputEventNode.request(0x18, length: length) }

    /// `struct input_mask`.
    private struct InputMask {
        var type: UInt32
        var codesSize: UInt32
        var codes: UInt64
    }

    /// Opens `node`, masks it and reads its state; `changed` gets each later change of whether it is
    /// touched, `failure` that it went away. Throws when it cannot be opened, masked or read.
    init(node: String, changed: @escaping (Bool) -> Void, failure: @escaping (IIOError) -> Void) throws(IIOError) {
        self.changed = changed
        input = try InputEventNode(node: node, prepare: { input throws(IIOError) in
            try Self.mask(input)
            try readState(input)
        }, events: { [unowned self] events in
            take(events)
        }, failure: failure)
    }

    deinit { close() }

    func close() {
        input?.close()
        input = nil
    }

    /// Lets through only event types SYN, KEY and ABS, of KEY only `BTN_TOUCH` and of ABS only
    /// `ABS_MT_TRACKING_ID`: three `EVIOCSMASK`s, the types first.
    private static func mask(_ input: InputEventNode) throws(IIOError) {
        func set(_ type: UInt32, _ size: Int, _ bits: [Int]) throws(IIOError) {
            var codes = [UInt8](repeating: 0, count: size)
            for bit in bits { codes[bit / 8] |= 1 << UInt8(bit % 8) }
            try codes.withUnsafeMutableBytes { raw in
                var mask = InputMask(type: type, codesSize: UInt32(size), codes: UInt64(UInt(bitPattern: raw.baseAddress!)))
                return Result { () throws(IIOError) in try input.control(setMaskRequest, &mask, "EVIOCSMASK (keeping coordinates out)") }
            }.get()
        }
        try set(0, typeBytes, [Int(synEvent), Int(keyEvent), Int(absEvent)])
        try set(UInt32(keyEvent), keyBytes, [buttonTouch])
        try set(UInt32(absEvent), absBytes, [trackingID])
    }

    /// `BTN_TOUCH` now, from `EVIOCGKEY`; contacts begun before are not known, so none are counted.
    private func readState(_ input: InputEventNode) throws(IIOError) {
        var bits = [UInt8](repeating: 0, count: Self.keyBytes)
        try input.control(Self.keyStateRequest(bits.count), &bits, "EVIOCGKEY")
        button = bits[Self.buttonTouch / 8] & (1 << UInt8(Self.buttonTouch % 8)) != 0
        contacts = 0
        update()
    }

    /// Tells `changed` when whether it is touched changed.
    private func update() {
        let now = button || contacts > 0
        guard now != isTouched else { return }
        isTouched = now
        changed(now)
    }

    /// The events of one wake-up. Only the three kinds the mask lets through are looked at, so a
    /// coordinate that reached the queue anyway would still be dropped here, unread.
    private func take(_ events: [InputEvent]) {
        var resync = false
        for event in events {
            if event.type == Self.synEvent {
                if event.code == Self.synDropped { dropping = true }
                if event.code == Self.synReport {
                    if dropping { dropping = false; resync = true } else { update() }
                }
                continue
            }
            guard !dropping else { continue }
            if event.type == Self.keyEvent, Int(event.code) == Self.buttonTouch {
                button = event.value != 0
                // No finger at all: every contact counted has ended, whatever was missed.
                if event.value == 0 { contacts = 0 }
            } else if event.type == Self.absEvent, Int(event.code) == Self.trackingID {
                contacts = max(0, contacts + (event.value >= 0 ? 1 : -1))
            }
        }
        if resync, let input { try? readState(input) }
    }
}
