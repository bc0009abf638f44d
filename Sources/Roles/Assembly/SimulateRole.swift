import Kafka
import Logging
import ServiceLifecycle
import Services

/// `switchboard simulate`: realistic contact-center traffic to Kafka, asking the IVR hook for
/// every call; `/health`, `/ready` (Kafka) and `/metrics` on the simulator's own port.
///
/// The simulation's end (a duration) ends the process; the HTTP server follows it.
public enum SimulateRole {
    /// - Parameters:
    ///   - context: The settings (`kafkaBootstrap` must be set) and metrics.
    ///   - options: What to simulate.
    /// - Throws: `KafkaError` when the producer cannot be created.
    public static func build(_ context: RoleContext, options: SimulatorOptions) throws -> ServiceGroup {
        let settings = context.settings
        let logger = Logger(label: "switchboard.simulator")
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(
                common: settings.kafka(bootstrap: settings.kafkaBootstrap, clientID: "switchboard-simulator")),
            logger: Logger(label: "kafka.producer"))
        let simulator = SimulatorService(
            options: options, flowsDirectory: settings.flowsDirectory,
            kafka: KafkaSimulatorSink(producer: producer, settings: settings), logger: logger)
        return context.group(
            [
                .init(service: producer),
                .init(service: simulator, successTerminationBehavior: .gracefullyShutdownGroup),
            ]
                + context.http(
                    port: settings.simulatorHTTPPort,
                    readiness: [KafkaReadinessCheck(producer: producer, topics: settings.topics)]))
    }
}
