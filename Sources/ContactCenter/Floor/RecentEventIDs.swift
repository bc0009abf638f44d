/// A bounded memory of recently seen event ids: the oldest id is forgotten first.
///
/// Duplicates older than the capacity are not detected; the reducer's other rules (agent event
/// order, contact state order) keep such a late duplicate from doing harm.
struct RecentEventIDs: Sendable, Hashable {
    /// How many ids are remembered.
    public let capacity: Int
    private var members: Set<String> = []
    private var order: [String] = []
    private var nextSlot = 0

    /// Creates an empty memory of `capacity` ids (at least 1).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The number of ids remembered.
    public var count: Int { members.count }

    /// Whether `id` was seen recently.
    public func contains(_ id: String) -> Bool { members.contains(id) }

    /// Remembers `id`; returns `false` when it was already remembered (a duplicate).
    @discardableResult
    public mutating func insert(_ id: String) -> Bool {
        guard members.insert(id).inserted else { return false }
        if order.count < capacity {
            order.append(id)
        } else {
            members.remove(order[nextSlot])
            order[nextSlot] = id
            nextSlot = (nextSlot + 1) % capacity
        }
        return true
    }
}
