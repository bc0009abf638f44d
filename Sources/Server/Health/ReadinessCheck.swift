/// One dependency whose health decides whether the service is ready (database, broker, flows...).
///
/// The server declares this protocol; the executable implements it over PostgreSQL and Kafka, so
/// the HTTP adapter never imports the other adapters.
public protocol ReadinessCheck: Sendable {
    /// A short name shown in `/ready` (for example `database`).
    var name: String { get }

    /// Checks the dependency. Implementations must bound their own time (a deadline) and never hang.
    func check() async -> ReadinessStatus
}

/// The outcome of a ``ReadinessCheck``.
public struct ReadinessStatus: Sendable, Hashable, Codable {
    /// Whether the dependency is usable.
    public var ready: Bool
    /// What was seen, for operators (for example `3 brokers` or the error).
    public var detail: String

    /// Creates a status.
    public init(ready: Bool, detail: String) {
        self.ready = ready
        self.detail = detail
    }

    /// A ready status.
    public static func ok(_ detail: String = "ok") -> ReadinessStatus { ReadinessStatus(ready: true, detail: detail) }

    /// A failing status.
    public static func failing(_ detail: String) -> ReadinessStatus { ReadinessStatus(ready: false, detail: detail) }
}

/// A readiness check backed by a closure (for checks that are a single call).
public struct ClosureReadinessCheck: ReadinessCheck {
    public let name: String
    private let body: @Sendable () async -> ReadinessStatus

    /// Creates a check named `name` that runs `body`.
    public init(name: String, _ body: @escaping @Sendable () async -> ReadinessStatus) {
        self.name = name
        self.body = body
    }

    public func check() async -> ReadinessStatus { await body() }
}
