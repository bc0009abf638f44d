import Kafka
import PostgresNIO
import Server

/// Ready when PostgreSQL answers `SELECT 1` within one second.
struct DatabaseReadinessCheck: ReadinessCheck {
    let client: PostgresClient
    let name = "database"

    func check() async -> ReadinessStatus {
        do {
            try await withDeadline(.seconds(1)) { [client] in
                try await client.query("SELECT 1")
            }
            return .ok()
        } catch {
            return .failing("\(error)")
        }
    }
}

/// Ready when the Kafka cluster answers a metadata request and has the expected topics.
struct KafkaReadinessCheck: ReadinessCheck {
    let producer: KafkaProducer
    let topics: [String]
    let name = "kafka"

    func check() async -> ReadinessStatus {
        do {
            let metadata = try await producer.metadata(timeout: .seconds(1))
            let missing = topics.filter { metadata.topics[$0] == nil }
            guard missing.isEmpty else { return .failing("missing topics \(missing)") }
            return .ok("\(metadata.brokerCount) broker(s)")
        } catch {
            return .failing("\(error)")
        }
    }
}
