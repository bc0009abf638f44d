import Kafka
import ServiceLifecycle

/// Keeps the embedded Kafka cluster (`dev`) alive until the group stops. List it first: the group
/// stops services in reverse order, so the broker outlives its clients.
struct EmbeddedKafkaService: Service {
    let cluster: EmbeddedKafkaCluster

    func run() async throws {
        try? await gracefulShutdown()
        withExtendedLifetime(cluster) {}
    }
}
