// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// Bounds on the bytes of calls waiting for their turn (Docs/security.md, "Calls in turns"). A bound is
/// on what already waits: a call is refused when its sender's waiting calls, its user's or everyone's
/// have reached their bound, so one message of any size the bus lets through is always taken (and then
/// served or refused for what it is), and the queues hold at most a bound plus one message.
public struct QueueLimits: Equatable, Sendable {
    /// Per client: 16 MiB, twenty times what a client needs to pipeline its whole allowance (4,096
    /// `CreateController` calls are about 0.75 MiB), and room for one rearranging a 1,000-view stack
    /// 200 times without waiting (9 MB), so a client within its object limits never has a call refused
    /// for cost however it sends them.
    public var bytesPerClient = 16 << 20
    /// Per uid: the system bus lets one uid open 256 connections, which per-client bounds alone would
    /// let hold 4 GiB; two clients' worth.
    public var bytesPerUser = 32 << 20
    /// In all: with one message of up to 32 MiB (the system bus's `max_message_size`) taken past it,
    /// the queues hold at most 96 MiB, below the 100 MiB the connection reads before it stops reading
    /// (`Connection.maxReceivedBytes`), so these bounds, not a stalled socket, decide.
    public var bytesInAll = 64 << 20

    public init() {}

    /// Why a call from `sender` (of `user`, when known) is refused with `waiting` bytes queued; nil
    /// when it may wait.
    func refusal(sender: String, user: UInt32?, waiting: QueueBytes) -> String? {
        let own = waiting.perSender[sender] ?? 0
        if own >= bytesPerClient {
            return "\(sender) already has \(own) bytes of calls waiting to be handled, the most one client may have (\(bytesPerClient))"
        }
        if let user, let theirs = waiting.perUser[user], theirs >= bytesPerUser {
            return "the clients of uid \(user) already have \(theirs) bytes of calls waiting, the most one user may have (\(bytesPerUser))"
        }
        if waiting.total >= bytesInAll {
            return "\(waiting.total) bytes of calls from all clients already wait, the most the daemon holds (\(bytesInAll))"
        }
        return nil
    }
}

/// The bytes of waiting calls, per sender, per uid and in all.
struct QueueBytes {
    private(set) var perSender: [String: Int] = [:]
    private(set) var perUser: [UInt32: Int] = [:]
    private(set) var total = 0

    mutating func add(_ size: Int, sender: String, user: UInt32?) {
        perSender[sender, default: 0] += size
        if let user { perUser[user, default: 0] += size }
        total += size
    }

    /// Takes back what `add` counted; entries that reach zero go, so departed clients leave nothing.
    mutating func remove(_ size: Int, sender: String, user: UInt32?) {
        perSender[sender] = (perSender[sender] ?? size) - size
        if perSender[sender] == 0 { perSender[sender] = nil }
        if let user {
            perUser[user] = (perUser[user] ?? size) - size
            if perUser[user] == 0 { perUser[user] = nil }
        }
        total -= size
    }
}
