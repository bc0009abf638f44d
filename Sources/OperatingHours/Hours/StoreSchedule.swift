import Foundation
import Primitives

/// A store's hours profile compiled against its time zone and holiday calendar: the evaluator.
///
/// Immutable and `Sendable`; build it once when `flows/` is loaded. ``decision(at:)`` does no
/// Foundation calendar work and allocates nothing but the answer: holidays come from a
/// constant-time table and offsets from ``TimeZoneOffsets``.
public struct StoreSchedule: Sendable {
    /// How far ahead ``HoursDecision/nextOpenAt`` is searched.
    public static let nextOpeningSearchDays = 400
    /// The longest range ``effectiveSpans(from:to:)`` answers.
    public static let maximumRangeDays = 366
    /// How many touching or overlapping spans are chained into one opening before giving up
    /// (a store open around the clock has no closing time).
    static let maximumChainedSpans = 16

    /// The hours.
    public let profile: HoursProfile
    /// The store's time zone.
    public let timeZone: TimeZoneOffsets
    /// The store's holidays.
    public let calendar: any HolidayCalendar
    private let overridesByDay: [Int: DateOverride]
    /// Whether any span of the profile ends past midnight; when none does, the previous day
    /// never needs resolving.
    private let hasOvernightSpans: Bool

    /// Compiles a profile for a time zone and calendar.
    public init(profile: HoursProfile, timeZone: TimeZoneOffsets, calendar: any HolidayCalendar) {
        self.profile = profile
        self.timeZone = timeZone
        self.calendar = calendar
        self.overridesByDay = Dictionary(
            profile.overrides.map { ($0.date.dayNumber, $0) }, uniquingKeysWith: { _, last in last })
        let allSpans =
            profile.weekly.joined() + (profile.holiday ?? []) + (profile.preHoliday ?? [])
            + profile.overrides.flatMap(\.spans)
        self.hasOvernightSpans = allSpans.contains(where: \.crossesMidnight)
    }

    // MARK: Days

    /// The effective hours of a business day.
    public func day(_ date: CivilDate) -> DaySchedule {
        resolve(dayNumber: date.dayNumber)
    }

    /// The effective hours of each day from `from` through `to`, inclusive.
    ///
    /// - Throws: ``HoursError`` when `to` is before `from` or the range exceeds
    ///   ``maximumRangeDays`` days.
    public func effectiveSpans(from: CivilDate, to: CivilDate) throws(HoursError) -> [DaySchedule] {
        let first = from.dayNumber
        let last = to.dayNumber
        guard last >= first else { throw .invalidRange(from: from, to: to) }
        let count = last - first + 1
        guard count <= StoreSchedule.maximumRangeDays else {
            throw .rangeTooLong(days: count, limit: StoreSchedule.maximumRangeDays)
        }
        return (first...last).map(resolve(dayNumber:))
    }

    /// The instants at which a span of a business day opens and closes, in the store's offsets.
    public func interval(of span: OpeningSpan, on date: CivilDate) -> (opens: ZonedInstant, closes: ZonedInstant) {
        let midnight = Int64(date.dayNumber) * 86_400
        return (zoned(local: midnight + Int64(span.start) * 60), zoned(local: midnight + Int64(span.end) * 60))
    }

    // MARK: Decisions

    /// Whether the store is open at an instant, with the day type, closing and next opening.
    public func decision(at date: Date) -> HoursDecision {
        decision(atSecond: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// Whether the store is open at an instant given as whole seconds since 1970 (UTC).
    public func decision(atSecond now: Int64) -> HoursDecision {
        let offset = timeZone.offset(atUTC: now)
        let at = ZonedInstant(secondsSinceEpoch: now, utcOffset: offset)
        let local = now + Int64(offset)
        let today = Int(ZonedInstant.floorDivide(local, 86_400))
        let lookup = covering(local: local, today: today)
        if let (day, span) = lookup.hit {
            var end = Int64(day.date.dayNumber) * 86_400 + Int64(span.end) * 60
            var chained = 0
            var unbroken = false
            while let (nextDay, next) = covering(local: end, today: Int(ZonedInstant.floorDivide(end, 86_400))).hit {
                let nextEnd = Int64(nextDay.date.dayNumber) * 86_400 + Int64(next.end) * 60
                guard nextEnd > end else { break }
                end = nextEnd
                chained += 1
                if chained >= StoreSchedule.maximumChainedSpans {
                    unbroken = true
                    break
                }
            }
            let closesAt = unbroken ? nil : zoned(local: end)
            let nextOpen = unbroken ? nil : nextOpening(afterLocal: end, known: nil)
            return HoursDecision(
                at: at, isOpen: true, day: day, openSpan: span, closesAt: closesAt, nextOpenAt: nextOpen)
        }
        let todaySchedule = lookup.today ?? resolve(dayNumber: today)
        return HoursDecision(
            at: at, isOpen: false, day: todaySchedule, openSpan: nil, closesAt: nil,
            nextOpenAt: nextOpening(afterLocal: local, known: todaySchedule))
    }

    // MARK: Internals

    /// The span covering a local second (the previous day's overnight spans first), and the
    /// local day's schedule when it was resolved on the way.
    private func covering(local: Int64, today: Int) -> (hit: (DaySchedule, OpeningSpan)?, today: DaySchedule?) {
        let secondOfDay = local - Int64(today) * 86_400
        if hasOvernightSpans {
            let previous = resolve(dayNumber: today - 1)
            for span in previous.spans where span.end > 1440 && secondOfDay + 86_400 < Int64(span.end) * 60 {
                return ((previous, span), nil)
            }
        }
        let current = resolve(dayNumber: today)
        for span in current.spans where Int64(span.start) * 60 <= secondOfDay && secondOfDay < Int64(span.end) * 60 {
            return ((current, span), current)
        }
        return (nil, current)
    }

    /// The first opening strictly after a local second, within the search horizon.
    private func nextOpening(afterLocal local: Int64, known: DaySchedule?) -> ZonedInstant? {
        let firstDay = Int(ZonedInstant.floorDivide(local, 86_400))
        for dayNumber in firstDay...(firstDay + StoreSchedule.nextOpeningSearchDays) {
            let schedule: DaySchedule
            if let known, known.date.dayNumber == dayNumber {
                schedule = known
            } else {
                schedule = resolve(dayNumber: dayNumber)
            }
            let midnight = Int64(dayNumber) * 86_400
            for span in schedule.spans where midnight + Int64(span.start) * 60 > local {
                return zoned(local: midnight + Int64(span.start) * 60)
            }
        }
        return nil
    }

    private func zoned(local: Int64) -> ZonedInstant {
        let utc = timeZone.utcSecond(forLocal: local)
        return ZonedInstant(secondsSinceEpoch: utc, utcOffset: timeZone.offset(atUTC: utc))
    }

    /// Applies the precedence to one business day.
    private func resolve(dayNumber: Int) -> DaySchedule {
        let date = CivilDate(dayNumber: dayNumber)
        let weekday = Weekday(dayNumber: dayNumber)
        let holiday = calendar.holiday(onDayNumber: dayNumber)
        let weekly = profile.weekly[weekday.rawValue]
        for category in profile.precedence {
            switch category {
            case .override:
                if !overridesByDay.isEmpty, let override = overridesByDay[dayNumber] {
                    return DaySchedule(
                        date: date, dayType: .override, name: override.name, holiday: holiday,
                        spans: override.spans)
                }
            case .closure:
                if !profile.closures.isEmpty {
                    let monthDay = date.month * 100 + date.day
                    for closure in profile.closures where closure.contains(dayNumber: dayNumber, monthDay: monthDay) {
                        return DaySchedule(
                            date: date, dayType: .closure, name: closure.name, holiday: holiday, spans: [])
                    }
                }
            case .holiday:
                if let holiday {
                    return DaySchedule(
                        date: date, dayType: .holiday, name: holiday.nameJa, holiday: holiday,
                        spans: profile.holiday ?? weekly)
                }
            case .preHoliday:
                if calendar.holiday(onDayNumber: dayNumber + 1) != nil {
                    return DaySchedule(
                        date: date, dayType: .preHoliday, name: nil, holiday: holiday,
                        spans: profile.preHoliday ?? weekly)
                }
            }
        }
        return DaySchedule(
            date: date, dayType: weekday.isWeekend ? .weekend : .weekday, name: nil, holiday: holiday,
            spans: weekly)
    }
}
