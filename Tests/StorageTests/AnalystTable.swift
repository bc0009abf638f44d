import PostgresNIO
import Storage
import SwitchboardTesting
import Testing

/// Rows of an analyst view as `key → column → value`, every value read as `float8` (NULL as
/// `nil`), compared with a table written by hand in the test.
enum AnalystTable {
    typealias Rows = [String: [String: Double?]]

    /// Reads `columns` of `view`, keyed by the SQL expression `key`.
    static func fetch(
        _ client: PostgresClient, from view: String, key: String, columns: [String], where filter: String = "true"
    ) async throws -> Rows {
        let selected = columns.map { "(\($0))::float8" }.joined(separator: ", ")
        let rows = try await client.query(
            PostgresQuery(unsafeSQL: "SELECT (\(key))::text, \(selected) FROM \(view) WHERE \(filter)"),
            logger: TestDatabase.logger)
        var table: Rows = [:]
        for try await row in rows {
            let cells = Array(row)
            let name = try cells[0].decode(String.self)
            var values: [String: Double?] = [:]
            for (index, column) in columns.enumerated() {
                values[column] = try cells[index + 1].decode(Double?.self)
            }
            #expect(table[name] == nil, "duplicate row \(name) in \(view)")
            table[name] = values
        }
        return table
    }

    /// Expects `actual` to have exactly the rows of `expected`, and each row the expected value of
    /// every column `expected` names (to within rounding: 0.005).
    static func expectEqual(
        _ actual: Rows, _ expected: Rows, _ view: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            Set(actual.keys) == Set(expected.keys), "rows of \(view)", sourceLocation: sourceLocation)
        for (key, columns) in expected.sorted(by: { $0.key < $1.key }) {
            guard let row = actual[key] else { continue }
            for (column, value) in columns.sorted(by: { $0.key < $1.key }) {
                let found = row[column] ?? nil
                let matches: Bool
                switch (found, value) {
                case (nil, nil): matches = true
                case (let found?, let value?): matches = abs(found - value) < 0.005
                default: matches = false
                }
                #expect(
                    matches,
                    "\(view) \(key) \(column): \(String(describing: found)), expected \(String(describing: value))",
                    sourceLocation: sourceLocation)
            }
        }
    }
}
