import Foundation
import OperatingHours
import Primitives

/// The tools about stores and holidays: `store_status`, `store_hours`, `holidays` and
/// `find_stores`, answered from the flows the hook evaluates.
struct StoreTools: Sendable {
    /// The longest `store_hours` range, in days.
    static let maximumHoursDays = 62
    /// The longest `holidays` range, in days.
    static let maximumHolidayDays = StoreSchedule.maximumRangeDays
    /// The most stores `find_stores` returns.
    static let maximumMatches = 10

    let flows: any FlowProvider
    let now: @Sendable () -> Date

    var tools: [MCPTool] {
        [storeStatus, storeHours, holidays, findStores]
    }

    // MARK: store_status

    var storeStatus: MCPTool {
        MCPTool(
            name: "store_status", title: "Is a store open?",
            description: """
                Whether a restaurant is open at an instant (now by default), by its hours, Japanese national \
                holidays, eves of holidays, closures and overnight hours: the business day and its type, the \
                reason, the day's hours, when it closes and when it next opens. Find the storeId with find_stores.
                """,
            inputSchema: [
                "type": "object",
                "properties": [
                    "storeId": ["type": "string", "description": "The store's id, e.g. shibuya-trattoria."],
                    "at": [
                        "type": "string", "format": "date-time",
                        "description":
                            "The instant, ISO 8601 with an offset (2026-07-20T18:30:00+09:00); now by default.",
                    ],
                    "language": ToolLanguage.schema,
                ],
                "required": ["storeId"],
            ]
        ) { arguments throws(MCPToolError) in
            let (store, _) = try loadedStore(arguments)
            let language = try ToolLanguage.of(arguments, store: store)
            let instant = try Self.instant(arguments, "at") ?? now()
            let decision = store.schedule.decision(at: instant)
            return MCPToolResult(
                text: StoreStatus.text(store: store, decision: decision, language: language),
                structuredContent: StoreStatus(store: store, decision: decision).json)
        }
    }

    // MARK: store_hours

    var storeHours: MCPTool {
        MCPTool(
            name: "store_hours", title: "A store's hours",
            description: """
                A restaurant's hours for each business day from one date to another (both included, at most \
                \(Self.maximumHoursDays) days), with each day's type (holiday, eve of a holiday, closure, special \
                hours) and names. Times past 24:00 are the next morning.
                """,
            inputSchema: [
                "type": "object",
                "properties": [
                    "storeId": ["type": "string", "description": "The store's id."],
                    "from": ["type": "string", "format": "date", "description": "The first date, YYYY-MM-DD."],
                    "to": ["type": "string", "format": "date", "description": "The last date, YYYY-MM-DD."],
                    "language": ToolLanguage.schema,
                ],
                "required": ["storeId", "from", "to"],
            ]
        ) { arguments throws(MCPToolError) in
            let (store, _) = try loadedStore(arguments)
            let language = try ToolLanguage.of(arguments, store: store)
            let (from, to) = try Self.range(arguments, maximumDays: Self.maximumHoursDays)
            let days: [DaySchedule]
            do {
                days = try store.schedule.effectiveSpans(from: from, to: to)
            } catch {
                throw MCPToolError(code: "range_too_long", "\(error)")
            }
            let response = StoreHoursResponse(
                storeId: store.id, storeName: store.name, timeZone: store.timeZoneIdentifier,
                from: from.description, to: to.description,
                days: days.map { StoreHoursResponse.Day($0, schedule: store.schedule) })
            let lines = days.map { day in
                var line = "\(day.date) (\(language.weekday(day.date))) \(language.dayType(day.dayType))"
                if let name = day.holiday.map(language.holidayName) ?? day.name { line += " \(name)" }
                let spans = day.spans.map { "\(OpeningSpan.clock($0.start))-\(OpeningSpan.clock($0.end))" }
                line += ": " + (spans.isEmpty ? language.pick("休業", "closed") : spans.joined(separator: ", "))
                return line
            }
            return MCPToolResult(
                text: "\(store.name)\n" + lines.joined(separator: "\n"),
                structuredContent: try Self.structured(response))
        }
    }

    // MARK: holidays

    var holidays: MCPTool {
        MCPTool(
            name: "holidays", title: "Holidays",
            description: """
                The holidays between two dates (both included, at most \(Self.maximumHolidayDays) days): Japan's \
                national holidays by law (calendar "japan", as adjusted in flows/) or a chain's calendar, with \
                names in Japanese and English.
                """,
            inputSchema: [
                "type": "object",
                "properties": [
                    "from": ["type": "string", "format": "date", "description": "The first date, YYYY-MM-DD."],
                    "to": ["type": "string", "format": "date", "description": "The last date, YYYY-MM-DD."],
                    "calendar": ["type": "string", "description": "The calendar's id; japan by default."],
                    "language": ToolLanguage.schema,
                ],
                "required": ["from", "to"],
            ]
        ) { arguments throws(MCPToolError) in
            let language = try ToolLanguage.of(arguments)
            let (from, to) = try Self.range(arguments, maximumDays: Self.maximumHolidayDays)
            let calendarId = try arguments.optionalString("calendar") ?? FlowSet.japaneseCalendarId
            let calendar: any HolidayCalendar
            if let loaded = flows.current {
                guard let found = loaded.flows.calendars[calendarId] else {
                    let known = loaded.flows.calendars.keys.sorted().joined(separator: ", ")
                    throw MCPToolError(
                        code: "unknown_calendar", "no calendar \"\(calendarId)\"; the calendars are \(known)")
                }
                calendar = found
            } else if calendarId == FlowSet.japaneseCalendarId {
                calendar = JapaneseHolidayCalendar.standard
            } else {
                throw MCPToolError(code: "unknown_calendar", "no flows are loaded; only the calendar japan is known")
            }
            let range = calendar.supportedYears
            guard range.contains(from.year), range.contains(to.year) else {
                throw MCPToolError(
                    code: "unsupported_year",
                    "the calendar knows the years \(range.lowerBound) to \(range.upperBound); choose dates within them")
            }
            let holidays = (from.dayNumber...to.dayNumber).compactMap { calendar.holiday(onDayNumber: $0) }
            let entries = holidays.map(CalendarResponse.Entry.init)
            let text =
                holidays.isEmpty
                ? language.pick("\(from)〜\(to)に祝日はありません。", "No holidays from \(from) to \(to).")
                : holidays.map { "\($0.date) (\(language.weekday($0.date))) \(language.holidayName($0))" }
                    .joined(separator: "\n")
            let content: JSONValue = [
                "calendar": .string(calendarId), "from": .string(from.description), "to": .string(to.description),
                "holidays": try Self.structured(entries),
            ]
            return MCPToolResult(text: text, structuredContent: content)
        }
    }

    // MARK: find_stores

    var findStores: MCPTool {
        MCPTool(
            name: "find_stores", title: "Find stores",
            description: """
                Finds restaurants by name, area or kind ("the Shibuya trattoria", "新宿 居酒屋", "izakaya"), or a \
                phone number, and returns their ids for the other tools, best match first.
                """,
            inputSchema: [
                "type": "object",
                "properties": [
                    "query": ["type": "string", "description": "Words of the name, area or kind, or a number."],
                    "language": ToolLanguage.schema,
                ],
                "required": ["query"],
            ]
        ) { arguments throws(MCPToolError) in
            let query = try arguments.string("query")
            let language = try ToolLanguage.of(arguments)
            guard let loaded = flows.current else { throw Self.flowsUnavailable }
            let matches = StoreSearch(query: query).matches(in: loaded.flows.stores).prefix(Self.maximumMatches)
            let found: [JSONValue] = matches.map { match in
                [
                    "storeId": .string(match.store.id), "name": .string(match.store.name),
                    "timeZone": .string(match.store.timeZoneIdentifier),
                    "attributes": .object(match.store.attributes.mapValues { .string($0) }),
                    "dialedNumbers": .array(match.store.dialedNumbers.map { .string($0) }),
                    "score": .number(Double(match.score)),
                ]
            }
            let text =
                matches.isEmpty
                ? language.pick(
                    "「\(query)」に一致する店舗はありません。店名、地域、業態で検索してください。",
                    "No store matches \"\(query)\"; try words of the name, the area or the kind.")
                : matches.map { "\($0.store.id): \($0.store.name)" }.joined(separator: "\n")
            return MCPToolResult(text: text, structuredContent: ["query": .string(query), "stores": .array(found)])
        }
    }

    // MARK: Arguments

    static let flowsUnavailable = MCPToolError(
        code: "flows_unavailable", "no valid flows/ is loaded on the server yet; try again shortly")

    /// The store named by `storeId`.
    func loadedStore(_ arguments: MCPToolArguments) throws(MCPToolError) -> (Store, LoadedFlows) {
        let id = try arguments.string("storeId")
        guard let loaded = flows.current else { throw Self.flowsUnavailable }
        guard let store = loaded.flows.store(id: id) else {
            throw MCPToolError(
                code: "unknown_store",
                "no store with id \"\(id)\"; call find_stores with the store's name, area or kind to get its id")
        }
        return (store, loaded)
    }

    /// An instant argument, `nil` when absent.
    static func instant(_ arguments: MCPToolArguments, _ key: String) throws(MCPToolError) -> Date? {
        guard let text = try arguments.optionalString(key) else { return nil }
        do {
            return try ZonedInstant(iso8601: text).date
        } catch {
            throw MCPToolError(
                code: "bad_instant",
                "`\(key)` must be ISO 8601 with an offset, e.g. 2026-07-20T18:30:00+09:00: \(error)")
        }
    }

    /// The `from` and `to` dates, checked to be in order and at most `maximumDays` apart.
    static func range(_ arguments: MCPToolArguments, maximumDays: Int) throws(MCPToolError) -> (CivilDate, CivilDate) {
        func date(_ key: String) throws(MCPToolError) -> CivilDate {
            let text = try arguments.string(key)
            guard let date = CivilDate(parsing: text) else {
                throw MCPToolError(code: "bad_date", "`\(key)` must be a date YYYY-MM-DD, got \"\(text)\"")
            }
            return date
        }
        let from = try date("from")
        let to = try date("to")
        guard from <= to else {
            throw MCPToolError(code: "bad_range", "`to` (\(to)) is before `from` (\(from)); swap them")
        }
        let days = to.dayNumber - from.dayNumber + 1
        guard days <= maximumDays else {
            throw MCPToolError(
                code: "range_too_long",
                "the range has \(days) days, over the limit of \(maximumDays); ask for at most \(maximumDays) days at a time"
            )
        }
        return (from, to)
    }

    /// The JSON value of a response struct.
    static func structured(_ value: some Encodable) throws(MCPToolError) -> JSONValue {
        do {
            return try JSONValue(encoding: value)
        } catch {
            throw MCPToolError(code: "internal_error", "the answer could not be encoded")
        }
    }
}
