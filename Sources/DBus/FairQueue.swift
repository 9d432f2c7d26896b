// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// Items waiting to be handled, one first-in first-out queue per sender, served in turns: one item
/// of each waiting sender in rotation, so a sender with thousands waiting delays another by at most
/// one item per waiting sender, never by its whole backlog.
struct FairQueue<Item> {
    private var queues: [String: Deque<Item>] = [:]
    /// The senders with items waiting, in the order they will be served.
    private var rotation = Deque<String>()
    /// How many items wait in all.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// How many items `sender` has waiting.
    func waiting(from sender: String) -> Int { queues[sender]?.count ?? 0 }

    /// Adds `item` at the end of `sender`'s queue.
    mutating func append(_ item: Item, from sender: String) {
        if queues[sender] == nil {
            queues[sender] = Deque()
            rotation.append(sender)
        }
        queues[sender]!.append(item)
        count += 1
    }

    /// The next item in turn: the first of the sender at the front, who then goes to the back if
    /// more of its items wait.
    mutating func next() -> Item? {
        guard let sender = rotation.popFirst(), var queue = queues.removeValue(forKey: sender),
              let item = queue.popFirst() else { return nil }
        count -= 1
        if !queue.isEmpty {
            queues[sender] = queue
            rotation.append(sender)
        }
        return item
    }
}

/// A first-in first-out queue with O(1) appends and removals at the front (amortized).
struct Deque<Element> {
    private var storage: [Element] = []
    private var head = 0

    var count: Int { storage.count - head }
    var isEmpty: Bool { head == storage.count }

    mutating func append(_ element: Element) { storage.append(element) }

    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        // Drop the consumed front once it is half the storage, so memory follows what waits.
        if head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }
}
