import Foundation
import Hummingbird
import OperatingHours
import Primitives

extension HookRoutes {
    /// The days `GET /v1/stores/{id}/hours` answers when `to` is not given: a week.
    static let defaultHoursDays = 7

    /// `GET /v1/stores/{id}/hours?from=YYYY-MM-DD&to=YYYY-MM-DD`: the effective hours of each day
    /// (both dates inclusive; `from` defaults to the store's local today, `to` to a week on).
    func hours(_ request: Request, storeId: String) throws(APIError) -> Response {
        guard let loaded = store.current else {
            throw HookResponses.flowsUnavailable
        }
        guard let shop = loaded.flows.store(id: storeId) else {
            throw .notFound(code: "unknown_store", "no store with id \"\(storeId)\"")
        }
        let schedule = shop.schedule
        let query = request.uri.queryParameters
        let from: CivilDate
        if let text = query.get("from") {
            guard let date = CivilDate(parsing: text) else {
                throw .badRequest("`from` must be a date YYYY-MM-DD, got \"\(text)\"")
            }
            from = date
        } else {
            let second = Int64(now().timeIntervalSince1970.rounded(.down))
            from = ZonedInstant(secondsSinceEpoch: second, utcOffset: schedule.timeZone.offset(atUTC: second)).localDate
        }
        let to: CivilDate
        if let text = query.get("to") {
            guard let date = CivilDate(parsing: text) else {
                throw .badRequest("`to` must be a date YYYY-MM-DD, got \"\(text)\"")
            }
            to = date
        } else {
            to = from.adding(days: HookRoutes.defaultHoursDays - 1)
        }
        let days: [DaySchedule]
        do {
            days = try schedule.effectiveSpans(from: from, to: to)
        } catch {
            throw .badRequest("\(error)")
        }
        return JSONResponse.make(
            StoreHoursResponse(
                storeId: shop.id, storeName: shop.name, timeZone: shop.timeZoneIdentifier,
                from: from.description, to: to.description,
                days: days.map { StoreHoursResponse.Day($0, schedule: schedule) }))
    }
}

/// The body of `GET /v1/stores/{id}/hours`.
struct StoreHoursResponse: Encodable, Sendable {
    /// One business day.
    struct Day: Encodable, Sendable {
        var date: String
        var weekday: String
        var dayType: String
        /// The closure's or override's name, or the holiday's for a holiday.
        var name: String
        var holidayName: String
        var holidayNameEn: String
        var spans: [Span]

        init(_ day: DaySchedule, schedule: StoreSchedule) {
            date = day.date.description
            weekday = day.date.weekday.description
            dayType = day.dayType.rawValue
            name = day.name ?? ""
            holidayName = day.holiday?.nameJa ?? ""
            holidayNameEn = day.holiday?.nameEn ?? ""
            spans = day.spans.map { span in
                let interval = schedule.interval(of: span, on: day.date)
                return Span(
                    start: OpeningSpan.clock(span.start), end: OpeningSpan.clock(span.end),
                    opensAt: interval.opens.iso8601, closesAt: interval.closes.iso8601)
            }
        }
    }

    /// One opening: local clock times (an end past 24:00 is the next morning) and instants.
    struct Span: Encodable, Sendable {
        var start: String
        var end: String
        var opensAt: String
        var closesAt: String
    }

    var storeId: String
    var storeName: String
    var timeZone: String
    var from: String
    var to: String
    var days: [Day]
}
