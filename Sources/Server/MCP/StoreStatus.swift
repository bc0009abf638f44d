import OperatingHours

/// The `store_status` answer: a store's hours decision at an instant, from the same evaluator
/// as the hook (``StoreSchedule/decision(at:)``).
struct StoreStatus: Sendable {
    var storeId: String
    var storeName: String
    var timeZone: String
    /// The instant evaluated, in the store's offset.
    var at: String
    var isOpen: Bool
    /// The business day (the day the open span started on, past midnight).
    var businessDay: String
    var weekday: String
    /// `weekday`, `weekend`, `holiday`, `pre_holiday`, `closure` or `override`.
    var dayType: String
    /// Why the day is special: the closure's or override's name, else the holiday's; empty on
    /// an ordinary day.
    var reason: String
    var holidayName: String
    var holidayNameEn: String
    /// The business day's hours.
    var hours: [StoreHoursResponse.Span]
    /// When the store closes (open only).
    var closesAt: String?
    var minutesUntilClose: Int?
    /// When the store next opens (after ``closesAt`` when open).
    var nextOpenAt: String?

    init(store: Store, decision: HoursDecision) {
        let day = StoreHoursResponse.Day(decision.day, schedule: store.schedule)
        storeId = store.id
        storeName = store.name
        timeZone = store.timeZoneIdentifier
        at = decision.at.iso8601
        isOpen = decision.isOpen
        businessDay = day.date
        weekday = day.weekday
        dayType = day.dayType
        reason = decision.closureName ?? decision.day.name ?? decision.day.holiday?.nameJa ?? ""
        holidayName = day.holidayName
        holidayNameEn = day.holidayNameEn
        hours = day.spans
        closesAt = decision.closesAt?.iso8601
        minutesUntilClose = decision.minutesUntilClose
        nextOpenAt = decision.nextOpenAt?.iso8601
    }

    /// The structured content, built directly (this is the hot tool: no encoder round trip).
    var json: JSONValue {
        var members: [String: JSONValue] = [
            "storeId": .string(storeId), "storeName": .string(storeName), "timeZone": .string(timeZone),
            "at": .string(at), "isOpen": .bool(isOpen), "businessDay": .string(businessDay),
            "weekday": .string(weekday), "dayType": .string(dayType), "reason": .string(reason),
            "holidayName": .string(holidayName), "holidayNameEn": .string(holidayNameEn),
            "hours": .array(
                hours.map { span in
                    [
                        "start": .string(span.start), "end": .string(span.end), "opensAt": .string(span.opensAt),
                        "closesAt": .string(span.closesAt),
                    ]
                }),
        ]
        if let closesAt { members["closesAt"] = .string(closesAt) }
        if let minutesUntilClose { members["minutesUntilClose"] = .number(Double(minutesUntilClose)) }
        if let nextOpenAt { members["nextOpenAt"] = .string(nextOpenAt) }
        return .object(members)
    }

    /// One or two sentences for the model to say.
    static func text(store: Store, decision: HoursDecision, language: ToolLanguage) -> String {
        let day = decision.day
        var special = ""
        if let name = decision.closureName {
            special = language.pick(
                "（\(language.dayType(day.dayType))：\(name)）", " (\(language.dayType(day.dayType)): \(name))")
        } else if let holiday = day.holiday, day.dayType == .holiday {
            special = language.pick("（祝日：\(holiday.nameJa)）", " (holiday: \(holiday.nameEn))")
        } else if day.dayType == .preHoliday {
            special = language.pick("（祝前日）", " (eve of a holiday)")
        }
        func when(_ instant: ZonedInstant) -> String {
            let date = instant.localDate
            return language.pick(
                "\(date.month)月\(date.day)日(\(language.weekday(date))) \(instant.localClock)",
                "\(language.weekday(date)) \(date) at \(instant.localClock)")
        }
        var text: String
        if decision.isOpen {
            text = language.pick("\(store.name)は営業中です\(special)。", "\(store.name) is open now\(special).")
            if let closesAt = decision.closesAt {
                text += language.pick(
                    "\(closesAt.localClock)に閉店します（あと\(decision.minutesUntilClose ?? 0)分）。",
                    " It closes at \(closesAt.localClock) (in \(decision.minutesUntilClose ?? 0) min).")
            }
        } else {
            text = language.pick("\(store.name)は営業時間外です\(special)。", "\(store.name) is closed now\(special).")
            if let next = decision.nextOpenAt {
                text += language.pick("次の営業開始は\(when(next))です。", " It next opens \(when(next)).")
            } else {
                text += language.pick("当面の営業予定はありません。", " No opening is scheduled.")
            }
        }
        return text
    }
}
