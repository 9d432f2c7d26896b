// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Log

/// The calls waiting for their turn (Docs/security.md, "Calls in turns"): a queue per sender, served in
/// rotation (`FairQueue`), bounded by the bytes of what waits per sender, per uid and in all
/// (`QueueLimits`), with each sender's departure queued behind its calls.
struct CallQueue {
    var limits = QueueLimits()
    /// The uid a client connected as, when already known.
    var userOf: (String) -> UInt32? = { _ in nil }
    private var waiting = FairQueue<Entry>()
    /// The bytes of the calls waiting, per sender, per uid and in all.
    private var bytes = QueueBytes()
    /// Senders refused for cost since they connected: each is logged once, not at every call.
    private var refusedSenders = Set<String>()

    /// What is taken from the queue.
    enum Item {
        case call(Message)
        /// The sender left the bus: run when its earlier calls are done, so nothing it sent is
        /// handled after its departure has been.
        case departure(() -> Void)
    }

    /// What waits: a call with its size on the wire and the uid it was counted against, or a departure.
    private enum Entry {
        case call(Message, size: Int, user: UInt32?)
        case departure(() -> Void)
    }

    var isEmpty: Bool { waiting.isEmpty }

    /// Queues `message` behind its sender's earlier calls; nil, or why it is refused for cost (the
    /// sender is logged at its first refusal). What already waits is bounded, not what arrives: one
    /// message of any size the bus allows is always taken, then served or refused for what it is.
    mutating func admit(_ message: Message, from sender: String) -> String? {
        let user = userOf(sender)
        if let refusal = limits.refusal(sender: sender, user: user, waiting: bytes) {
            if refusedSenders.insert(sender).inserted {
                Log.warning("refusing calls from \(sender)\(user.map { " (uid \($0))" } ?? "") for cost: \(refusal); "
                    + "refused calls that want a reply are answered LimitsExceeded, the others dropped; logged once per client")
            }
            return refusal
        }
        let size = message.wireSize
        bytes.add(size, sender: sender, user: user)
        waiting.append(.call(message, size: size, user: user), from: sender)
        return nil
    }

    /// Queues `handler` behind the calls `sender` has waiting.
    mutating func appendDeparture(from sender: String, _ handler: @escaping () -> Void) {
        waiting.append(.departure(handler), from: sender)
    }

    /// The next item in rotation, its bytes no longer counted.
    mutating func next() -> Item? {
        switch waiting.next() {
        case nil: return nil
        case .call(let message, let size, let user)?:
            bytes.remove(size, sender: message.sender ?? "", user: user)
            return .call(message)
        case .departure(let handler)?: return .departure(handler)
        }
    }

    func hasWaiting(from sender: String) -> Bool { waiting.waiting(from: sender) > 0 }

    /// `sender` left and nothing of it waits: a client that comes back under a new name is logged afresh.
    mutating func forget(_ sender: String) { refusedSenders.remove(sender) }
}
