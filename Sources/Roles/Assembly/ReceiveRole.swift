import Logging
import Server
import ServiceLifecycle

/// `switchboard receive`: the receiver alone (Amazon Data Firehose and EventBridge deliveries to
/// Kafka), stateless: run any number of replicas behind the HTTPS ingress Firehose calls.
///
/// Services, in start order: the receiver's idempotent producer, the HTTP server, the readiness
/// gauges, the drain. `/ready` (and `/ready/receiver`) needs Kafka with the three topics: a
/// receiver that cannot store what it receives must not take traffic. It refuses to start
/// without `SWITCHBOARD_FIREHOSE_ACCESS_KEYS`: a production receiver never runs open.
public enum ReceiveRole {
    /// - Throws: ``SettingsError`` without access keys or Kafka, `KafkaError` when the producer
    ///   cannot be created.
    public static func build(_ context: RoleContext) throws -> ServiceGroup {
        let settings = context.settings
        guard !settings.firehoseAccessKeys.isEmpty else {
            throw SettingsError(
                key: "SWITCHBOARD_FIREHOSE_ACCESS_KEYS", value: "",
                expected: "at least one access key: `switchboard receive` never accepts unauthenticated deliveries")
        }
        guard !settings.kafkaBootstrap.isEmpty else {
            throw SettingsError(
                key: "SWITCHBOARD_KAFKA_BOOTSTRAP", value: "", expected: "the Kafka cluster the receiver produces to")
        }
        let logger = Logger(label: "switchboard.receive")
        let receiver = try ReceiverWiring(
            settings: settings, bootstrap: settings.kafkaBootstrap, open: false, logger: logger)
        let http = context.http(
            readiness: receiver.readinessCheck.map { [$0] } ?? [],
            scopes: ReceiverWiring.scope,
            routes: [receiver.routes],
            drain: ShutdownDrain())
        return context.group(receiver.services + http)
    }
}
