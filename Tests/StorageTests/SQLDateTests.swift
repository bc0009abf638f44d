import PostgresNIO
import Primitives
import SwitchboardTesting
import Testing

@testable import Storage

/// A `CivilDate` bound and read as PostgreSQL's binary `date` (days since 2000-01-01), checked
/// against PostgreSQL's own text for the same date.
@Suite("SQL dates: CivilDate as PostgreSQL's date", .enabled(if: TestDatabase.enabled))
struct SQLDateTests {
    @Test("bound dates are the dates PostgreSQL prints, and read back unchanged")
    func roundTrip() async throws {
        try await TestDatabase.withClient(try TestDatabase.configuration()) { client in
            for text in [
                "1999-12-31", "2000-01-01", "2000-02-29", "1970-01-01", "2026-11-29", "1900-03-01", "2150-12-31",
            ] {
                let date = try #require(CivilDate(parsing: text))
                let rows = try await client.query(
                    "SELECT \(SQLDate(date))::text, \(text)::date, (\(text)::date - DATE '2000-01-01')::int",
                    logger: TestDatabase.logger)
                for try await (printed, read, days) in rows.decode((String, SQLDate, Int).self) {
                    #expect(printed == text)
                    #expect(read.date == date)
                    #expect(days == date.dayNumber - SQLDate.epoch)
                }
            }
        }
    }

    @Test("infinity is no civil date: reading it fails")
    func infinity() async throws {
        try await TestDatabase.withClient(try TestDatabase.configuration()) { client in
            for text in ["infinity", "-infinity"] {
                await #expect(throws: (any Error).self) {
                    let rows = try await client.query("SELECT \(text)::date", logger: TestDatabase.logger)
                    for try await _ in rows.decode(SQLDate.self) {}
                }
            }
        }
    }
}
