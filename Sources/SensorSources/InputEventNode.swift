// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls
import CGLib
import EventLoop

/// One event of an input device (`struct input_event` less its time).
struct InputEvent: Equatable {
    let type: UInt16
    let code: UInt16
    let value: Int32
}

/// An input device's node (`/dev/input/eventN`), opened read-only and never grabbed, and watched (a
/// unix-fd watch: the daemon wakes only when the device reports): the events queued at each wake-up
/// are handed over together. `prepare` runs on the descriptor before the watch exists, so whatever
/// it sets (a mask, a state read) comes before the first read.
final class InputEventNode {
    let node: String
    private var fd: FileDescriptor?
    private var watch: FDWatch?

    /// Opens `node` and runs `prepare` on it; `events` gets every batch read later, `failure` that the
    /// node went away (it is closed by then). Throws, with the node closed, when it cannot be opened or
    /// `prepare` throws.
    init(node: String, prepare: (InputEventNode) throws(IIOError) -> Void, events: @escaping ([InputEvent]) -> Void,
         failure: @escaping (IIOError) -> Void) throws(IIOError) {
        self.node = node
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC) } catch {
            throw IIOError(path: node, error).prefixed("cannot open ")
        }
        self.fd = fd
        do { try prepare(self) } catch {
            close()
            throw error
        }
        watch = FDWatch(fd: fd.rawValue, condition: CGLIB_IO_IN | CGLIB_IO_ERR | CGLIB_IO_HUP) { [unowned self] condition in
            let batch = drain()
            if !batch.isEmpty { events(batch) }
            guard condition & (CGLIB_IO_ERR | CGLIB_IO_HUP) == 0 else {
                close()
                failure(IIOError("\(node) went away"))
                return false
            }
            return true
        }
    }

    deinit { close() }

    /// An evdev request (`linux/input.h`): `_IOC(dir, 'E', number, length)`, reading into the
    /// caller's buffer or, with `writes`, handing the kernel one.
    static func request(_ number: UInt, length: Int, writes: Bool = false) -> UInt {
        (writes ? 1 << 30 : 2 << 30) | (UInt(length) << 16) | (UInt(UInt8(ascii: "E")) << 8) | number
    }

    func close() {
        watch?.cancel()
        watch = nil
        fd?.close()
        fd = nil
    }

    /// `ioctl(fd, request, bytes)`, named `what` in the error.
    func control(_ request: UInt, _ bytes: inout [UInt8], _ what: String) throws(IIOError) {
        do throws(Errno) {
            guard let fd else { throw Errno(rawValue: EBADF) }
            try fd.control(request, &bytes)
        } catch {
            throw IIOError(path: node, error).prefixed(what + " on ")
        }
    }

    /// `ioctl(fd, request, &argument)`, named `what` in the error.
    func control<Argument>(_ request: UInt, _ argument: inout Argument, _ what: String) throws(IIOError) {
        do throws(Errno) {
            guard let fd else { throw Errno(rawValue: EBADF) }
            try fd.control(request, &argument)
        } catch {
            throw IIOError(path: node, error).prefixed(what + " on ")
        }
    }

    /// Every event queued now.
    private func drain() -> [InputEvent] {
        guard let fd else { return [] }
        // `struct input_event`: a timeval (two longs), type and code (16 bits each), value (32 bits).
        let size = 2 * MemoryLayout<Int>.size + 8
        var bytes = [UInt8](repeating: 0, count: size * 32)
        var out: [InputEvent] = []
        while true {
            guard let n = try? fd.read(into: &bytes), n >= size else { break }
            bytes.withUnsafeBytes { raw in
                for offset in stride(from: 0, through: n - size, by: size) {
                    out.append(InputEvent(type: raw.loadUnaligned(fromByteOffset: offset + size - 8, as: UInt16.self),
                                          code: raw.loadUnaligned(fromByteOffset: offset + size - 6, as: UInt16.self),
                                          value: raw.loadUnaligned(fromByteOffset: offset + size - 4, as: Int32.self)))
                }
            }
        }
        return out
    }
}
