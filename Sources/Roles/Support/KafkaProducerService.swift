import Kafka
import ServiceLifecycle

/// Runs a ``KafkaProducer``'s lifetime inside a `ServiceGroup`: on graceful shutdown (or when the
/// group ends) it flushes what is queued, within `flushTimeout`, and closes the producer.
///
/// List it before the services that produce, so the group stops it after them.
struct KafkaProducerService: Service {
    let producer: KafkaProducer
    var flushTimeout: Duration = .seconds(5)

    func run() async throws {
        try? await gracefulShutdown()
        try? await producer.flush(timeout: flushTimeout)
        await producer.close(timeout: flushTimeout)
    }
}

/// Keeps the embedded Kafka cluster (`dev`) alive until the group stops. List it first: the group
/// stops services in reverse order, so the broker outlives its clients.
struct EmbeddedKafkaService: Service {
    let cluster: EmbeddedKafkaCluster

    func run() async throws {
        try? await gracefulShutdown()
        withExtendedLifetime(cluster) {}
    }
}
