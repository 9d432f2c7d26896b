// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls

/// One switch of an input device: a proximity sensor the kernel presents as `SW_FRONT_PROXIMITY`
/// (phones' sensors behind gpio-keys), or a convertible's `SW_TABLET_MODE` (intel-vbtn, intel-hid,
/// asus-wmi, …). Its node `/dev/input/eventN` is open while claimed, its state read with `EVIOCGSW` when
/// reading starts and its switch events read as they come (a unix-fd watch: the daemon wakes only when
/// the switch moves).
final class InputSwitch {
    let node: String
    /// The switch's number (`linux/input-event-codes.h`).
    let code: Int
    private var input: InputEventNode?

    /// The switches' numbers and the event type of switches (`linux/input-event-codes.h`).
    static let tabletMode = 0x01
    static let frontProximity = 0x0b
    private static let switchEvent: UInt16 = 0x05

    /// The name the kernel's header gives the switch, for the log.
    static func name(_ code: Int) -> String { code == tabletMode ? "SW_TABLET_MODE" : code == frontProximity ? "SW_FRONT_PROXIMITY" : "switch \(code)" }

    /// Opens `node` and reads its state; `changed` gets every later state of switch `code`. Throws when
    /// it cannot be opened or read.
    init(node: String, code: Int, changed: @escaping (Bool) -> Void, failure: @escaping (IIOError) -> Void) throws(IIOError) {
        self.node = node
        self.code = code
        input = try InputEventNode(node: node, prepare: { _ in }, events: { events in
            // The last state the events give the switch, when any of them is about it.
            if let last = events.last(where: { $0.type == Self.switchEvent && Int($0.code) == code }) { changed(last.value != 0) }
        }, failure: failure)
    }

    deinit { close() }

    func close() {
        input?.close()
        input = nil
    }

    /// `EVIOCGSW(len)`: `_IOC(_IOC_READ, 'E', 0x1b, len)`, the state of every switch as a bit mask.
    private static func request(_ length: Int) -> UInt {
        InputEventNode.request(0x1b, length: length)
    }

    /// Whether the switch is on now (something near; tablet mode).
    func state() throws(IIOError) -> Bool {
        var bits = [UInt8](repeating: 0, count: 8)
        guard let input else { throw IIOError(path: node, Errno(rawValue: EBADF)).prefixed("EVIOCGSW on ") }
        try input.control(Self.request(bits.count), &bits, "EVIOCGSW")
        return bits[code / 8] & (1 << UInt8(code % 8)) != 0
    }

    /// The first input device, by name, whose switches include `code` (its parent's `capabilities/sw`,
    /// a bit mask in hexadecimal words, most significant first), skipping `excluded`. Only looks at
    /// which files exist and at the device's attributes: it never opens the node.
    static func discover(_ code: Int, excluded: String? = nil) -> (sysname: String, path: String, node: String)? {
        let directory = InputAccelerometerFiles.classDirectory
        for sysname in Sysfs.list(directory) where sysname.hasPrefix("event") && sysname != excluded {
            let path = directory + "/" + sysname
            guard let words = Sysfs.attribute(path + "/device/capabilities/sw")?.split(separator: " "),
                  let low = words.last.flatMap({ UInt64($0, radix: 16) }), low & (1 << UInt64(code)) != 0 else { continue }
            return (sysname, path, UdevProperties(devicePath: path).deviceNode(else: "input/" + sysname))
        }
        return nil
    }
}
