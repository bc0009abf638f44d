import CRdKafka
import Logging

/// A Kafka cluster inside this process: librdkafka's mock cluster, serving the real Kafka
/// protocol on loopback ports that other clients and processes can use (`kcat -b`).
///
/// It is the broker of the tests and the embedded default of `switchboard dev`.
///
/// - Important: the mock cluster keeps only about 5 MB (or 100k message sets) per partition and
///   evicts older data silently; use enough partitions for large runs and count what arrives.
public final class EmbeddedKafkaCluster: @unchecked Sendable {
    // @unchecked Sendable: `client` is immutable and librdkafka's mock cluster API is thread-safe
    // (every call is posted to the mock cluster's own thread and waited for); `cluster` is an
    // immutable pointer destroyed once, in `deinit`, when no other reference exists.
    private let client: RDKafkaClient
    private let cluster: OpaquePointer

    /// The cluster's `bootstrap.servers` string (loopback host:port pairs).
    public let bootstrapServers: String
    /// The number of brokers.
    public let brokerCount: Int

    /// Starts a mock cluster.
    ///
    /// - Parameters:
    ///   - brokers: The number of brokers (each listens on its own loopback port).
    ///   - logger: Receives librdkafka's log lines.
    /// - Throws: ``KafkaError`` `.mockCluster` when librdkafka cannot start it.
    public init(brokers: Int = 3, logger: Logger) throws {
        // The mock cluster hangs off a client handle; a producer that never produces serves.
        self.client = try RDKafkaClient.make(
            type: RD_KAFKA_PRODUCER,
            properties: [("client.id", "switchboard-embedded-cluster")],
            context: RDKafkaContext(logger: logger)
        )
        guard let cluster = rd_kafka_mock_cluster_new(client.handle, Int32(brokers)) else {
            rd_kafka_destroy(client.handle)
            throw KafkaError(code: .mockCluster, message: "rd_kafka_mock_cluster_new(\(brokers)) failed")
        }
        self.cluster = cluster
        self.brokerCount = brokers
        self.bootstrapServers =
            rd_kafka_mock_cluster_bootstraps(cluster).flatMap { String(validatingCString: $0) } ?? ""
    }

    deinit {
        rd_kafka_mock_cluster_destroy(cluster)
        rd_kafka_destroy(client.handle)
    }

    /// Creates a topic with `partitions` partitions (replication factor 1).
    ///
    /// - Throws: ``KafkaError`` `.mockCluster` when the topic cannot be created.
    public func createTopic(_ name: String, partitions: Int) throws {
        let result = rd_kafka_mock_topic_create(cluster, name, Int32(partitions), 1)
        if result != RD_KAFKA_RESP_ERR_NO_ERROR {
            throw KafkaError.rdKafka(result, code: .mockCluster, context: "create topic \(name)")
        }
    }

    /// Takes one broker down (its connections are closed and it refuses new ones).
    public func setBrokerDown(_ brokerID: Int32) throws {
        let result = rd_kafka_mock_broker_set_down(cluster, brokerID)
        if result != RD_KAFKA_RESP_ERR_NO_ERROR {
            throw KafkaError.rdKafka(result, code: .mockCluster, context: "broker \(brokerID) down")
        }
    }

    /// Brings one broker back up.
    public func setBrokerUp(_ brokerID: Int32) throws {
        let result = rd_kafka_mock_broker_set_up(cluster, brokerID)
        if result != RD_KAFKA_RESP_ERR_NO_ERROR {
            throw KafkaError.rdKafka(result, code: .mockCluster, context: "broker \(brokerID) up")
        }
    }

    /// Takes every broker down.
    public func setAllBrokersDown() throws {
        for id in 1...Int32(brokerCount) { try setBrokerDown(id) }
    }

    /// Brings every broker back up.
    public func setAllBrokersUp() throws {
        for id in 1...Int32(brokerCount) { try setBrokerUp(id) }
    }

    /// Makes the next requests of one API key fail with the given Kafka error codes, in order.
    ///
    /// - Parameters:
    ///   - apiKey: The Kafka protocol API key (Produce 0, Fetch 1, OffsetCommit 8, JoinGroup 11,
    ///     Heartbeat 12, ...).
    ///   - errors: Kafka protocol error codes (for example 25 = `UNKNOWN_MEMBER_ID`).
    public func pushRequestErrors(apiKey: Int16, errors: [Int32]) {
        let codes = errors.map { rd_kafka_resp_err_t($0) }
        codes.withUnsafeBufferPointer { buffer in
            rd_kafka_mock_push_request_errors_array(cluster, apiKey, buffer.count, buffer.baseAddress)
        }
    }

    /// Clears errors pushed for an API key.
    public func clearRequestErrors(apiKey: Int16) {
        rd_kafka_mock_clear_request_errors(cluster, apiKey)
    }

    /// Moves the group coordinator of `groupID` to another broker.
    public func setGroupCoordinator(groupID: String, brokerID: Int32) throws {
        let result = rd_kafka_mock_coordinator_set(cluster, "group", groupID, brokerID)
        if result != RD_KAFKA_RESP_ERR_NO_ERROR {
            throw KafkaError.rdKafka(result, code: .mockCluster, context: "coordinator of \(groupID)")
        }
    }
}
