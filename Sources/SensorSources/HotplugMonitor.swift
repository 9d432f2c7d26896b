@preconcurrency import Glibc
import CGLib
import EventLoop
import Sensors

/// Kernel device events (`NETLINK_KOBJECT_UEVENT`, the kernel's multicast group) watched by the main loop.
///
/// The socket stays open for the daemon's life: it is a quiet descriptor in the loop's poll set, and a
/// socket filter (`UeventFilter`) makes the kernel drop every event but `SUBSYSTEM=iio` before it is
/// queued, so a plugged USB stick or a battery update never wakes the daemon. Datagrams in udev's
/// monitor format (how umockdev emulates events) are understood and filtered too. The handler still
/// ignores all but iio (a kernel without socket filters passes everything), and the payload is never
/// trusted beyond "something changed in iio": the source rescans sysfs itself.
final class HotplugMonitor {
    private let fd: Int32
    private var watch: FDWatch?

    /// Netlink protocol number of kernel uevents (`linux/netlink.h`, not imported by Glibc).
    private static let netlinkKobjectUevent: Int32 = 15

    /// `struct sockaddr_nl`.
    private struct NetlinkAddress {
        var family = sa_family_t(AF_NETLINK)
        var pad: UInt16 = 0
        var pid: UInt32 = 0
        var groups: UInt32 = 1
    }

    /// Opens and binds the socket; nil (after logging) when the system refuses, e.g. in a sandbox without AF_NETLINK.
    init?(_ handler: @escaping (Uevent) -> Void) {
        let fd = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
                        HotplugMonitor.netlinkKobjectUevent)
        guard fd >= 0 else {
            log("warning: no hotplug: cannot open a uevent socket: \(String(cString: strerror(errno)))")
            return nil
        }
        var address = NetlinkAddress()
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<NetlinkAddress>.size)) }
        }
        guard bound == 0 else {
            log("warning: no hotplug: cannot bind the uevent socket: \(String(cString: strerror(errno)))")
            close(fd)
            return nil
        }
        if let problem = HotplugMonitor.attach(UeventFilter(subsystem: "iio"), to: fd) {
            log("warning: every device event will wake the daemon: cannot attach the uevent filter: \(problem)")
        }
        self.fd = fd
        watch = FDWatch(fd: fd, condition: CGLIB_IO_IN | CGLIB_IO_ERR | CGLIB_IO_HUP) { _ in
            var buffer = [UInt8](repeating: 0, count: 8192)
            // Drain what is queued; each datagram is one event.
            while true {
                let n = retryingOnInterrupt { buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }
                if n < 0 {
                    // ENOBUFS: events were lost; a rescan is the remedy, so report a synthetic change.
                    if errno == ENOBUFS { handler(Uevent(properties: ["ACTION": "change", "DEVPATH": "/", "SUBSYSTEM": "iio"])) }
                    break
                }
                if n == 0 { break }
                if let event = Uevent(datagram: Array(buffer[0..<n])) { handler(event) }
            }
            return true
        }
    }

    deinit {
        watch?.cancel()
        close(fd)
    }

    /// `SO_ATTACH_FILTER` and `SOL_SOCKET` (`asm-generic/socket.h`, not imported by Glibc).
    private static let attachFilterOption: Int32 = 26
    private static let socketLevel: Int32 = 1

    /// `struct sock_fprog`.
    private struct FilterProgram {
        var length: UInt16
        var filter: UnsafeMutableRawPointer?
    }

    /// Attaches `filter` to the socket `fd` (`setsockopt(SO_ATTACH_FILTER)`); the error's text on failure.
    static func attach(_ filter: UeventFilter, to fd: Int32) -> String? {
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
        let result = bytes.withUnsafeMutableBytes { raw -> Int32 in
            var program = FilterProgram(length: UInt16(filter.instructions.count), filter: raw.baseAddress)
            return setsockopt(fd, socketLevel, attachFilterOption, &program, socklen_t(MemoryLayout<FilterProgram>.size))
        }
        return result == 0 ? nil : String(cString: strerror(errno))
    }
}
