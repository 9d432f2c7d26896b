// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// Who sent a datagram on a uevent socket, and whether to believe it (sensors.md, "Hotplug").
///
/// Any local process may send a datagram to a netlink socket's port; only the kernel (port 0, on its
/// multicast group) and udev (root, on its group) announce devices. libudev drops everything else, and
/// so does the daemon: a forged "add" would only make it rescan sysfs, but a flood of them would keep
/// it awake, and a forged event must never be what a reading depends on.
public struct UeventSender: Equatable, Sendable {
    /// The sender's netlink multicast groups (`sockaddr_nl.nl_groups`); 0 for a unicast datagram.
    public var groups: UInt32
    /// The sender's netlink port (`sockaddr_nl.nl_pid`); 0 for the kernel.
    public var port: UInt32
    /// The sender's uid from `SCM_CREDENTIALS`, nil when the datagram carried none.
    public var uid: UInt32?
    /// The sender's pid from `SCM_CREDENTIALS`, for the log.
    public var pid: Int32?

    /// The kernel's multicast group of uevents, and udev's (sent after its rules and hwdb ran).
    public static let kernelGroup: UInt32 = 1
    public static let udevGroup: UInt32 = 2

    public init(groups: UInt32, port: UInt32, uid: UInt32?, pid: Int32?) {
        self.groups = groups
        self.port = port
        self.uid = uid
        self.pid = pid
    }

    /// Why a datagram is not believed.
    public enum Distrust: Equatable, Sendable {
        /// No `SCM_CREDENTIALS` came with it.
        case noCredentials
        /// Sent to this socket's port alone, which any process allowed to send may do.
        case unicast
        /// On the kernel's group, from a port that is not the kernel's.
        case notTheKernel
        /// From a process that is not root.
        case notRoot
    }

    /// Why the datagram is not believed, nil when it is: a unicast, one on the kernel's group that
    /// the kernel did not send, or one whose sender is not root (or did not say who it is).
    public var distrust: Distrust? {
        guard let uid else { return .noCredentials }
        if groups == 0 { return .unicast }
        if groups == UeventSender.kernelGroup && port != 0 { return .notTheKernel }
        if uid != 0 { return .notRoot }
        return nil
    }

    /// `distrust` in words, with who sent it, for the log.
    public var distrustDescription: String? {
        let who = "pid \(pid.map(String.init) ?? "unknown"), uid \(uid.map(String.init) ?? "unknown"), port \(port)"
        switch distrust {
        case nil: return nil
        case .noCredentials: return "it carries no credentials (\(who))"
        case .unicast: return "it was sent to this socket alone, not multicast (\(who))"
        case .notTheKernel: return "it claims the kernel's group but the kernel did not send it (\(who))"
        case .notRoot: return "its sender is neither the kernel nor root (\(who))"
        }
    }
}
