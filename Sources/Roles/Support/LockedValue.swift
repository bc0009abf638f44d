import NIOConcurrencyHelpers

/// A value behind a lock, for short critical sections shared between tasks and threads.
final class LockedValue<Value: Sendable>: Sendable {
    private let storage: NIOLockedValueBox<Value>

    init(_ value: Value) { storage = NIOLockedValueBox(value) }

    var value: Value {
        get { storage.withLockedValue { $0 } }
        set { storage.withLockedValue { $0 = newValue } }
    }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try storage.withLockedValue(body)
    }
}
