import Foundation
import Primitives
import Testing

@testable import OperatingHours

@Suite("Loading flows/")
struct FlowSetLoaderTests {
    /// The repository's `flows/` folder, found from this file's path.
    static var shippedFlows: [(name: String, text: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("flows")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { name in
            (name, (try? String(contentsOf: root.appendingPathComponent(name), encoding: .utf8)) ?? "")
        }
    }

    @Test("the shipped flows/ set loads without errors")
    func shippedSetLoads() throws {
        let files = Self.shippedFlows
        #expect(files.count >= 4)
        let set = try FlowSet.load(files: files)
        #expect(set.stores.count >= 20)
        #expect(set.flow(named: "main") != nil)
        #expect(set.flow(named: "reservations") != nil)
        #expect(Set(set.stores.compactMap { $0.attributes["kind"] }).count >= 8)
        #expect(set.store(dialedNumber: "+81 3-5550-0103")?.id == "shinjuku-izakaya")
    }

    func problems(_ files: [(name: String, text: String)]) -> [FlowProblem] {
        do {
            _ = try FlowSet.load(files: files)
            Issue.record("expected a FlowError")
            return []
        } catch {
            return error.problems
        }
    }

    static let profile = """
        profiles:
          - id: p
            weekly:
              mon-fri: [11:00-14:00, 17:00-22:00]
        """

    @Test("a bad time names file, line and fix")
    func badTime() {
        let found = problems([
            (
                "hours.yaml",
                """
                profiles:
                  - id: p
                    weekly:
                      mon: 11:00-14:00
                      tue: 25:61-26:00
                """
            )
        ])
        #expect(found.count == 1)
        #expect(found.first?.location.file == "hours.yaml")
        #expect(found.first?.location.line == 5)
        #expect(found.first?.issue == .badHours(.badTime("25:61")))
        #expect(found.first?.description.contains("hours.yaml:5:") == true)
        #expect(found.first?.description.contains("fix:") == true)
    }

    @Test("unknown weekday, overlapping spans and unknown keys are all reported at once")
    func severalProblems() {
        let found = problems([
            (
                "hours.yaml",
                """
                profiles:
                  - id: p
                    weekly:
                      mon: 11:00-14:00
                      funday: 11:00-14:00
                      tue: [11:00-15:00, 14:00-22:00]
                    holidays: 10:00-12:00
                """
            )
        ])
        #expect(found.map(\.location.line) == [5, 6, 7])
        #expect(found[0].issue == .unknownWeekday("funday"))
        #expect(
            found[1].issue
                == .badHours(.overlappingSpans(OpeningSpan(start: 660, end: 900)!, OpeningSpan(start: 840, end: 1320)!))
        )
        if case .unknownKey("holidays", _) = found[2].issue {} else { Issue.record("got \(found[2].issue)") }
    }

    @Test("references across files: unknown profile, calendar, store; duplicates")
    func references() {
        let stores = """
            stores:
              - id: a
                name: A
                dialedNumbers: ["+81300000001"]
                hours: p
              - id: b
                name: B
                dialedNumbers: ["+81300000001"]
                hours: missing
                calendar: mars
                timeZone: Moon/Base
              - id: a
                name: A again
                hours: p
            """
        let flows = """
            flows:
              - name: main
                rules:
                  - when: { stores: [a, ghost] }
                    set: { queue: x }
                default:
                  set: { queue: y }
            """
        let found = problems([("profiles.yaml", Self.profile), ("stores.yaml", stores), ("main.yaml", flows)])
        let issues = found.map(\.issue)
        #expect(issues.contains(.unknownStore("ghost")))
        #expect(issues.contains(.unknownHoursProfile("missing")))
        #expect(issues.contains(.unknownCalendar("mars")))
        #expect(issues.contains(.unknownTimeZone("Moon/Base")))
        #expect(issues.contains { if case .duplicateId(kind: "store", id: "a", _) = $0 { true } else { false } })
        #expect(
            issues.contains {
                if case .duplicateDialedNumber("+81300000001", firstStore: "a", _) = $0 { true } else { false }
            })
        let missing = found.first { $0.issue == .unknownHoursProfile("missing") }
        #expect(missing?.location == SourceLocation(file: "stores.yaml", line: 9, column: 12))
        #expect(found.first { $0.issue == .unknownStore("ghost") }?.location.file == "main.yaml")
    }

    @Test("invalid YAML, bad numbers, reserved outputs, unknown template variables, missing default")
    func otherProblems() {
        #expect(problems([("broken.yaml", "stores: [\n  - id: x\n")]).first?.location.file == "broken.yaml")
        let found = problems([
            ("profiles.yaml", Self.profile),
            (
                "x.yaml",
                """
                stores:
                  - id: s
                    name: S
                    dialedNumbers: ["03-1234-5678"]
                    hours: p
                flows:
                  - name: main
                    rules:
                      - set:
                          result: open
                          message: "{{nextOpening}}"
                  - name: other
                    rules: []
                """
            ),
        ])
        let issues = found.map(\.issue)
        #expect(issues.contains(.badDialedNumber("03-1234-5678")))
        #expect(issues.contains(.reservedOutputKey("result")))
        #expect(issues.contains(.unknownTemplateVariable("nextOpening")))
        #expect(issues.contains(.missingKey("default", in: "flow \"other\"")))
        #expect(found.allSatisfy { $0.location.line > 0 })
    }

    @Test("calendar additions and removals adjust the Japanese calendar")
    func calendarAdjustments() throws {
        let set = try FlowSet.load(files: [
            (
                "calendar.yaml",
                """
                calendars:
                  - id: japan
                    additions:
                      - { date: 2031-05-07, name: 臨時休日, nameEn: Special holiday }
                    removals:
                      - 2031-05-06
                  - id: hawaii
                    additions:
                      - { date: 2026-06-11, name: King Kamehameha Day, kind: national }
                """
            )
        ])
        let japan = try #require(set.calendars["japan"])
        #expect(japan.holiday(on: CivilDate(parsing: "2031-05-07")!)?.nameEn == "Special holiday")
        #expect(japan.holiday(on: CivilDate(parsing: "2031-05-07")!)?.kind == .oneOff)
        #expect(japan.holiday(on: CivilDate(parsing: "2031-05-06")!) == nil)
        #expect(japan.holiday(on: CivilDate(parsing: "2031-05-05")!)?.nameJa == "こどもの日")
        let hawaii = try #require(set.calendars["hawaii"])
        #expect(hawaii.holidays(inYear: 2026).map(\.nameJa) == ["King Kamehameha Day"])
        #expect(hawaii.isPreHoliday(CivilDate(parsing: "2026-06-10")!))
    }

    @Test("calendar listing renders CSV and a table")
    func listing() {
        let holidays = JapaneseHolidayCalendar.standard.holidays(inYear: 2026)
        let lines = HolidayListing.csvLines(holidays)
        #expect(lines.first == "date,name_ja,name_en,kind")
        #expect(lines[1] == "2026-01-01,元日,New Year's Day,national")
        #expect(lines.contains("2026-09-22,国民の休日,Citizens' Holiday,citizens"))
        #expect(lines.count == 19)
        let table = HolidayListing.table(JapaneseHolidayCalendar.standard.holidays(inYear: 2030))
        #expect(table.contains("2030-03-20 Wed* national"))
        #expect(table.hasSuffix("holidays\n"))
        let quoted = HolidayListing.csvLines([
            Holiday(
                date: CivilDate(parsing: "2026-01-01")!, nameJa: "a,b",
                nameEn: "say \"hi\"", kind: .oneOff)
        ])
        #expect(quoted[1] == "2026-01-01,\"a,b\",\"say \"\"hi\"\"\",one_off")
    }
}
