import ContactCenter
import Foundation
import Logging
import OperatingHours
import PostgresNIO
import Primitives
import Storage

/// The days the analyst views file contacts by, computed by the evaluator the IVR hook uses:
/// `calendar_day` (the Japanese holidays with the `flows/` adjustments, for the calendar's whole
/// range) and `store` / `store_business_day` (every store of `flows/`, for every year with
/// contacts and the coming year).
public enum AnalystCalendar {
    /// Writes the holidays and, when `flows` is given, the stores and their business days.
    ///
    /// - Parameter flows: The current `flows/`; `nil` keeps the stored business days (and writes
    ///   the built-in holidays).
    /// - Returns: Whether anything was rewritten (`false`: the tables held it already).
    @discardableResult
    public static func sync(
        client: PostgresClient, flows: FlowSet?, logger: Logger, now: Date = Date()
    ) async throws -> Bool {
        let calendar = flows?.calendars[FlowSet.japaneseCalendarId] ?? JapaneseHolidayCalendar.standard
        let years = JapaneseHolidayCalendar.supportedYears
        let days = years.flatMap { calendar.holidays(inYear: $0) }.map {
            CalendarDay(day: $0.date.description, nameJa: $0.nameJa, nameEn: $0.nameEn, kind: $0.kind.rawValue)
        }
        var rewritten = try await CalendarStore(client: client, logger: logger).replace(years: years, with: days)
        if let flows {
            rewritten = try await syncBusinessDays(client: client, flows: flows, logger: logger, now: now) || rewritten
        }
        // A rewrite checks the rollups' definitions itself; without one, the settings they were
        // computed with (an `analytics_setting` changed in SQL) are still checked at every start.
        if !rewritten { try await client.query("SELECT rollup_sync_definitions()", logger: logger) }
        return rewritten
    }

    /// Rewrites the stores and their business days for every year with contacts and the coming
    /// year (after an import, a reload of `flows/`, or at start).
    ///
    /// - Returns: Whether they were rewritten (`false`: the tables held them already).
    @discardableResult
    public static func syncBusinessDays(
        client: PostgresClient, flows: FlowSet, logger: Logger, now: Date = Date()
    ) async throws -> Bool {
        let store = BusinessDayStore(client: client, logger: logger)
        let range = years(withContacts: try await store.contactYears(), now: now)
        let (stores, days) = businessDays(of: flows, years: range)
        let rewritten = try await store.replace(stores: stores, days: days)
        logger.debug(
            "\(rewritten ? "wrote" : "kept") \(days.count) business days of \(stores.count) stores for \(range)")
        return rewritten
    }

    /// The years to write: those with contacts, the current one and the next one, within the
    /// years the evaluator knows.
    static func years(withContacts contacts: ClosedRange<Int>?, now: Date) -> ClosedRange<Int> {
        let year = CivilDate(dayNumber: Int(floor(now.timeIntervalSince1970 / 86_400))).year
        let supported = JapaneseHolidayCalendar.supportedYears
        let first = max(supported.lowerBound, min(contacts?.lowerBound ?? year, year))
        let last = min(supported.upperBound, max(contacts?.upperBound ?? year, year + 1))
        return first...max(first, last)
    }

    /// Every store's business day from the last day before `years` through the first day after
    /// them (an instant near a year's edge may belong to a neighbouring business day or, in
    /// another time zone, a neighbouring local date).
    public static func businessDays(of flows: FlowSet, years: ClosedRange<Int>) -> (
        stores: [StoreRow], days: [BusinessDayRow]
    ) {
        let first = CivilDate.dayNumber(year: years.lowerBound, month: 1, day: 1) - 1
        let last = CivilDate.dayNumber(year: years.upperBound, month: 12, day: 31) + 1
        var stores: [StoreRow] = []
        var days: [BusinessDayRow] = []
        days.reserveCapacity(flows.stores.count * (last - first + 1))
        for store in flows.stores {
            stores.append(
                StoreRow(
                    storeId: store.id, name: store.name, timeZone: store.timeZoneIdentifier,
                    calendarId: store.calendarId, hoursProfile: store.profileId, attributes: store.attributes))
            let schedule = store.schedule
            for dayNumber in first...last {
                let date = CivilDate(dayNumber: dayNumber)
                let day = schedule.day(date)
                var opens: UTCTimestamp?
                var closes: UTCTimestamp?
                if let firstSpan = day.spans.first {
                    opens = utc(schedule.interval(of: firstSpan, on: date).opens)
                    closes = day.spans.map { utc(schedule.interval(of: $0, on: date).closes) }.max()
                }
                days.append(
                    BusinessDayRow(
                        storeId: store.id, businessDate: date.description, dayType: day.dayType.rawValue,
                        hoursReason: day.name, holidayName: day.holiday?.nameJa, opensAt: opens, closesAt: closes))
            }
        }
        return (stores, days)
    }

    private static func utc(_ instant: ZonedInstant) -> UTCTimestamp {
        UTCTimestamp(millisecondsSince1970: instant.secondsSinceEpoch * 1000)
    }
}
