import Synchronization

/// Counts the requests the receiver is reading and turns away those beyond its limit, so the
/// memory of all requests together stays bounded (see ``ReceiverConfiguration``).
final class ReceiverAdmission: Sendable {
    private let current = Atomic<Int>(0)
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Takes a place; `false` when all are taken (answer 429).
    func enter() -> Bool {
        while true {
            let now = current.load(ordering: .relaxed)
            guard now < limit else { return false }
            if current.compareExchange(expected: now, desired: now + 1, ordering: .acquiringAndReleasing).exchanged {
                return true
            }
        }
    }

    /// Gives a place back.
    func leave() { current.subtract(1, ordering: .acquiringAndReleasing) }

    /// Requests being read.
    var count: Int { current.load(ordering: .relaxed) }
}
