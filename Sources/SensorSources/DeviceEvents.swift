// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import SystemCalls
import CGLib
import EventLoop
import Sensors
import Log

/// Device events (`NETLINK_KOBJECT_UEVENT`) watched by the main loop.
///
/// Events come from udev's multicast group when udev runs (`/run/udev/control` exists, as libudev
/// decides): udev sends them after its rules and hwdb have run, so the udev database already holds a
/// new device's `ACCEL_MOUNT_MATRIX` and `ACCEL_LOCATION` when the daemon reads it. Without udev they
/// come from the kernel's group. Each datagram's sender is checked as libudev checks it
/// (`UeventSender`): credentials (`SO_PASSCRED`) of root, never a unicast, never a process posing as
/// the kernel. Datagrams in either format are understood (umockdev emulates udev's).
///
/// A socket is a quiet descriptor in the loop's poll set, and a socket filter (`UeventFilter`) makes
/// the kernel drop every event but those of its subsystem (`SUBSYSTEM=iio`, or `input` for the
/// posture source) before it is queued, in either format, so a plugged USB stick or a battery update
/// never wakes the daemon. Events of another subsystem are still dropped here (a kernel without
/// socket filters passes everything), and the payload is never trusted beyond "something changed in
/// this subsystem": the source rescans sysfs itself.
///
/// Every source that follows hotplug holds a `DeviceEvents.Subscription`: the subscriptions of one
/// subsystem share one socket, opened for the first and closed after the last, and each event goes to
/// every subscriber in the order they subscribed. The sensors follow `iio` for as long as the daemon
/// runs; the posture source follows `input` (a keyboard cover's tablet-mode switch) only while
/// claimed, on a socket of its own whose filter drops everything else. The daemon has one
/// `DeviceEvents`, handed to every source.
public final class DeviceEvents {
    /// The socket of each subsystem while anyone subscribes.
    private var sockets: [String: UeventSocket] = [:]
    private var lastToken = 0

    public init() {}

    /// One subscription; ended when it is released.
    public final class Subscription {
        private unowned let events: DeviceEvents
        fileprivate let subsystem: String
        fileprivate let token: Int

        fileprivate init(_ events: DeviceEvents, _ subsystem: String, _ token: Int) {
            self.events = events
            self.subsystem = subsystem
            self.token = token
        }

        deinit { events.unsubscribe(self) }
    }

    /// Subscribes `handler` to the device events of `subsystem`; nil (after logging) when no socket can be opened.
    func subscribe(subsystem: String, _ handler: @escaping (Uevent) -> Void) -> Subscription? {
        if sockets[subsystem] == nil { sockets[subsystem] = UeventSocket(subsystem: subsystem) }
        guard let socket = sockets[subsystem] else { return nil }
        lastToken += 1
        socket.handlers.append((lastToken, handler))
        return Subscription(self, subsystem, lastToken)
    }

    private func unsubscribe(_ subscription: Subscription) {
        guard let socket = sockets[subscription.subsystem] else { return }
        socket.handlers.removeAll { $0.token == subscription.token }
        if socket.handlers.isEmpty { sockets[subscription.subsystem] = nil }
    }
}

/// The uevent socket the subscriptions of one subsystem share.
final class UeventSocket {
    fileprivate var handlers: [(token: Int, handler: (Uevent) -> Void)] = []
    private let subsystem: String

    /// Each event of the subsystem to every subscriber; a subscriber's handler may end its own or another's subscription.
    private func dispatch(_ event: Uevent) {
        guard event.subsystem == subsystem else { return }
        for (token, handler) in handlers where handlers.contains(where: { $0.token == token }) { handler(event) }
    }

    private let fd: FileDescriptor
    private var watch: FDWatch?
    /// Room for one datagram, its sender's address and its credentials, kept for the daemon's life.
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8192, alignment: 8)
    private let control = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 8)
    /// The kinds of distrusted datagrams logged already: a sender that floods is logged once.
    private var distrustLogged: [UeventSender.Distrust] = []

    /// Netlink protocol number of kernel uevents (`linux/netlink.h`, not imported by Glibc).
    private static let netlinkKobjectUevent: Int32 = 15
    /// `SOL_SOCKET`, `SO_PASSCRED` and `SCM_CREDENTIALS` (`asm-generic/socket.h`, `bits/socket.h`).
    private static let socketLevel: Int32 = 1
    private static let passCredentials: Int32 = 16
    private static let credentialsMessage: Int32 = 2
    /// Where udev says it runs; libudev checks the same file.
    static let udevControl = "/run/udev/control"

    /// `struct sockaddr_nl`.
    private struct NetlinkAddress {
        var family = sa_family_t(AF_NETLINK)
        var pad: UInt16 = 0
        var pid: UInt32 = 0
        var groups: UInt32 = 0
    }

    /// Opens and binds the socket for the events of `subsystem`; nil (after logging) when the system
    /// refuses, e.g. in a sandbox without AF_NETLINK.
    fileprivate init?(subsystem: String) {
        self.subsystem = subsystem
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
                                           UeventSocket.netlinkKobjectUevent)
        } catch {
            Log.warning("no hotplug: cannot open a uevent socket: \(error)")
            return nil
        }
        let udev = FileSystem.exists(UeventSocket.udevControl)
        var on: Int32 = 1
        var address = NetlinkAddress(groups: udev ? UeventSender.udevGroup : UeventSender.kernelGroup)
        do {
            try fd.setOption(UeventSocket.socketLevel, UeventSocket.passCredentials, &on, length: MemoryLayout<Int32>.size)
            try fd.bind(&address, length: MemoryLayout<NetlinkAddress>.size)
        } catch {
            Log.warning("no hotplug: cannot set up the uevent socket: \(error)")
            fd.close()
            return nil
        }
        if let problem = UeventSocket.attach(UeventFilter(subsystem: subsystem), to: fd) {
            Log.warning("every device event will wake the daemon: cannot attach the uevent filter: \(problem)")
        }
        self.fd = fd
        let from = udev ? "udev, after its rules and hwdb" : "the kernel (udev is not running)"
        if subsystem == "iio" { Log.info("hotplug: device events from " + from) } else { Log.debug("hotplug: \(subsystem) events from " + from) }
        watch = FDWatch(fd: fd.rawValue, condition: CGLIB_IO_IN | CGLIB_IO_ERR | CGLIB_IO_HUP) { [unowned self] _ in
            // Drain what is queued; each datagram is one event.
            while let received = receive() {
                switch received {
                case .event(let event): dispatch(event)
                case .distrusted(let sender): distrusted(sender)
                case .ignored: continue
                }
            }
            return true
        }
    }

    deinit {
        watch?.cancel()
        fd.close()
        buffer.deallocate()
        control.deallocate()
    }

    private enum Received {
        case event(Uevent)
        case distrusted(UeventSender)
        /// Not a uevent at all.
        case ignored
    }

    /// The next datagram (`recvmsg` with its sender and credentials); nil when none is queued.
    private func receive() -> Received? {
        var sender = NetlinkAddress()
        var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
        let received = withUnsafeMutablePointer(to: &sender) { senderPointer in
            withUnsafeMutablePointer(to: &vector) { vectorPointer in
                var message = msghdr(msg_name: UnsafeMutableRawPointer(senderPointer),
                                     msg_namelen: socklen_t(MemoryLayout<NetlinkAddress>.size),
                                     msg_iov: vectorPointer, msg_iovlen: 1,
                                     msg_control: control.baseAddress, msg_controllen: control.count, msg_flags: 0)
                return Result { () throws(Errno) -> (Int, Int) in
                    let n = try fd.receive(&message)
                    return (n, n > 0 ? min(Int(message.msg_controllen), control.count) : 0)
                }
            }
        }
        let n: Int, controlLength: Int
        switch received {
        case .success(let counts): (n, controlLength) = counts
        // ENOBUFS: events were lost; a rescan is the remedy, so report a synthetic change.
        case .failure(.noBufferSpace): return .event(Uevent(properties: ["ACTION": "change", "DEVPATH": "/", "SUBSYSTEM": subsystem]))
        case .failure: return nil
        }
        if n == 0 { return nil }
        let credentials = Self.credentials(in: UnsafeRawBufferPointer(rebasing: control[0..<controlLength]))
        let from = UeventSender(groups: sender.groups, port: sender.pid, uid: credentials?.uid, pid: credentials?.pid)
        if from.distrust != nil { return .distrusted(from) }
        guard let event = Uevent(datagram: Array(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))) else { return .ignored }
        return .event(event)
    }

    /// The pid and uid of an `SCM_CREDENTIALS` control message (`struct cmsghdr`: a size_t length,
    /// level and type, then `struct ucred` at the next 8-byte boundary), nil when there is none.
    private static func credentials(in control: UnsafeRawBufferPointer) -> (pid: Int32, uid: UInt32)? {
        let header = MemoryLayout<Int>.size + 8
        var offset = 0
        while offset + header <= control.count {
            let length = control.loadUnaligned(fromByteOffset: offset, as: Int.self)
            let level = control.loadUnaligned(fromByteOffset: offset + MemoryLayout<Int>.size, as: Int32.self)
            let type = control.loadUnaligned(fromByteOffset: offset + MemoryLayout<Int>.size + 4, as: Int32.self)
            guard length >= header, offset + length <= control.count else { return nil }
            if level == socketLevel, type == credentialsMessage, length >= header + 12 {
                return (control.loadUnaligned(fromByteOffset: offset + header, as: Int32.self),
                        control.loadUnaligned(fromByteOffset: offset + header + 4, as: UInt32.self))
            }
            offset += (length + 7) & ~7
        }
        return nil
    }

    /// A datagram that is not believed: dropped, and logged the first time for each reason only.
    private func distrusted(_ sender: UeventSender) {
        guard let kind = sender.distrust, !distrustLogged.contains(kind), let reason = sender.distrustDescription else { return }
        distrustLogged.append(kind)
        Log.warning("hotplug: dropped a device event: \(reason); further ones like it are dropped without a word")
    }

    /// `SO_ATTACH_FILTER` (`asm-generic/socket.h`, not imported by Glibc).
    private static let attachFilterOption: Int32 = 26

    /// `struct sock_fprog`.
    private struct FilterProgram {
        var length: UInt16
        var filter: UnsafeMutableRawPointer?
    }

    /// Attaches `filter` to the socket `fd` (`setsockopt(SO_ATTACH_FILTER)`); the error's text on failure.
    static func attach(_ filter: UeventFilter, to fd: FileDescriptor) -> String? {
        // `struct sock_filter` in the host's byte order: code (16 bits), jt, jf, k (32 bits).
        var bytes = [UInt8](repeating: 0, count: 8 * filter.instructions.count)
        bytes.withUnsafeMutableBytes { raw in
            for (n, i) in filter.instructions.enumerated() {
                raw.storeBytes(of: i.code, toByteOffset: 8 * n, as: UInt16.self)
                raw.storeBytes(of: i.jt, toByteOffset: 8 * n + 2, as: UInt8.self)
                raw.storeBytes(of: i.jf, toByteOffset: 8 * n + 3, as: UInt8.self)
                raw.storeBytes(of: i.k, toByteOffset: 8 * n + 4, as: UInt32.self)
            }
        }
        let result = bytes.withUnsafeMutableBytes { raw in
            var program = FilterProgram(length: UInt16(filter.instructions.count), filter: raw.baseAddress)
            return Result { () throws(Errno) in
                try fd.setOption(socketLevel, attachFilterOption, &program, length: MemoryLayout<FilterProgram>.size)
            }
        }
        if case .failure(let error) = result { return error.description }
        return nil
    }
}
