import Foundation
import Testing

@testable import Storage

/// Migration 12 looks for a written contact's previous contacts only when its method is one of
/// ``reclassifyingMethods``: that holds only while every classification in the schema compares
/// the next contact's method with those values alone.
@Suite("Rollup upkeep: the next-contact methods the previous-contact lookup relies on")
struct RollupPreviousTests {
    /// The initiation methods of a next contact that the classification compares (`contact_outcome`,
    /// the rollups' classification): `next_initiation_method = 'CALLBACK'`, `'QUEUE_TRANSFER'` or
    /// `'TRANSFER'`.
    static let reclassifyingMethods = ["CALLBACK", "QUEUE_TRANSFER", "TRANSFER"]

    @Test("migration 12's upkeep looks up previous contacts for exactly the reclassifying methods")
    func upkeepFilter() throws {
        let upkeep = try #require(SwitchboardSchema.migrations.first { $0.version == 12 }).statements.joined()
        let list = Self.reclassifyingMethods.map { "'\($0)'" }.joined(separator: ", ")
        #expect(upkeep.contains("w.initiation_method IN (\(list))"))
        #expect(upkeep.contains("p.initiation_method IN (\(list))"))
    }

    @Test("every next_initiation_method comparison in the schema names one of the reclassifying methods")
    func comparedMethods() throws {
        let comparison = try NSRegularExpression(pattern: #"next_initiation_method\s*(=|IN|<>|!=)\s*\(?'([A-Z_]+)'"#)
        var compared: Set<String> = []
        for statement in SwitchboardSchema.migrations.flatMap(\.statements) {
            let range = NSRange(statement.startIndex..., in: statement)
            for match in comparison.matches(in: statement, range: range) {
                compared.insert(String(statement[Range(match.range(at: 2), in: statement)!]))
            }
        }
        #expect(compared == Set(Self.reclassifyingMethods))
        // Any other use of the next contact's method (a list, a pattern, a function) would escape
        // the pattern above: each occurrence must be one of the comparisons it counted.
        let uses = SwitchboardSchema.migrations.flatMap(\.statements).map {
            $0.components(separatedBy: "next_initiation_method").count - 1
        }.reduce(0, +)
        let matched = SwitchboardSchema.migrations.flatMap(\.statements).map { statement in
            comparison.numberOfMatches(in: statement, range: NSRange(statement.startIndex..., in: statement))
        }.reduce(0, +)
        let selected = SwitchboardSchema.migrations.flatMap(\.statements).map {
            $0.components(separatedBy: "AS next_initiation_method").count - 1
        }.reduce(0, +)
        #expect(uses == matched + selected, "next_initiation_method is only selected or compared with a literal")
    }
}
