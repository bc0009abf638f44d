import Kafka
import PostgresNIO
import Primitives
import Server

/// Ready when PostgreSQL answers `SELECT 1` within one second.
public struct DatabaseReadinessCheck: ReadinessCheck {
    let client: PostgresClient
    public let name = "database"

    public init(client: PostgresClient) { self.client = client }

    public func check() async -> ReadinessStatus {
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

/// Ready once the migration service has found the schema ready (migrated, or verified current):
/// before that, what writes or reads the tables would find none.
public struct SchemaReadinessCheck: ReadinessCheck {
    let gate: StartupGate
    public let name = "schema"

    public init(gate: StartupGate) { self.gate = gate }

    public func check() async -> ReadinessStatus {
        gate.isOpen ? .ok("migrations applied") : .failing("the migrations are not yet applied or verified")
    }
}

/// Ready when the Kafka cluster answers a metadata request and has the expected topics.
public struct KafkaReadinessCheck: ReadinessCheck {
    let producer: KafkaProducer
    let topics: [String]
    public let name = "kafka"

    public init(producer: KafkaProducer, topics: [String]) {
        self.producer = producer
        self.topics = topics
    }

    public func check() async -> ReadinessStatus {
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
