import Primitives
import Yams

/// Hours, closures, overrides and calendars: the parts of `flows/` that describe time.
extension FlowSetLoader {
    static let profileKeys = ["id", "weekly", "holiday", "preHoliday", "closures", "overrides", "precedence"]
    static let closureKeys = ["name", "from", "to", "date"]
    static let overrideKeys = ["date", "hours", "name"]
    static let calendarKeys = ["id", "base", "additions", "removals"]
    static let additionKeys = ["date", "name", "nameEn", "kind"]
    static let removalKeys = ["date", "reason"]

    mutating func parseProfile(_ node: Node, reader: inout YAMLReader) {
        guard let entries = reader.mapping(node, key: "profiles[]", allowed: FlowSetLoader.profileKeys),
            let id = reader.requiredString(entries, "id", in: "hours profile", at: node)
        else { return }
        let problemsBefore = reader.problems.count
        var weekly: [Weekday: [OpeningSpan]] = [:]
        var weeklyNode: Node?
        if let node = reader.required(entries, "weekly", in: "hours profile \"\(id)\"", at: node) {
            weeklyNode = node
            for (key, keyNode, value) in reader.pairs(node, key: "weekly") ?? [] {
                guard let days = FlowSetLoader.weekdays(key) else {
                    reader.report(.unknownWeekday(key), at: keyNode)
                    continue
                }
                guard let spans = spans(value, key: key, reader: &reader) else { continue }
                for day in days {
                    if weekly[day] != nil { reader.report(.weekdayTwice(day), at: keyNode) }
                    weekly[day] = spans
                }
            }
        }
        let holiday = entries["holiday"].flatMap { spans($0.value, key: "holiday", reader: &reader) }
        let preHoliday = entries["preHoliday"].flatMap { spans($0.value, key: "preHoliday", reader: &reader) }
        let closures = entries["closures"].map { closureList($0.value, reader: &reader) } ?? []
        let overrides = entries["overrides"].map { overrideList($0.value, reader: &reader) } ?? []
        var precedence = DayCategory.defaultPrecedence
        if let node = entries["precedence"]?.value, let items = reader.sequence(node, key: "precedence") {
            precedence = []
            for item in items {
                guard let text = reader.string(item, key: "precedence") else { continue }
                guard let category = DayCategory(rawValue: text), !precedence.contains(category) else {
                    let expected = "each of override, closure, holiday, pre_holiday at most once"
                    reader.report(.invalidValue(key: "precedence", value: text, expected: expected), at: item)
                    continue
                }
                precedence.append(category)
            }
        }
        let profile = HoursProfile(
            id: id, weekly: weekly, holiday: holiday, preHoliday: preHoliday, closures: closures,
            overrides: overrides, precedence: precedence)
        if reader.problems.count == problemsBefore {
            do throws(HoursFormatError) {
                try profile.validate()
            } catch {
                reader.report(.badHours(error), at: weeklyNode ?? node)
            }
        }
        profiles.append(ProfileDeclaration(profile: profile, location: reader.location(node)))
    }

    /// `closed`, `HH:MM-HH:MM`, a comma-separated list of spans, or a YAML list of them.
    mutating func spans(_ node: Node, key: String, reader: inout YAMLReader) -> [OpeningSpan]? {
        let texts: [(String, Node)]
        switch node {
        case .scalar(let scalar):
            texts = scalar.string.split(separator: ",").map { (String($0), node) }
        case .sequence(let sequence):
            texts = sequence.compactMap { item in reader.string(item, key: key).map { ($0, item) } }
        default:
            reader.report(.wrongType(key: key, expected: "closed, HH:MM-HH:MM or a list of spans"), at: node)
            return nil
        }
        var result: [OpeningSpan] = []
        var failed = false
        for (text, item) in texts {
            let trimmed = String(text.trimmingSpaces)
            if trimmed.lowercased() == "closed" { continue }
            do throws(HoursFormatError) {
                result.append(try OpeningSpan(parsing: trimmed))
            } catch {
                reader.report(.badHours(error), at: item)
                failed = true
            }
        }
        if failed { return nil }
        do throws(HoursFormatError) {
            try HoursProfile.checkDisjoint(result)
        } catch {
            reader.report(.badHours(error), at: node)
            return nil
        }
        return result.sorted()
    }

    mutating func closureList(_ node: Node, reader: inout YAMLReader) -> [Closure] {
        var result: [Closure] = []
        for item in reader.sequence(node, key: "closures") ?? [] {
            guard let entries = reader.mapping(item, key: "closures[]", allowed: FlowSetLoader.closureKeys),
                let name = reader.requiredString(entries, "name", in: "closure", at: item)
            else { continue }
            let fromNode = entries["from"]?.value ?? entries["date"]?.value
            let toNode = entries["to"]?.value ?? entries["date"]?.value
            guard let fromNode, let toNode else {
                reader.report(.missingKey("from", in: "closure \"\(name)\" (give from: and to:, or date:)"), at: item)
                continue
            }
            guard let fromText = reader.string(fromNode, key: "from"), let toText = reader.string(toNode, key: "to")
            else { continue }
            if let from = CivilDate(parsing: fromText), let to = CivilDate(parsing: toText) {
                guard from <= to else {
                    let expected = "a date on or before `to` (\(toText))"
                    reader.report(.invalidValue(key: "from", value: fromText, expected: expected), at: fromNode)
                    continue
                }
                result.append(Closure(name: name, period: .dates(from, to)))
            } else if let from = FlowSetLoader.monthDay(fromText), let to = FlowSetLoader.monthDay(toText) {
                result.append(
                    Closure(
                        name: name,
                        period: .annual(
                            startMonth: from.0, startDay: from.1,
                            endMonth: to.0, endDay: to.1)))
            } else {
                let bad = CivilDate(parsing: fromText) == nil && FlowSetLoader.monthDay(fromText) == nil
                reader.report(.badDate(bad ? fromText : toText), at: bad ? fromNode : toNode)
            }
        }
        return result
    }

    mutating func overrideList(_ node: Node, reader: inout YAMLReader) -> [DateOverride] {
        var result: [DateOverride] = []
        for item in reader.sequence(node, key: "overrides") ?? [] {
            guard let entries = reader.mapping(item, key: "overrides[]", allowed: FlowSetLoader.overrideKeys),
                let dateText = reader.requiredString(entries, "date", in: "override", at: item),
                let hoursNode = reader.required(entries, "hours", in: "override of \(dateText)", at: item)
            else { continue }
            guard let date = CivilDate(parsing: dateText) else {
                reader.report(.badDate(dateText), at: entries["date"]?.value)
                continue
            }
            let name = entries["name"].flatMap { reader.string($0.value, key: "name") }
            guard let spans = spans(hoursNode, key: "hours", reader: &reader) else { continue }
            result.append(DateOverride(date: date, spans: spans, name: name))
        }
        return result
    }

    mutating func parseCalendar(_ node: Node, reader: inout YAMLReader) {
        guard let entries = reader.mapping(node, key: "calendars[]", allowed: FlowSetLoader.calendarKeys),
            let id = reader.requiredString(entries, "id", in: "calendar", at: node)
        else { return }
        var base = id == FlowSet.japaneseCalendarId ? "japan" : "none"
        if let baseNode = entries["base"]?.value, let text = reader.string(baseNode, key: "base") {
            if text == "japan" || text == "none" {
                base = text
            } else {
                reader.report(.invalidValue(key: "base", value: text, expected: "japan or none"), at: baseNode)
            }
        }
        var additions: [Holiday] = []
        for item in entries["additions"].flatMap({ reader.sequence($0.value, key: "additions") }) ?? [] {
            guard let fields = reader.mapping(item, key: "additions[]", allowed: FlowSetLoader.additionKeys),
                let dateText = reader.requiredString(fields, "date", in: "calendar addition", at: item),
                let name = reader.requiredString(fields, "name", in: "calendar addition", at: item)
            else { continue }
            guard let date = CivilDate(parsing: dateText) else {
                reader.report(.badDate(dateText), at: fields["date"]?.value)
                continue
            }
            var kind = HolidayKind.oneOff
            if let kindNode = fields["kind"]?.value, let text = reader.string(kindNode, key: "kind") {
                if let parsed = HolidayKind(rawValue: text) {
                    kind = parsed
                } else {
                    let expected = HolidayKind.allCases.map(\.rawValue).joined(separator: ", ")
                    reader.report(.invalidValue(key: "kind", value: text, expected: "one of \(expected)"), at: kindNode)
                }
            }
            let nameEn = fields["nameEn"].flatMap { reader.string($0.value, key: "nameEn") } ?? name
            additions.append(Holiday(date: date, nameJa: name, nameEn: nameEn, kind: kind))
        }
        var removals: [CivilDate] = []
        for item in entries["removals"].flatMap({ reader.sequence($0.value, key: "removals") }) ?? [] {
            let dateNode: Node?
            if case .scalar = item {
                dateNode = item
            } else if let fields = reader.mapping(item, key: "removals[]", allowed: FlowSetLoader.removalKeys) {
                dateNode = reader.required(fields, "date", in: "calendar removal", at: item)
            } else {
                dateNode = nil
            }
            guard let dateNode, let text = reader.string(dateNode, key: "date") else { continue }
            guard let date = CivilDate(parsing: text) else {
                reader.report(.badDate(text), at: dateNode)
                continue
            }
            removals.append(date)
        }
        calendars.append(
            CalendarDeclaration(
                id: id, baseIsJapan: base == "japan", additions: additions, removals: removals,
                location: reader.location(node)))
    }

    /// `mon`, `monday`, `mon-fri`, `sat,sun`, `daily`, `weekdays`, `weekends`.
    static func weekdays(_ key: String) -> [Weekday]? {
        switch key.lowercased() {
        case "daily", "everyday": return Weekday.allCases
        case "weekdays": return [.monday, .tuesday, .wednesday, .thursday, .friday]
        case "weekends": return [.saturday, .sunday]
        default: break
        }
        var result: [Weekday] = []
        for part in key.split(separator: ",") {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            if bounds.count == 1, let day = Weekday(key: bounds[0].trimmingSpaces) {
                result.append(day)
            } else if bounds.count == 2, let first = Weekday(key: bounds[0].trimmingSpaces),
                let last = Weekday(key: bounds[1].trimmingSpaces)
            {
                var day = first.rawValue
                while true {
                    result.append(Weekday.allCases[day])
                    if day == last.rawValue { break }
                    day = (day + 1) % 7
                }
            } else {
                return nil
            }
        }
        return result.isEmpty ? nil : result
    }

    /// `MM-DD` of an annual closure (Feb 29 allowed).
    static func monthDay(_ text: String) -> (Int, Int)? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: "-"), let month = DecimalDigits.value(of: bytes[0..<2]),
            let day = DecimalDigits.value(of: bytes[3..<5]), CivilDate(year: 2000, month: month, day: day) != nil
        else { return nil }
        return (month, day)
    }
}
