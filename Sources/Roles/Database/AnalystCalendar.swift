import Foundation
import Logging
import OperatingHours
import PostgresNIO
import Storage

/// Writes Japanese national holidays (computed by law) into `calendar_day` for the analyst views.
enum AnalystCalendar {
    /// The years around today that the views need: last year through three years ahead.
    static func sync(client: PostgresClient, logger: Logger, now: Date = Date()) async throws {
        let year = Calendar(identifier: .gregorian).component(.year, from: now)
        let years = (year - 1)...(year + 3)
        let days = years.flatMap { JapaneseHolidayCalendar.standard.holidays(inYear: $0) }.map {
            CalendarDay(day: $0.date.description, nameJa: $0.nameJa, nameEn: $0.nameEn, kind: $0.kind.rawValue)
        }
        try await CalendarStore(client: client, logger: logger).replace(years: years, with: days)
    }
}
