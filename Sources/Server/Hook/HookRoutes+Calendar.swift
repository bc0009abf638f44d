import Hummingbird
import OperatingHours

extension HookRoutes {
    /// `GET /v1/calendar/{year}?calendar=ID`: the holidays of a year of a calendar (`japan`, as
    /// adjusted by `flows/`, by default; the built-in one when no flows are loaded).
    func calendar(_ request: Request, year text: String) throws(APIError) -> Response {
        let calendarId = request.uri.queryParameters.get("calendar") ?? FlowSet.japaneseCalendarId
        let holidayCalendar: any HolidayCalendar
        if let loaded = store.current {
            guard let found = loaded.flows.calendars[calendarId] else {
                throw .notFound(code: "unknown_calendar", "no calendar with id \"\(calendarId)\" in flows/")
            }
            holidayCalendar = found
        } else if calendarId == FlowSet.japaneseCalendarId {
            holidayCalendar = JapaneseHolidayCalendar.standard
        } else {
            throw .notFound(code: "unknown_calendar", "no flows loaded; only `japan` is known")
        }
        let range = holidayCalendar.supportedYears
        guard text.utf8.count <= 6, let year = Int(text), range.contains(year) else {
            throw .badRequest(
                "the year must be a number from \(range.lowerBound) to \(range.upperBound), got \"\(text)\"")
        }
        let holidays = holidayCalendar.holidays(inYear: year).map(CalendarResponse.Entry.init)
        return JSONResponse.make(CalendarResponse(year: year, calendar: calendarId, holidays: holidays))
    }
}

/// The body of `GET /v1/calendar/{year}`.
struct CalendarResponse: Encodable, Sendable {
    /// One holiday.
    struct Entry: Encodable, Sendable {
        var date: String
        var weekday: String
        var nameJa: String
        var nameEn: String
        var kind: String
        var provisional: Bool

        init(_ holiday: Holiday) {
            date = holiday.date.description
            weekday = holiday.date.weekday.description
            nameJa = holiday.nameJa
            nameEn = holiday.nameEn
            kind = holiday.kind.rawValue
            provisional = holiday.provisional
        }

        enum CodingKeys: String, CodingKey {
            case date, weekday, kind, provisional
            case nameJa = "name_ja"
            case nameEn = "name_en"
        }
    }

    var year: Int
    var calendar: String
    var holidays: [Entry]
}
