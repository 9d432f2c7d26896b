// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls
import CGLib
import DBus
import EventLoop

/// A connection to sway's IPC socket (`$SWAYSOCK`), in the i3-ipc framing: the magic `i3-ipc`, the
/// payload's length and the message type as native 32-bit integers, then a JSON payload.
///
/// Requests are answered in the order they were sent; events (the type's high bit set) arrive in
/// between on the same socket once subscribed. Everything is driven by the main loop: the socket is
/// non-blocking and watched, so the tool sleeps until sway writes.
final class SwayIPC {
    /// The request types used here (sway-ipc(7)).
    enum Request: UInt32 {
        case runCommand = 0
        case subscribe = 2
        case getOutputs = 3
        case getTree = 4
    }

    /// The event types used here, without the high bit.
    enum Event: UInt32 {
        case workspace = 0
        case window = 3
        case shutdown = 6
    }

    static let magic = Array("i3-ipc".utf8)
    static let headerSize = 14
    static let eventBit: UInt32 = 0x8000_0000
    /// Bigger replies are refused: a tree of thousands of windows stays far below it.
    static let maximumPayload = 64 << 20

    let path: String
    private var fd: Int32
    private var watch: FDWatch?
    private var input: [UInt8] = []
    private var output: [UInt8] = []
    private var replies: [(JSON?) -> Void] = []
    /// Called for each event: its type (without the high bit) and payload.
    var onEvent: ((UInt32, JSON?) -> Void)?
    /// Called once when sway closes the socket or the connection fails; pending requests get nil first.
    var onClosed: ((String) -> Void)?

    /// Connects to the socket at `path`; throws with the reason it could not.
    init(path: String) throws(FollowError) {
        self.path = path
        let socket: FileDescriptor
        do { socket = try FileDescriptor.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0) } catch {
            throw .runtime("cannot create a socket: \(error)")
        }
        fd = socket.rawValue
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            socket.close()
            throw .runtime("the socket path \(path) is longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        do {
            try socket.connect(&address, length: MemoryLayout<sockaddr_un>.size)
            try socket.setNonBlocking()
        } catch {
            socket.close()
            throw .runtime("cannot connect to sway at \(path): \(error)")
        }
        rearm()
    }

    deinit { shut() }

    /// Sends a request; `reply` gets its parsed payload, or nil when the connection closed first.
    func send(_ type: Request, _ payload: String = "", reply: @escaping (JSON?) -> Void = { _ in }) {
        guard fd >= 0 else { return reply(nil) }
        let body = Array(payload.utf8)
        var frame = Self.magic
        withUnsafeBytes(of: UInt32(body.count)) { frame.append(contentsOf: $0) }
        withUnsafeBytes(of: type.rawValue) { frame.append(contentsOf: $0) }
        frame.append(contentsOf: body)
        output.append(contentsOf: frame)
        replies.append(reply)
        flushOutput()
    }

    /// Runs sway commands (`;`-separated); `done` gets nil on success, else sway's error.
    func run(_ command: String, _ done: @escaping (String?) -> Void) {
        send(.runCommand, command) { reply in
            guard let results = reply?.arrayValue else { return done("sway closed the connection") }
            let errors = results.filter { $0["success"]?.boolValue != true }
                .map { $0["error"]?.stringValue ?? "refused" }
            done(errors.isEmpty ? nil : errors.joined(separator: "; "))
        }
    }

    /// Closes the socket; no callback runs afterwards.
    func shut() {
        watch?.cancel()
        watch = nil
        if fd >= 0 { FileDescriptor(rawValue: fd).close() }
        fd = -1
        onEvent = nil
        onClosed = nil
        replies.removeAll()
    }

    // MARK: I/O

    /// Watches for input always, and for room to write while output is queued.
    private func rearm() {
        watch?.cancel()
        guard fd >= 0 else { return }
        let condition = UInt32(CGLIB_IO_IN | CGLIB_IO_HUP | CGLIB_IO_ERR) | (output.isEmpty ? 0 : UInt32(CGLIB_IO_OUT))
        watch = FDWatch(fd: fd, condition: condition) { [weak self] condition in
            self?.ready(condition) ?? false
        }
    }

    private func ready(_ condition: UInt32) -> Bool {
        if condition & UInt32(CGLIB_IO_OUT) != 0 { flushOutput() }
        if condition & UInt32(CGLIB_IO_IN | CGLIB_IO_HUP | CGLIB_IO_ERR) != 0 { readInput() }
        return false  // re-armed by `rearm`, or the connection is gone
    }

    private func flushOutput() {
        while !output.isEmpty, fd >= 0 {
            // MSG_NOSIGNAL: a sway that has just gone must not kill the tool with SIGPIPE.
            let socket = FileDescriptor(rawValue: fd)
            do {
                let n = try socket.send(output)
                guard n > 0 else { return closed("writing to sway failed: \(Errno.ioError)") }
                output.removeFirst(n)
            } catch .wouldBlock {
                break
            } catch {
                return closed("writing to sway failed: \(error)")
            }
        }
        rearm()
    }

    private func readInput() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while fd >= 0 {
            let socket = FileDescriptor(rawValue: fd)
            do {
                let n = try socket.read(into: &buffer)
                guard n > 0 else { return closed("sway closed its IPC socket") }
                input.append(contentsOf: buffer[0..<n])
                guard dispatchFrames() else { return }
            } catch .wouldBlock {
                return rearm()
            } catch {
                return closed("reading from sway failed: \(error)")
            }
        }
    }

    /// Hands every complete frame to its reader; false when the stream is not i3-ipc (then closed).
    private func dispatchFrames() -> Bool {
        var offset = 0
        defer { if offset > 0 { input.removeFirst(offset) } }
        while input.count - offset >= Self.headerSize {
            guard Array(input[offset..<offset + 6]) == Self.magic else {
                closed("\(path) does not speak the i3-ipc protocol")
                return false
            }
            let length = Int(integer(at: offset + 6)), type = integer(at: offset + 10)
            guard length <= Self.maximumPayload else {
                closed("sway sent a message of \(length) bytes, more than this tool accepts")
                return false
            }
            guard input.count - offset >= Self.headerSize + length else { break }
            let payload = JSON(parsing: Array(input[offset + Self.headerSize..<offset + Self.headerSize + length]))
            offset += Self.headerSize + length
            if type & Self.eventBit != 0 {
                onEvent?(type & ~Self.eventBit, payload)
            } else if !replies.isEmpty {
                replies.removeFirst()(payload)
            }
            guard fd >= 0 else { return false }
        }
        return true
    }

    private func integer(at offset: Int) -> UInt32 {
        input[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }

    private func closed(_ reason: String) {
        let pending = replies, handler = onClosed
        shut()
        for reply in pending { reply(nil) }
        handler?(reason)
    }
}
