import Kafka
import Logging

/// A ``KafkaProducer`` polling in the background, for tests and benchmarks that have no
/// `ServiceGroup` (the roles run the producer as a service). ``close()`` flushes and stops it.
///
/// The producer's `run()` is the one unstructured task here: it bridges the producer's service
/// lifetime to code that creates and closes a producer by hand.
public final class BackgroundProducer: Sendable {
    /// The producer.
    public let producer: KafkaProducer
    private let polling: Task<Void, Never>

    /// Creates the producer and starts polling it.
    ///
    /// - Throws: `KafkaError` when librdkafka refuses the configuration.
    public init(configuration: KafkaProducerConfiguration, logger: Logger) throws {
        let producer = try KafkaProducer(configuration: configuration, logger: logger)
        self.producer = producer
        polling = Task { try? await producer.run() }
    }

    /// Produces one record and waits for its delivery report.
    @discardableResult
    public func send(topic: String, partition: Int32? = nil, key: [UInt8]?, value: [UInt8]?) async throws
        -> KafkaDeliveryReport
    {
        try await producer.send(topic: topic, partition: partition, key: key, value: value)
    }

    /// Hands one record over without waiting for its delivery.
    public func enqueue(topic: String, key: [UInt8]?, value: [UInt8]?) async throws {
        try await producer.enqueue(topic: topic, key: key, value: value)
    }

    /// Waits until every record handed over so far was delivered or failed.
    public func flush(timeout: Duration = .seconds(30)) async throws {
        try await producer.flush(timeout: timeout)
    }

    /// The cluster's metadata.
    public func metadata() async throws -> KafkaClusterMetadata {
        try await producer.metadata()
    }

    /// Flushes what is queued (within `timeout`) and stops polling.
    public func close(timeout: Duration = .seconds(10)) async {
        try? await producer.flush(timeout: timeout)
        polling.cancel()
        await polling.value
    }
}
