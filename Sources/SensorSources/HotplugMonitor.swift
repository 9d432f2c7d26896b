@preconcurrency import Glibc
import CGLib
import EventLoop
import Sensors

/// Kernel device events (`NETLINK_KOBJECT_UEVENT`, the kernel's multicast group) watched by the main loop.
///
/// The socket stays open for the daemon's life: it is a quiet descriptor in the loop's poll set and causes
/// a wake-up only when the kernel announces a device event (any subsystem: a plugged USB stick, a battery
/// update), which is rare; the handler ignores all but `SUBSYSTEM=iio`. Datagrams in udev's monitor
/// format (how umockdev emulates events) are understood too. The payload is never trusted beyond
/// "something changed in iio": the source rescans sysfs itself.
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
}
