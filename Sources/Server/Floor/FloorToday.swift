import Foundation
import OperatingHours
import Primitives

/// Today's date and day type on the floor, for the console header (`GET /v1/floor/today`).
struct FloorToday: Codable, Sendable, Hashable {
    /// A holiday's names.
    struct HolidayName: Codable, Sendable, Hashable {
        var date: String
        var nameJa: String
        var nameEn: String
    }

    /// `YYYY-MM-DD` in ``timeZone``.
    var date: String
    /// The time zone of the business day.
    var timeZone: String
    /// `monday` … `sunday`.
    var weekday: String
    /// `holiday`, `pre_holiday`, `weekend` or `weekday`, ranked by flows' default precedence
    /// (``DayCategory/calendarDayType(of:calendar:precedence:)``; store closures and overrides
    /// are per store and not shown here).
    var dayType: String
    /// Today's holiday, if any.
    var holiday: HolidayName?
    /// The next holiday within a year, for a pre-holiday that is what tomorrow is.
    var nextHoliday: HolidayName?

    /// The day containing `instant` in `timeZone`, by `calendar`.
    init(at instant: Date, timeZone: TimeZone, calendar holidays: any HolidayCalendar) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        let today =
            CivilDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
            ?? CivilDate(dayNumber: 0)
        func name(_ holiday: Holiday) -> HolidayName {
            HolidayName(date: holiday.date.description, nameJa: holiday.nameJa, nameEn: holiday.nameEn)
        }
        date = today.description
        self.timeZone = timeZone.identifier
        weekday = today.weekday.description.lowercased()
        holiday = holidays.holiday(on: today).map(name)
        nextHoliday = (1...366).lazy.compactMap { holidays.holiday(on: today.adding(days: $0)) }.first.map(name)
        dayType = DayCategory.calendarDayType(of: today, calendar: holidays).rawValue
    }
}
