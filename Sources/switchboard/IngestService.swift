import Kafka
import Logging
import Metrics
import PostgresNIO
import Server
import ServiceLifecycle
import Storage

/// The ingest worker as a `Service`: a consumer in the group, the pipeline, and re-joins after a
/// fenced write or a failed assignment.
struct IngestService: Service {
    let settings: Settings
    let bootstrap: String
    let client: PostgresClient
    let logger: Logger
    let pipeline: IngestPipeline

    init(settings: Settings, bootstrap: String, client: PostgresClient, database: DatabaseConfiguration, logger: Logger)
    {
        self.settings = settings
        self.bootstrap = bootstrap
        self.client = client
        self.logger = logger
        self.pipeline = IngestPipeline(
            configuration: .init(
                group: settings.ingestGroup,
                lanes: settings.ingestLanes,
                decoder: IngestDecoder(topics: settings.ingestTopics, maximumRecordBytes: settings.ingestMaxRecordBytes)
            ),
            client: client,
            database: database,
            logger: logger
        )
    }

    /// Readiness: the database accepts the pipeline's writes, and no batch waits to be written
    /// longer than a write and its retry may take.
    var readinessCheck: some ReadinessCheck {
        ClosureReadinessCheck(name: "ingest") { [pipeline] in
            let health = pipeline.health
            if let problem = health.problem { return .failing(problem) }
            return .ok("\(health.batchesWritten) batches, \(health.recordsWritten) records")
        }
    }

    func run() async throws {
        // Migrations first (idempotent and safe when several workers start at once).
        var delay = Duration.milliseconds(200)
        while true {
            do {
                try await Migrator(client: client, logger: logger).migrate(SwitchboardSchema.migrations)
                try await AnalystCalendar.sync(client: client, logger: logger)
                break
            } catch {
                if Task.isShuttingDownGracefully || Task.isCancelled { return }
                logger.warning("migrations failed, retrying in \(delay): \(error)")
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(5))
            }
        }
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
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
    /// Larger fetches and a short fetch wait keep the prefetch queue full enough to feed the
    /// writers (measured with `make bench-ingest`). The binding keeps `receive.message.max.bytes`
    /// above `fetch.max.bytes` (``KafkaConsumerConfiguration``), also when only the fetch limit
    /// is overridden.
    static let consumerProperties = [
        "fetch.max.bytes": String(100 << 20),
        "fetch.wait.max.ms": "20",
    ]

    /// One consumer's life: join, consume until shutdown or failure, leave.
    private func consumeOnce() async throws {
        let reference = ConsumerReference()
        let source = KafkaIngestSource(
            pipeline: pipeline,
            maxRecords: settings.ingestBatchRecords,
            maxWait: .milliseconds(settings.ingestBatchMilliseconds),
            consumer: reference
        )
        let consumer = try await KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                common: KafkaConfiguration(
                    bootstrapServers: bootstrap,
                    clientID: "switchboard-ingest",
                    properties: Self.consumerProperties.merging(settings.kafkaProperties) { $1 }
                ),
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

/// Publishes consumer lag per partition (high watermark − stored next offset) every few seconds.
///
/// Only the partitions this worker owns are reported: when a rebalance moves a partition to
/// another worker, its gauge here is removed (not left at its last value), so summing
/// `switchboard_ingest_lag_records` over the workers of a group counts each partition once.
struct LagReporter: Sendable {
    let consumer: KafkaConsumer
    let pipeline: IngestPipeline

    func run() async {
        var reported: Set<PartitionKey> = []
        defer { for key in reported { Self.gauge(key).destroy() } }
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(5))
            guard let assignment = try? await consumer.assignment() else { continue }
            let positions = (try? await pipeline.storedOffsets()) ?? [:]
            var current: Set<PartitionKey> = []
            for partition in assignment {
                let key = PartitionKey(topic: partition.topic, partition: partition.partition)
                current.insert(key)
                guard let marks = try? await consumer.watermarks(partition) else { continue }
                let next = positions[key] ?? marks.low
                Self.gauge(key).record(max(0, marks.high - next))
            }
            for key in reported.subtracting(current) { Self.gauge(key).destroy() }
            reported = current
        }
    }

    static func gauge(_ key: PartitionKey) -> Gauge {
        Gauge(
            label: "switchboard_ingest_lag_records",
            dimensions: [("topic", key.topic), ("partition", String(key.partition))])
    }
}
