// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import CGLib
import EventLoop
import SystemCalls
import Sensors

/// What an accelerometer offers to wake a reader when it moves: its motion event attributes
/// (`MotionEventChoice`) and the character device the event descriptor is asked of.
struct IIOMotionSupport: Equatable {
    /// `events/...` enable attributes, relative to the device's directory.
    let attributes: [String]
    let node: String

    /// Nil when the device has no motion event among its `events/` files.
    init?(devicePath: String, node: String) {
        let chosen = MotionEventChoice.enableAttributes(in: Sysfs.list(devicePath + "/events"))
        guard !chosen.isEmpty else { return nil }
        attributes = chosen.map { "events/" + $0 }
        self.node = node
    }
}

/// An accelerometer's motion events, enabled while it is claimed: the event descriptor the IIO core
/// hands out (`IIO_GET_EVENT_FD_IOCTL` on `/dev/iio:deviceN`) is watched only while the device lies
/// still and is not polled (`arm`); the first event wakes the reader (`moved`) and the watch stops
/// until the device lies still again. Events that come while it is polled wait in the kernel's queue
/// and are dropped at the next `arm`, so a moving device costs no wake-up here.
final class IIOMotionEvents {
    /// `_IOR('i', 0x90, int)`, linux/iio/events.h.
    static let getEventFD: UInt = 0x8004_6990
    /// One `struct iio_event_data`: a 64-bit event code and a 64-bit timestamp.
    static let eventSize = 16

    private let support: IIOMotionSupport
    private let eventFD: FileDescriptor
    /// What each enable attribute held before, put back by `close`.
    private var previous: [(path: String, value: String)] = []
    private var watch: FDWatch?
    private var isOpen = true
    private let moved: () -> Void
    private let failed: (String) -> Void
    private var buffer = [UInt8](repeating: 0, count: 16 * IIOMotionEvents.eventSize)

    /// Enables the events and asks for their descriptor; throws what failed (everything undone).
    /// `moved` runs on the first event after `arm`; `failed` when the descriptor hangs up or errs
    /// (the events are closed by then).
    init(_ support: IIOMotionSupport, devicePath: String, moved: @escaping () -> Void,
         failed: @escaping (String) -> Void) throws(IIOError) {
        self.support = support
        self.moved = moved
        self.failed = failed
        let node: FileDescriptor
        do { node = try FileDescriptor.open(support.node, O_RDONLY | O_NONBLOCK | O_CLOEXEC) } catch {
            throw IIOError(path: support.node, error).prefixed("cannot open ")
        }
        defer { node.close() }
        var fd: Int32 = -1
        do { try node.control(Self.getEventFD, &fd) } catch {
            throw IIOError(path: support.node, error).prefixed("no event descriptor from ")
        }
        guard fd >= 0 else { throw IIOError("\(support.node) gave no event descriptor") }
        eventFD = FileDescriptor(rawValue: fd)
        do {
            try eventFD.setCloseOnExec()
            try eventFD.setNonBlocking()
        } catch {
            close()
            throw IIOError(path: support.node, error).prefixed("event descriptor of ")
        }
        for attribute in support.attributes {
            let path = devicePath + "/" + attribute
            let before = Sysfs.attribute(path) ?? "0"
            do { try Sysfs.write(path, "1") } catch {
                close()
                throw error
            }
            previous.append((path, before))
        }
    }

    deinit { close() }

    /// The attributes enabled, for the log.
    var description: String { support.attributes.joined(separator: ", ") }

    /// Watches for the next event, after dropping those that came while the device was polled.
    func arm() {
        guard watch == nil, isOpen else { return }
        guard drain() else { return hungUp("the event descriptor failed") }
        watch = FDWatch(fd: eventFD.rawValue, condition: CGLIB_IO_IN | CGLIB_IO_ERR | CGLIB_IO_HUP) { [unowned self] condition in
            watch = nil
            if condition & (CGLIB_IO_ERR | CGLIB_IO_HUP) != 0 && condition & CGLIB_IO_IN == 0 {
                hungUp("the event descriptor hung up")
                return false
            }
            guard drain() else {
                hungUp("reading the event descriptor failed")
                return false
            }
            moved()
            return false
        }
    }

    /// Stops watching (the device is polled again).
    func disarm() {
        watch?.cancel()
        watch = nil
    }

    /// Reads every queued event; false when the descriptor failed or reached its end.
    private func drain() -> Bool {
        while true {
            do {
                let n = try eventFD.read(into: &buffer)
                if n == 0 { return false }
                if n < buffer.count { return true }
            } catch {
                return error == .wouldBlock || error == .interrupted
            }
        }
    }

    private func hungUp(_ problem: String) {
        close()
        failed(problem)
    }

    /// Disables the events (their attributes as they were) and closes the descriptor; safe twice.
    func close() {
        disarm()
        guard isOpen else { return }
        isOpen = false
        for (path, value) in previous.reversed() { try? Sysfs.write(path, value) }
        previous = []
        eventFD.close()
    }
}
