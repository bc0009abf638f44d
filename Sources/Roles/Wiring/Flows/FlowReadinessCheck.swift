import Server
import Services

/// `/ready`'s `flows` check: ready while a valid set serves; the detail shows the last refused
/// reload, so a broken edit of `flows/` is visible without taking the service out of rotation.
public struct FlowReadinessCheck: ReadinessCheck {
    /// The store checked.
    public let store: FlowStore
    /// `flows`.
    public let name = "flows"

    /// Creates the check.
    public init(store: FlowStore) {
        self.store = store
    }

    public func check() async -> ReadinessStatus {
        let status = store.status
        guard let current = status.current else {
            return .failing("no valid flows loaded: \(status.lastError ?? "not loaded yet")")
        }
        guard let error = status.lastError else { return .ok(current.summary) }
        let when = status.lastErrorAt.map { " at \($0.formatted(.iso8601))" } ?? ""
        return .ok("\(current.summary); last reload refused\(when), still serving the last good set: \(error)")
    }
}
