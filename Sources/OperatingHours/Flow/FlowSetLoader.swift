import Primitives
import Yams

/// Turns the text of `flows/` files into a ``FlowSet``: parses every file, then resolves
/// references across files, collecting every problem with its file and line.
struct FlowSetLoader {
    struct ProfileDeclaration {
        let profile: HoursProfile
        let location: SourceLocation
    }

    struct CalendarDeclaration {
        let id: String
        let baseIsJapan: Bool
        let additions: [Holiday]
        let removals: [CivilDate]
        let location: SourceLocation
    }

    struct StoreDeclaration {
        let id: String
        let name: String
        let location: SourceLocation
        let timeZone: (String, SourceLocation)
        let calendar: (String, SourceLocation)
        let numbers: [(String, SourceLocation)]
        let profile: (String, SourceLocation)
        let closures: [Closure]
        let overrides: [DateOverride]
        let attributes: [String: String]
    }

    struct FlowDeclaration {
        let flow: Flow
        let location: SourceLocation
        let storeReferences: [(String, SourceLocation)]
    }

    static let topLevelKeys = ["version", "profiles", "stores", "calendars", "flows"]
    static let storeKeys = [
        "id", "name", "timeZone", "calendar", "dialedNumbers", "hours", "closures", "overrides", "attributes",
    ]
    static let flowKeys = ["name", "description", "rules", "default"]
    static let ruleKeys = ["name", "when", "set"]
    static let defaultKeys = ["set"]
    static let conditionKeys = [
        "open", "dayType", "minutesUntilCloseBelow", "stores", "storeAttributes", "contactAttributes",
    ]

    var profiles: [ProfileDeclaration] = []
    var calendars: [CalendarDeclaration] = []
    var stores: [StoreDeclaration] = []
    var flows: [FlowDeclaration] = []
    var problems: [FlowProblem] = []

    // MARK: Parsing

    mutating func parse(file: String, text: String) {
        var reader = YAMLReader(file: file)
        defer { problems += reader.problems }
        guard let root = reader.compose(text) else { return }
        guard let entries = reader.mapping(root, key: "file", allowed: FlowSetLoader.topLevelKeys) else { return }
        if let version = entries["version"]?.value, let text = reader.string(version, key: "version"), text != "1" {
            reader.report(.invalidValue(key: "version", value: text, expected: "1"), at: version)
        }
        for item in entries["calendars"].flatMap({ reader.sequence($0.value, key: "calendars") }) ?? [] {
            parseCalendar(item, reader: &reader)
        }
        for item in entries["profiles"].flatMap({ reader.sequence($0.value, key: "profiles") }) ?? [] {
            parseProfile(item, reader: &reader)
        }
        for item in entries["stores"].flatMap({ reader.sequence($0.value, key: "stores") }) ?? [] {
            parseStore(item, reader: &reader)
        }
        for item in entries["flows"].flatMap({ reader.sequence($0.value, key: "flows") }) ?? [] {
            parseFlow(item, reader: &reader)
        }
    }

    mutating func parseStore(_ node: Node, reader: inout YAMLReader) {
        guard let entries = reader.mapping(node, key: "stores[]", allowed: FlowSetLoader.storeKeys),
            let id = reader.requiredString(entries, "id", in: "store", at: node)
        else { return }
        let context = "store \"\(id)\""
        let name = reader.requiredString(entries, "name", in: context, at: node) ?? id
        func located(_ key: String, default value: String) -> (String, SourceLocation) {
            guard let entry = entries[key] else { return (value, reader.location(node)) }
            return (reader.string(entry.value, key: key) ?? value, reader.location(entry.value))
        }
        let timeZone = located("timeZone", default: FlowSet.defaultTimeZone)
        let calendar = located("calendar", default: FlowSet.japaneseCalendarId)
        guard let profileNode = reader.required(entries, "hours", in: context, at: node),
            let profile = reader.string(profileNode, key: "hours")
        else { return }
        var numbers: [(String, SourceLocation)] = []
        for item in entries["dialedNumbers"].flatMap({ reader.sequence($0.value, key: "dialedNumbers") }) ?? [] {
            guard let text = reader.string(item, key: "dialedNumbers") else { continue }
            let number = Store.normalizeDialedNumber(text)
            guard Store.isE164(number) else {
                reader.report(.badDialedNumber(text), at: item)
                continue
            }
            numbers.append((number, reader.location(item)))
        }
        var attributes: [String: String] = [:]
        if let node = entries["attributes"]?.value {
            for (key, _, value) in reader.pairs(node, key: "attributes") ?? [] {
                attributes[key] = reader.string(value, key: "attributes.\(key)")
            }
        }
        let closures = entries["closures"].map { closureList($0.value, reader: &reader) } ?? []
        let overrides = entries["overrides"].map { overrideList($0.value, reader: &reader) } ?? []
        stores.append(
            StoreDeclaration(
                id: id, name: name, location: reader.location(node), timeZone: timeZone, calendar: calendar,
                numbers: numbers, profile: (profile, reader.location(profileNode)), closures: closures,
                overrides: overrides, attributes: attributes))
    }

    mutating func parseFlow(_ node: Node, reader: inout YAMLReader) {
        guard let entries = reader.mapping(node, key: "flows[]", allowed: FlowSetLoader.flowKeys),
            let name = reader.requiredString(entries, "name", in: "flow", at: node)
        else { return }
        let summary = entries["description"].flatMap { reader.string($0.value, key: "description") } ?? ""
        var rules: [FlowRule] = []
        var storeReferences: [(String, SourceLocation)] = []
        for (index, item) in (entries["rules"].flatMap { reader.sequence($0.value, key: "rules") } ?? []).enumerated() {
            guard let fields = reader.mapping(item, key: "rules[]", allowed: FlowSetLoader.ruleKeys) else { continue }
            let ruleName = fields["name"].flatMap { reader.string($0.value, key: "name") } ?? "rule \(index + 1)"
            var condition = RuleCondition()
            if let when = fields["when"]?.value {
                condition = parseCondition(when, storeReferences: &storeReferences, reader: &reader)
            }
            let outputs = fields["set"].map { parseOutputs($0.value, reader: &reader) } ?? []
            rules.append(FlowRule(name: ruleName, condition: condition, outputs: outputs))
        }
        var defaultOutputs: [OutputTemplate] = []
        if let defaultNode = reader.required(entries, "default", in: "flow \"\(name)\"", at: node),
            let fields = reader.mapping(defaultNode, key: "default", allowed: FlowSetLoader.defaultKeys)
        {
            defaultOutputs = fields["set"].map { parseOutputs($0.value, reader: &reader) } ?? []
        }
        let flow = Flow(name: name, summary: summary, rules: rules, defaultOutputs: defaultOutputs)
        flows.append(FlowDeclaration(flow: flow, location: reader.location(node), storeReferences: storeReferences))
    }

    mutating func parseCondition(
        _ node: Node, storeReferences: inout [(String, SourceLocation)], reader: inout YAMLReader
    ) -> RuleCondition {
        var condition = RuleCondition()
        guard let entries = reader.mapping(node, key: "when", allowed: FlowSetLoader.conditionKeys) else {
            return condition
        }
        if let value = entries["open"]?.value { condition.isOpen = reader.bool(value, key: "open") }
        if let value = entries["dayType"]?.value, let texts = reader.strings(value, key: "dayType") {
            var types = Set<DayType>()
            for text in texts {
                if let type = DayType(rawValue: text) {
                    types.insert(type)
                } else {
                    let expected = "one of " + DayType.allCases.map(\.rawValue).joined(separator: ", ")
                    reader.report(.invalidValue(key: "dayType", value: text, expected: expected), at: value)
                }
            }
            condition.dayTypes = types
        }
        if let value = entries["minutesUntilCloseBelow"]?.value,
            let text = reader.string(value, key: "minutesUntilCloseBelow")
        {
            if let minutes = Int(text), minutes > 0 {
                condition.minutesUntilCloseBelow = minutes
            } else {
                let expected = "a positive whole number of minutes"
                reader.report(.invalidValue(key: "minutesUntilCloseBelow", value: text, expected: expected), at: value)
            }
        }
        if let value = entries["stores"]?.value, let ids = reader.strings(value, key: "stores") {
            condition.storeIds = Set(ids)
            storeReferences += ids.map { ($0, reader.location(value)) }
        }
        if let value = entries["storeAttributes"]?.value {
            condition.storeAttributes = attributeTests(value, key: "storeAttributes", reader: &reader)
        }
        if let value = entries["contactAttributes"]?.value {
            condition.contactAttributes = attributeTests(value, key: "contactAttributes", reader: &reader)
        }
        return condition
    }

    /// `key: value` (equals) or `key: [a, b]` (in).
    mutating func attributeTests(_ node: Node, key: String, reader: inout YAMLReader) -> [AttributeTest] {
        (reader.pairs(node, key: key) ?? []).compactMap { name, _, value in
            reader.strings(value, key: "\(key).\(name)").map { AttributeTest(key: name, values: $0) }
        }
    }

    mutating func parseOutputs(_ node: Node, reader: inout YAMLReader) -> [OutputTemplate] {
        var outputs: [OutputTemplate] = []
        for (key, keyNode, value) in reader.pairs(node, key: "set") ?? [] {
            if HookAnswer.reservedKeys.contains(key) {
                reader.report(.reservedOutputKey(key), at: keyNode)
                continue
            }
            guard let text = reader.string(value, key: "set.\(key)") else { continue }
            do throws(FlowIssue) {
                outputs.append(try OutputTemplate(key: key, text: text))
            } catch {
                reader.report(error, at: value)
            }
        }
        return outputs
    }
}
