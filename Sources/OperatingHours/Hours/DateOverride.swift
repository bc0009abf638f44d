import Primitives

/// One-off hours for one date, replacing every other rule of that date (by default precedence).
public struct DateOverride: Hashable, Sendable {
    /// The date.
    public let date: CivilDate
    /// The hours of that day; empty means closed.
    public let spans: [OpeningSpan]
    /// An optional name reported to flows, e.g. `クリスマス特別営業`.
    public let name: String?

    /// Creates an override.
    public init(date: CivilDate, spans: [OpeningSpan], name: String? = nil) {
        self.date = date
        self.spans = spans.sorted()
        self.name = name
    }
}
