import ContactCenter
import Foundation
import Logging
import Synchronization
import Testing

@testable import Services

/// The seeder over an in-memory store and the repository's flows/.
@Suite("Staffing history seeder")
struct StaffingHistorySeederTests {
    /// Keeps what the seeder writes; holds contacts once it has been written to.
    final class Store: SeedHistoryStore {
        let written = Mutex<[[SimulatedMessage]]>([])

        func hasNoContacts() async throws -> Bool { written.withLock { $0.isEmpty } }

        func write(contactRecords records: [SimulatedMessage]) async throws {
            written.withLock { $0.append(records) }
        }
    }

    static let flows = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("flows").path

    @Test("one day of the shipped stores' contact records, in batches; nothing more once the store has contacts")
    func seedsOnce() async throws {
        let store = Store()
        let seeder = StaffingHistorySeeder(
            store: store, flowsDirectory: Self.flows, agents: 4, seed: 7,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let now = Date(timeIntervalSince1970: 1_795_000_000)  // a Thursday afternoon in Japan, 2026
        let written = try #require(try await seeder.seed(now: now, days: 1))
        let batches = store.written.withLock { $0 }
        #expect(written > 0)
        #expect(batches.reduce(0) { $0 + $1.count } == written)
        #expect(batches.allSatisfy { batch in batch.allSatisfy { $0.kind == .contactRecord } })
        #expect(try await seeder.seed(now: now, days: 1) == nil, "a store with contacts is left alone")
    }
}
