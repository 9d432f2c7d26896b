// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// Object numbers in the order they were created, which is ascending, so the oldest objects are
/// found without sorting them all. Removed numbers are dropped lazily: the list is compacted once
/// they make up half of it, so it stays within twice the live objects and a removal costs O(1)
/// amortized.
struct CreationOrder<ID> {
    private var ids: [ID] = []
    private var removed = 0

    mutating func append(_ id: ID) { ids.append(id) }

    /// Notes that one listed number no longer names an object.
    mutating func noteRemoval(isLive: (ID) -> Bool) {
        removed += 1
        guard removed * 2 > ids.count else { return }
        ids.removeAll { !isLive($0) }
        removed = 0
    }

    /// The first `n` numbers that still name an object, oldest first.
    func first(_ n: Int, isLive: (ID) -> Bool) -> [ID] {
        var out: [ID] = []
        for id in ids where isLive(id) {
            guard out.count < n else { break }
            out.append(id)
        }
        return out
    }
}
