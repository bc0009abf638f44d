/// Something that happens at a simulated instant.
enum SimulationOccurrence: Sendable {
    case arrival(store: Int)
    case flowEnd(contact: Int)
    case enqueue(contact: Int)
    case abandon(contact: Int)
    case queueTransfer(contact: Int)
    case connect(contact: Int)
    case holdStart(contact: Int)
    case holdEnd(contact: Int)
    case disconnect(contact: Int)
    case workEnd(contact: Int)
    case login(agent: Int)
    case agentReturn(agent: Int)
    case lunch(agent: Int)
    case heartbeat(agent: Int)
    case shiftEnd(agent: Int)
    case update(ContactTraceRecord)
    case duplicate(key: String, value: [UInt8])
}

/// The pending occurrences of a simulation, earliest first; equal instants in scheduling order,
/// so that a run is deterministic.
struct OccurrenceQueue: Sendable {
    private struct Entry: Sendable {
        var at: Int64
        var sequence: Int
        var occurrence: SimulationOccurrence

        func precedes(_ other: Entry) -> Bool {
            at != other.at ? at < other.at : sequence < other.sequence
        }
    }

    private var heap: [Entry] = []
    private var sequence = 0

    /// The instant of the earliest occurrence, in milliseconds since 1970.
    var nextInstant: Int64? { heap.first?.at }

    mutating func schedule(_ occurrence: SimulationOccurrence, at: Int64) {
        heap.append(Entry(at: at, sequence: sequence, occurrence: occurrence))
        sequence += 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest occurrence if it is at or before `limit`.
    mutating func popFirst(notAfter limit: Int64) -> (at: Int64, occurrence: SimulationOccurrence)? {
        guard let first = heap.first, first.at <= limit else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
                if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return (first.at, first.occurrence)
    }
}
