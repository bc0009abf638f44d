import Kafka
import Logging
import Metrics
import PostgresNIO
import Primitives
import Server
import ServiceLifecycle
import Storage

/// The ingest worker as a `Service`: a consumer in the group, the pipeline, and re-joins after a
/// fenced write or a failed assignment.
///
/// It starts consuming once `schema` is open (the role's ``MigrationService`` opens it).
public struct IngestService: Service {
    let settings: Settings
    let bootstrap: String
    let client: PostgresClient
    let logger: Logger
    let schema: StartupGate
    let pipeline: IngestPipeline
    let brokerIsNew: Bool

    /// - Parameter brokerIsNew: The broker's topics start empty on every run (the embedded
    ///   cluster of `switchboard dev`): the group's stored offsets belong to an earlier broker and
    ///   are forgotten before the first join, so the ingest reads the new topics from the start.
    public init(
        settings: Settings, bootstrap: String, client: PostgresClient, database: DatabaseConfiguration,
        schema: StartupGate, brokerIsNew: Bool = false, logger: Logger
    ) {
        self.settings = settings
        self.brokerIsNew = brokerIsNew
        self.bootstrap = bootstrap
        self.client = client
        self.schema = schema
        self.logger = logger
        self.pipeline = IngestPipeline(
            configuration: .init(
                group: settings.ingestGroup,
                lanes: settings.ingestLanes,
                decoder: IngestDecoder(
                    topics: settings.ingestTopics, maximumRecordBytes: settings.ingestMaxRecordBytes),
                // One batch being written per lane, the next one decoded and queued, one more
                // being pulled: enough to keep every lane busy, and what bounds the memory.
                maximumRecordsInFlight: settings.ingestBatchRecords * 2,
                // A lane that fell behind writes what queued for it in one transaction, up to
                // half its share of the records in flight: the other half is then being pulled,
                // decoded and queued while it writes, so it never waits for its next transaction.
                maximumRecordsPerTransaction: max(1, settings.ingestBatchRecords / settings.ingestLanes)
            ),
            client: client,
            database: database,
            logger: logger
        )
    }

    /// Readiness: the database accepts the pipeline's writes, and no batch waits to be written
    /// longer than a write and its retry may take.
    public var readinessCheck: some ReadinessCheck {
        ClosureReadinessCheck(name: "ingest") { [pipeline] in
            let health = pipeline.health
            if let problem = health.problem { return .failing(problem) }
            return .ok("\(health.batchesWritten) transactions, \(health.recordsWritten) records")
        }
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown { await schema.wait() }
        guard schema.isOpen else { return }
        var forgetOffsets = brokerIsNew
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                if forgetOffsets {
                    let forgotten = try await OffsetStore(client: client, group: settings.ingestGroup, logger: logger)
                        .forget()
                    forgetOffsets = false
                    logger.info(
                        "the broker is new: forgot the offsets stored by an earlier run",
                        metadata: ["group": "\(settings.ingestGroup)", "partitions": "\(forgotten)"])
                }
                try await consumeOnce()
            } catch {
                if Task.isShuttingDownGracefully || Task.isCancelled { break }
                logger.warning("ingest consumer ended, re-joining in 1 s: \(error)")
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// The ingest consumer's librdkafka defaults (`SWITCHBOARD_KAFKA_PROPERTIES` wins).
    ///
    /// A short fetch wait keeps the prefetch queue full enough to feed the writers. librdkafka
    /// 2.0.2 stops fetching while its prefetch queue holds `queued.max.messages.kbytes` or more,
    /// and looks again only when its broker thread next wakes, up to a second later: a fetch
    /// larger than the queue's limit (48 MiB into 16 MiB, say) caps a worker at one fetch a
    /// second, ~21,000 CTRs/s against any broker (docs/ingest.md, "Kafka's fetch"). Fetches of
    /// 8 MiB into a queue of 48 MiB keep fetching while there is room, and a full queue holds
    /// more than a second of the worker's writes. Both count in the ingest's memory formula
    /// (docs/ingest.md, "Memory"). The binding keeps `receive.message.max.bytes` above
    /// `fetch.max.bytes` (``KafkaConsumerConfiguration``), also when only the fetch limit is
    /// overridden.
    public static let consumerProperties = [
        "fetch.max.bytes": String(8 << 20),
        "queued.max.messages.kbytes": String(48 << 10),
        "fetch.wait.max.ms": "20",
    ]

    /// One consumer's life: join, consume until shutdown or failure, leave.
    private func consumeOnce() async throws {
        let reference = ConsumerReference()
        let source = KafkaIngestSource(
            pipeline: pipeline,
            maxRecords: settings.ingestBatchRecords,
            maxWait: .milliseconds(settings.ingestBatchMilliseconds),
            consumer: reference,
            logger: logger
        )
        let consumer = try await KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                common: settings.kafka(
                    bootstrap: bootstrap, clientID: "switchboard-ingest", defaults: Self.consumerProperties),
                groupID: settings.ingestGroup,
                sessionTimeoutMilliseconds: settings.kafkaSessionTimeoutMilliseconds,
                heartbeatIntervalMilliseconds: settings.kafkaSessionTimeoutMilliseconds / 4
            ),
            assignmentHandler: source,
            logger: Logger(label: "switchboard.ingest.kafka")
        )
        reference.value = consumer
        let lag = LagReporter(consumer: consumer, pipeline: pipeline)
        do {
            try await consumer.subscribe(topics: settings.ingestTopics.all)
            try await withGracefulShutdownHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        try await pipeline.run(source: source, isStopping: { Task.isShuttingDownGracefully })
                    }
                    group.addTask { await lag.run() }
                    try await group.next()
                    group.cancelAll()
                }
            } onGracefulShutdown: {
                logger.info("ingest stopping after the current batch")
            }
        } catch {
            try? await consumer.close()
            throw error
        }
        try await consumer.close()
    }
}
