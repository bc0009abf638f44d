import ArgumentParser
import Foundation
import OperatingHours
import Roles

/// `switchboard calendar`: the holidays of one year as a table, or of a range of years as CSV.
struct CalendarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: "Print the Japanese national holidays computed by law (1948-2150).",
        discussion: """
            Examples:
              switchboard calendar 2026
              switchboard calendar --from 1955 --to 2050 --format csv
              switchboard calendar 2027 --flows flows --calendar hanamaru-group
            """
    )

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, csv
    }

    @Argument(help: "One year (default: this year, or --from/--to).")
    var year: Int?

    @Option(help: "The first year of a range.")
    var from: Int?

    @Option(help: "The last year of a range (inclusive).")
    var to: Int?

    @Option(help: "table (readable) or csv (date,name_ja,name_en,kind).")
    var format: Format = .table

    @Option(help: "Apply the calendars of this flows/ directory (additions and removals).")
    var flows: String?

    @Option(help: "The calendar id of --flows to print.")
    var calendar: String = FlowSet.japaneseCalendarId

    func run() throws {
        let holidayCalendar = try selectedCalendar()
        let supported = holidayCalendar.supportedYears
        let thisYear = Calendar(identifier: .gregorian).component(.year, from: Date())
        let first = year ?? from ?? to ?? thisYear
        let last = year ?? to ?? from ?? thisYear
        guard year == nil || (from == nil && to == nil) else {
            throw ValidationError("give a year or --from/--to, not both")
        }
        guard supported.contains(first), supported.contains(last), first <= last else {
            throw ValidationError(
                "years must be within \(supported.lowerBound)...\(supported.upperBound), first <= last")
        }
        let holidays = (first...last).flatMap { holidayCalendar.holidays(inYear: $0) }
        switch format {
        case .csv: print(HolidayListing.csv(holidays), terminator: "")
        case .table: print(HolidayListing.table(holidays), terminator: "")
        }
    }

    private func selectedCalendar() throws -> any HolidayCalendar {
        guard let flows else {
            guard calendar == FlowSet.japaneseCalendarId else {
                throw ValidationError("--calendar \(calendar) needs --flows DIR declaring it")
            }
            return JapaneseHolidayCalendar.standard
        }
        guard let found = try FlowsCommand.load(flows).flows.calendars[calendar] else {
            throw ValidationError("no calendar \"\(calendar)\" in \(flows)")
        }
        return found
    }
}
