/// The readable rendering used by `switchboard flows eval --store ID --at ...`.
extension HookAnswer {
    /// The decision and the route as aligned text lines, ending with a newline.
    public var readableText: String {
        var lines: [(String, String)] = []
        lines.append(("flow", flowName))
        if let failure {
            lines.append(("result", "error (\(failure.code))"))
            lines.append(("error", failure.message))
            return HookAnswer.align(lines)
        }
        if let store {
            lines.append(
                ("store", "\(store.id) (\(store.name)), \(store.timeZoneIdentifier), hours \(store.profileId)"))
        }
        if let decision {
            lines.append(("at", "\(decision.at.iso8601) (\(decision.at.localDate.weekday))"))
            var state = decision.isOpen ? "open" : "closed"
            if let span = decision.openSpan { state += " within \(span)" }
            lines.append(("result", state))
            let day = decision.day
            var dayText = "\(day.date) \(day.date.weekday): \(day.dayType.rawValue)"
            if let name = decision.closureName { dayText += " \"\(name)\"" }
            if let holiday = day.holiday { dayText += ", holiday \(holiday.nameJa) (\(holiday.nameEn))" }
            lines.append(("business day", dayText))
            lines.append(
                ("hours", day.spans.isEmpty ? "closed all day" : day.spans.map(\.description).joined(separator: ", ")))
            if let closesAt = decision.closesAt, let minutes = decision.minutesUntilClose {
                lines.append(("closes at", "\(closesAt.iso8601) (in \(minutes) min)"))
            } else if decision.isOpen {
                lines.append(("closes at", "not within the search horizon"))
            }
            if let next = decision.nextOpenAt {
                lines.append(("next open", "\(next.iso8601) (\(next.localDate.weekday))"))
            } else {
                lines.append(("next open", "none within \(StoreSchedule.nextOpeningSearchDays) days"))
            }
        }
        lines.append(("route", ruleName.map { "rule \"\($0)\"" } ?? "-"))
        for (key, value) in outputs.sorted(by: { $0.key < $1.key }) {
            lines.append(("  " + key, value))
        }
        return HookAnswer.align(lines)
    }

    private static func align(_ lines: [(String, String)]) -> String {
        let width = lines.map(\.0.count).max() ?? 0
        return lines.map { key, value in
            key + String(repeating: " ", count: width - key.count) + "  " + value
        }.joined(separator: "\n") + "\n"
    }
}
