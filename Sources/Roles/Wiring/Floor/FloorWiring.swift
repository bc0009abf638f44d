import ContactCenter
import Foundation
import Kafka
import Logging
import Metrics
import Server

/// The live-status feature of a process, built from the settings: the floor publisher fed from
/// Kafka, its routes (streams and console) and its readiness check.
///
/// Wiring in a command:
/// ```swift
/// let floor = FloorWiring(settings: settings, bootstrap: bootstrap, metadata: { try await producer.metadata() })
/// // readinessChecks: [..., floor.readinessCheck], routeProviders: [..., floor.routes]
/// // services: [..., .init(service: floor.publisher), .init(service: application)]
/// ```
public struct FloorWiring: Sendable {
    /// Folds the events and publishes the deltas; run it in the process's `ServiceGroup`.
    public let publisher: FloorPublisher
    /// `/v1/floor`, its streams and `/console`.
    public let routes: any RouteProvider
    /// `/ready`'s `floor` check: ready once the rebuild has caught up.
    public let readinessCheck: any ReadinessCheck

    public init(
        settings: Settings,
        bootstrap: String,
        metadata: @escaping @Sendable () async throws -> KafkaClusterMetadata,
        logger: Logger = Logger(label: "switchboard.floor")
    ) {
        let floor = FloorConfiguration(
            serviceLevelThreshold: .seconds(settings.floorServiceLevelSeconds), timeZone: settings.floorTimeZone)
        let feed = FloorKafkaFeed(
            // The console is latency-bound: a broker holds an empty fetch at most this long (it
            // answers at once when records arrive, but librdkafka's default of 500 ms delays the
            // next fetch after an idle one).
            kafka: settings.kafka(
                bootstrap: bootstrap, clientID: "switchboard-floor", defaults: ["fetch.wait.max.ms": "20"]),
            agentEventsTopic: settings.agentEventsTopic,
            contactEventsTopic: settings.contactEventsTopic,
            rebuildWindow: .seconds(60 * settings.floorRebuildMinutes),
            timeZone: settings.floorTimeZone,
            metadata: metadata,
            logger: logger
        )
        let publisher = FloorPublisher(
            configuration: FloorPublisherConfiguration(floor: floor), source: feed, logger: logger)
        if settings.consoleTokens.isEmpty {
            logger.warning("the console streams are open: set SWITCHBOARD_CONSOLE_TOKENS outside development")
        }
        self.publisher = publisher
        self.routes = FloorRoutes(publisher: publisher, tokens: AccessTokens(settings.consoleTokens))
        self.readinessCheck = FloorReadinessCheck(publisher: publisher)
    }
}
