/// Settings shared by producers, consumers and the embedded cluster.
///
/// Only a few settings get typed properties; any librdkafka property can be passed through
/// ``properties`` (see librdkafka's `CONFIGURATION.md`). A property librdkafka does not know, or a
/// value it rejects, makes client creation throw a ``KafkaError`` with code `.configuration`.
public struct KafkaConfiguration: Sendable {
    /// `bootstrap.servers`: a comma-separated list of `host:port`.
    public var bootstrapServers: String
    /// `client.id`, shown in broker logs.
    public var clientID: String
    /// Extra librdkafka properties, applied after the typed ones (so they win).
    public var properties: [String: String]

    /// Creates a configuration.
    public init(bootstrapServers: String, clientID: String = "switchboard", properties: [String: String] = [:]) {
        self.bootstrapServers = bootstrapServers
        self.clientID = clientID
        self.properties = properties
    }
}

/// Settings of a ``KafkaConsumer``.
public struct KafkaConsumerConfiguration: Sendable {
    /// Connection settings.
    public var common: KafkaConfiguration
    /// `group.id`. Needed even for manual assignment (librdkafka requires it for `assign`).
    public var groupID: String
    /// `session.timeout.ms`. librdkafka's mock cluster needs more than 2000 for a group to form.
    public var sessionTimeoutMilliseconds: Int
    /// `heartbeat.interval.ms`.
    public var heartbeatIntervalMilliseconds: Int
    /// `auto.offset.reset` for partitions started at ``KafkaStartOffset/committed`` without a
    /// committed offset. `error` (the default) surfaces a stored offset that fell off the log
    /// instead of silently rewinding to the beginning.
    public var autoOffsetReset: String
    /// How long ``KafkaConsumer/close()`` may take before the watchdog gives up on librdkafka.
    public var closeTimeout: Duration
    /// How long the application's assignment handler may take before the consumer fails.
    public var assignmentHandlerTimeout: Duration

    /// Creates a consumer configuration with the defaults used by the ingest workers.
    public init(
        common: KafkaConfiguration,
        groupID: String,
        sessionTimeoutMilliseconds: Int = 10_000,
        heartbeatIntervalMilliseconds: Int = 2_000,
        autoOffsetReset: String = "error",
        closeTimeout: Duration = .seconds(15),
        assignmentHandlerTimeout: Duration = .seconds(60)
    ) {
        self.common = common
        self.groupID = groupID
        self.sessionTimeoutMilliseconds = sessionTimeoutMilliseconds
        self.heartbeatIntervalMilliseconds = heartbeatIntervalMilliseconds
        self.autoOffsetReset = autoOffsetReset
        self.closeTimeout = closeTimeout
        self.assignmentHandlerTimeout = assignmentHandlerTimeout
    }

    var librdkafkaProperties: [(String, String)] {
        var result: [(String, String)] = [
            ("bootstrap.servers", common.bootstrapServers),
            ("client.id", common.clientID),
            ("group.id", groupID),
            ("enable.auto.commit", "false"),
            ("enable.auto.offset.store", "false"),
            ("enable.partition.eof", "false"),
            ("auto.offset.reset", autoOffsetReset),
            ("session.timeout.ms", String(sessionTimeoutMilliseconds)),
            ("heartbeat.interval.ms", String(heartbeatIntervalMilliseconds)),
            // The prefetch queue is the only buffer: keep it bounded (pull-based back-pressure).
            ("queued.max.messages.kbytes", "16384"),
        ]
        result += common.properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        // A fetch response may exceed `fetch.max.bytes` by up to a partition's batch, and
        // librdkafka drops the connection (and fetches the same again, forever) when a response
        // exceeds `receive.message.max.bytes`, which it otherwise raises only to fetch + 512.
        // With a large fetch and many partitions an ingest worker stalls that way: unless the
        // receive limit is given, it gets twice the fetch limit.
        if common.properties["receive.message.max.bytes"] == nil, let fetch = common.properties["fetch.max.bytes"],
            let bytes = Int(fetch), bytes > 0
        {
            result.append(("receive.message.max.bytes", String(min(bytes * 2, Self.receiveLimitMaximum))))
        }
        return result
    }

    /// librdkafka's upper bound for `receive.message.max.bytes`.
    static let receiveLimitMaximum = 2_147_483_647
}

/// Settings of a ``KafkaProducer``.
public struct KafkaProducerConfiguration: Sendable {
    /// Connection settings.
    public var common: KafkaConfiguration
    /// `linger.ms`: how long to wait to fill a batch.
    public var lingerMilliseconds: Int
    /// `message.timeout.ms`: how long a record may wait for delivery before it fails.
    public var messageTimeoutMilliseconds: Int
    /// `enable.idempotence`.
    public var idempotent: Bool
    /// How long ``KafkaProducer/run()`` waits, on graceful shutdown, for outstanding records to be
    /// delivered before it fails them and destroys the client.
    public var shutdownFlushTimeout: Duration

    /// Creates a producer configuration.
    public init(
        common: KafkaConfiguration,
        lingerMilliseconds: Int = 5,
        messageTimeoutMilliseconds: Int = 120_000,
        idempotent: Bool = false,
        shutdownFlushTimeout: Duration = .seconds(10)
    ) {
        self.common = common
        self.lingerMilliseconds = lingerMilliseconds
        self.messageTimeoutMilliseconds = messageTimeoutMilliseconds
        self.idempotent = idempotent
        self.shutdownFlushTimeout = shutdownFlushTimeout
    }

    var librdkafkaProperties: [(String, String)] {
        var result: [(String, String)] = [
            ("bootstrap.servers", common.bootstrapServers),
            ("client.id", common.clientID),
            ("linger.ms", String(lingerMilliseconds)),
            ("message.timeout.ms", String(messageTimeoutMilliseconds)),
            ("enable.idempotence", idempotent ? "true" : "false"),
            ("queue.buffering.max.messages", "1000000"),
            ("queue.buffering.max.kbytes", "1048576"),
        ]
        result += common.properties.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return result
    }
}
