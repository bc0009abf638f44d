import Primitives

/// A store's hours: weekly spans, holiday and pre-holiday hours, closures, overrides and the
/// precedence between them. Profiles are shared by stores of the same kind in `flows/`.
public struct HoursProfile: Hashable, Sendable {
    /// The profile's id in `flows/`.
    public let id: String
    /// The spans of each weekday, indexed by `Weekday.rawValue` (Sunday = 0); empty = closed.
    public let weekly: [[OpeningSpan]]
    /// The hours of holidays, or `nil` to keep the weekday's hours.
    public let holiday: [OpeningSpan]?
    /// The hours of pre-holidays (the day before a holiday), or `nil` to keep the weekday's hours.
    public let preHoliday: [OpeningSpan]?
    /// Named closures.
    public let closures: [Closure]
    /// One-off date overrides.
    public let overrides: [DateOverride]
    /// Which special rule wins when several apply; see ``DayCategory``.
    public let precedence: [DayCategory]

    /// Creates a profile; spans are sorted, and weekdays missing from `weekly` are closed.
    ///
    /// - Important: This initializer does not check for overlaps; call ``validate()`` (the flows
    ///   loader does, and reports the file and line).
    public init(
        id: String,
        weekly: [Weekday: [OpeningSpan]],
        holiday: [OpeningSpan]? = nil,
        preHoliday: [OpeningSpan]? = nil,
        closures: [Closure] = [],
        overrides: [DateOverride] = [],
        precedence: [DayCategory] = DayCategory.defaultPrecedence
    ) {
        self.id = id
        self.weekly = Weekday.allCases.map { (weekly[$0] ?? []).sorted() }
        self.holiday = holiday?.sorted()
        self.preHoliday = preHoliday?.sorted()
        self.closures = closures
        self.overrides = overrides
        self.precedence = precedence
    }

    /// The spans of a weekday.
    public func spans(on weekday: Weekday) -> [OpeningSpan] {
        weekly[weekday.rawValue]
    }

    /// This profile with more closures and overrides (a store's own, added to its profile's).
    /// An added override replaces the profile's override of the same date.
    public func adding(closures extraClosures: [Closure], overrides extraOverrides: [DateOverride]) -> HoursProfile {
        let replaced = Set(extraOverrides.map(\.date))
        var weeklyByDay: [Weekday: [OpeningSpan]] = [:]
        for weekday in Weekday.allCases { weeklyByDay[weekday] = weekly[weekday.rawValue] }
        return HoursProfile(
            id: id, weekly: weeklyByDay, holiday: holiday, preHoliday: preHoliday,
            closures: closures + extraClosures,
            overrides: overrides.filter { !replaced.contains($0.date) } + extraOverrides,
            precedence: precedence
        )
    }

    /// Checks that no two spans of a day overlap, nor a weekly overnight span and the next
    /// weekday's spans.
    ///
    /// - Throws: ``HoursFormatError/overlappingSpans(_:_:)`` for the first overlap found.
    public func validate() throws(HoursFormatError) {
        for spans in weekly { try HoursProfile.checkDisjoint(spans) }
        if let holiday { try HoursProfile.checkDisjoint(holiday) }
        if let preHoliday { try HoursProfile.checkDisjoint(preHoliday) }
        for override in overrides { try HoursProfile.checkDisjoint(override.spans) }
        for weekday in Weekday.allCases {
            let next = weekly[(weekday.rawValue + 1) % 7]
            for span in weekly[weekday.rawValue] where span.crossesMidnight {
                if let clash = next.first(where: { $0.start < span.end - 1440 }) {
                    throw .overlappingSpans(span, clash)
                }
            }
        }
    }

    /// Checks that spans of one day are pairwise disjoint.
    ///
    /// - Throws: ``HoursFormatError/overlappingSpans(_:_:)`` for the first overlap found.
    public static func checkDisjoint(_ spans: [OpeningSpan]) throws(HoursFormatError) {
        let sorted = spans.sorted()
        for (first, second) in zip(sorted, sorted.dropFirst()) where first.overlaps(second) {
            throw .overlappingSpans(first, second)
        }
    }
}
