import ContactCenter
import Foundation
import Logging
import Server
import Services
import Storage

/// Every setting of every role, read from the environment in one place.
///
/// Only the executable reads the environment; adapters receive typed configuration structs.
/// Each key is documented in docs/configuration.md. Command-line options override them.
public struct Settings: Sendable {
    /// `SWITCHBOARD_DATABASE_URL`: the PostgreSQL server.
    public var databaseURL: String
    /// `SWITCHBOARD_DATABASE_POOL_SIZE`: the most connections each process's PostgreSQL pool
    /// opens (default 8); the ingest's lanes each hold one more of their own.
    public var databasePoolSize: Int
    /// `SWITCHBOARD_STAFFING_DATABASE_URL`: the PostgreSQL server `serve` reads staffing from, as
    /// a login of `switchboard_staffing_reader` (read-only); unset (`nil`), `serve` answers no
    /// `/v1/staffing`. Other roles ignore it.
    public var staffingDatabaseURL: String?
    /// `SWITCHBOARD_KAFKA_BOOTSTRAP`: Kafka's bootstrap servers; empty means the embedded cluster (dev only).
    public var kafkaBootstrap: String
    /// `SWITCHBOARD_HTTP_HOST`: the address the HTTP server binds.
    public var httpHost: String
    /// `SWITCHBOARD_HTTP_PORT`: the HTTP server's port.
    public var httpPort: Int
    /// `SWITCHBOARD_HTTP_HEADER_TIMEOUT_SECONDS`: how long a request head may take (default 10).
    public var httpHeaderTimeoutSeconds: Int
    /// `SWITCHBOARD_HTTP_BODY_TIMEOUT_SECONDS`: the longest wait between two reads of a request
    /// body (default 30).
    public var httpBodyTimeoutSeconds: Int
    /// `SWITCHBOARD_HTTP_IDLE_TIMEOUT_SECONDS`: how long an idle keep-alive connection stays open
    /// (default 75, above a load balancer's usual 60 s).
    public var httpIdleTimeoutSeconds: Int
    /// `SWITCHBOARD_HTTP_MAX_CONNECTIONS`: connections served at once; `nil` for the default, the
    /// file-descriptor limit less 1,024, between 64 and 10,000 (see ``HTTPLimits``).
    public var httpMaxConnections: Int?
    /// `SWITCHBOARD_LOG_LEVEL`: trace, debug, info, notice, warning, error, critical.
    public var logLevel: Logger.Level
    /// `SWITCHBOARD_LOG_FORMAT`: `text` or `json`.
    public var logFormat: String
    /// `SWITCHBOARD_TOPIC_CONTACT_RECORDS`: the CTR topic.
    public var contactRecordsTopic: String
    /// `SWITCHBOARD_TOPIC_AGENT_EVENTS`: the agent event topic.
    public var agentEventsTopic: String
    /// `SWITCHBOARD_TOPIC_CONTACT_EVENTS`: the contact event topic.
    public var contactEventsTopic: String
    /// `SWITCHBOARD_EMBEDDED_PARTITIONS`: partitions per topic of the embedded cluster.
    public var embeddedPartitions: Int
    /// `SWITCHBOARD_EMBEDDED_BROKERS`: brokers of the embedded cluster.
    public var embeddedBrokers: Int
    /// `SWITCHBOARD_FLOWS_DIR`: the `flows/` directory the hook evaluates (default `flows`).
    public var flowsDirectory: String
    /// `SWITCHBOARD_FLOWS_POLL_INTERVAL_MS`: how often the hook checks `flows/` for changes
    /// (default 1000; `SIGHUP` reloads at once).
    public var flowsPollIntervalMilliseconds: Int
    /// `SWITCHBOARD_ANALYST_ATTRIBUTE_KEYS`: the contact attribute keys the analyst role sees in
    /// `contact_record_analyst` (comma-separated; written to `analytics_setting` on migrate).
    /// Phone-like values are masked even for these keys.
    public var analystAttributeKeys: [String]
    /// `SWITCHBOARD_HOOK_TOKENS`: comma-separated bearer tokens accepted by the hook; empty (and no
    /// HMAC secret) leaves the hook open, for development only.
    public var hookTokens: [String]
    /// `SWITCHBOARD_HOOK_HMAC_SECRET`: the shared secret of HMAC-SHA256 hook signatures
    /// (`X-Switchboard-Timestamp`, `X-Switchboard-Signature: sha256=<hex>`); empty for none.
    /// `SWITCHBOARD_HOOK_HMAC_PREVIOUS_SECRET`: during a rotation, the old secret, still accepted
    /// until every caller signs with the new one. Both are used exactly as given (no trimming).
    public var hookHMACSecrets: [String]
    /// `SWITCHBOARD_HOOK_HMAC_ACCEPT_V1`: whether the hook still accepts v1 signatures (over
    /// `timestamp.body` only) besides v2 ones (over the timestamp, method, target and body):
    /// `true` only while the callers move to v2 (default `false`).
    public var hookAcceptsV1Signatures: Bool
    /// `SWITCHBOARD_ALLOW_OPEN`: the surfaces `serve` may run without credentials (`hook`,
    /// `console`), on a private network only; empty by default, and `serve` refuses to start with
    /// a surface open.
    public var allowOpen: Set<OpenSurface>
    /// `SWITCHBOARD_ALLOWED_HOSTS`: the names (comma-separated, without a port) a request's `Host`
    /// may carry when `serve` runs a surface open, besides loopback and private addresses.
    public var allowedHosts: [String]
    /// `SWITCHBOARD_HOOK_REPLAY_WINDOW_SECONDS`: how far a signature's timestamp may be from the
    /// server's clock (default 300).
    public var hookReplayWindowSeconds: Int

    /// `SWITCHBOARD_FIREHOSE_ACCESS_KEYS`: comma-separated access keys the receiver accepts
    /// (`X-Amz-Firehose-Access-Key`; for EventBridge API destinations the API key or Basic
    /// password), several during a rotation. Empty: `dev` accepts every request (with a warning),
    /// `serve` refuses every receiver request, `receive` refuses to start.
    public var firehoseAccessKeys: [String]
    /// `SWITCHBOARD_RECEIVER_MAX_BODY_BYTES`: the largest receiver request body (default 128 MiB;
    /// Firehose sends at most 64 MiB of records before base64, ~85.4 MiB encoded).
    public var receiverMaxBodyBytes: Int
    /// `SWITCHBOARD_RECEIVER_CONCURRENT_REQUESTS`: requests the receiver reads at once; more are
    /// answered 429 (default 8).
    public var receiverConcurrentRequests: Int
    /// `SWITCHBOARD_RECEIVER_WINDOW_BYTES`: bytes of records a request hands to Kafka before it
    /// waits for their acknowledgement (default 4 MiB).
    public var receiverWindowBytes: Int
    /// `SWITCHBOARD_RECEIVER_PRODUCE_TIMEOUT_MS`: how long the receiver's producer tries to
    /// deliver a record before the request fails with 503 (librdkafka's `message.timeout.ms`;
    /// default 30000, well within Firehose's 3-minute request timeout).
    public var receiverProduceTimeoutMilliseconds: Int

    /// `SWITCHBOARD_CONSOLE_TOKENS`: comma-separated tokens that may read the floor streams
    /// (`Authorization: Bearer` or `?token=`); empty leaves them open, for development only.
    public var consoleTokens: [String]
    /// `SWITCHBOARD_FLOOR_REBUILD_MINUTES`: on start the floor replays agent and contact events
    /// from at least this many minutes back, and from the start of the business day (default 120).
    public var floorRebuildMinutes: Int
    /// `SWITCHBOARD_FLOOR_TIME_ZONE`: the time zone of the floor's business day (default `Asia/Tokyo`).
    public var floorTimeZone: TimeZone
    /// `SWITCHBOARD_FLOOR_SERVICE_LEVEL_SECONDS`: the service-level threshold of the console (default 20).
    public var floorServiceLevelSeconds: Int
    /// `SWITCHBOARD_MCP_*`: the MCP endpoint (``MCPSettings``).
    public var mcp: MCPSettings

    /// `SWITCHBOARD_SHUTDOWN_DRAIN_SECONDS`: on SIGTERM, how long serve and dev keep answering
    /// while every `/ready` answers 503, before the server closes (default 5; Kubernetes' preStop
    /// sleep comes before it).
    public var shutdownDrainSeconds: Int

    /// `SWITCHBOARD_INGEST_GROUP`: the ingest's consumer group (offsets are kept per group in PostgreSQL).
    public var ingestGroup: String
    /// `SWITCHBOARD_INGEST_LANES`: concurrent writers per worker (partitions are spread over them).
    public var ingestLanes: Int
    /// `SWITCHBOARD_INGEST_BATCH_RECORDS`: the most records per batch.
    public var ingestBatchRecords: Int
    /// `SWITCHBOARD_INGEST_BATCH_MS`: the longest wait to fill a batch, in milliseconds.
    public var ingestBatchMilliseconds: Int
    /// `SWITCHBOARD_INGEST_MAX_RECORD_BYTES`: larger records go to the dead-letter table.
    public var ingestMaxRecordBytes: Int
    /// `SWITCHBOARD_KAFKA_PROPERTIES`: librdkafka properties for every Kafka client of every role
    /// (ingest consumer, floor consumer, producers), `name=value` pairs separated by commas, e.g.
    /// `security.protocol=SASL_SSL,sasl.mechanisms=SCRAM-SHA-512,sasl.username=u,sasl.password=p`.
    public var kafkaProperties: [String: String]
    /// `SWITCHBOARD_KAFKA_SESSION_TIMEOUT_MS`: the consumer group session timeout.
    public var kafkaSessionTimeoutMilliseconds: Int

    /// `SWITCHBOARD_SIMULATOR`: `on` or `off`; whether `switchboard dev` runs the traffic simulator (default on).
    public var simulatorEnabled: Bool
    /// `SWITCHBOARD_SIMULATOR_SPEED`: simulated seconds per wall-clock second (default 60).
    public var simulatorSpeed: Int
    /// `SWITCHBOARD_SIMULATOR_AGENTS`: simulated agents (default 12).
    public var simulatorAgents: Int
    /// `SWITCHBOARD_SIMULATOR_SEED`: the simulator's seed; equal seeds and starts give equal traffic
    /// (default 1).
    public var simulatorSeed: UInt64
    /// `SWITCHBOARD_SIMULATOR_SHOCKS`: the share of store-days, 0…1, whose arrival rate a shock
    /// scales from a time of day to the end of the business day (×1.6 from 11:00 or ×0.5 from
    /// 17:00; which days is decided by the seed); default 0, none.
    public var simulatorShocks: Double
    /// `SWITCHBOARD_SIMULATOR_VIA`: `kafka` (produce directly) or `firehose` (deliver through the
    /// receiver, as Amazon Data Firehose would); unset, `dev` uses `firehose` and `simulate` `kafka`.
    public var simulatorVia: SimulatorRoute?
    /// `SWITCHBOARD_SIMULATOR_HTTP_PORT`: where `switchboard simulate` serves `/health`, `/ready`
    /// and `/metrics` (default 8082; under `dev` the simulator's metrics are on the main port).
    public var simulatorHTTPPort: Int
    /// `SWITCHBOARD_SIMULATOR_START`: the simulated instant to start at, ISO 8601 with `Z` or an
    /// offset (`2026-11-20T11:30:00+09:00`); unset, the simulation starts now. Pinning it makes the
    /// traffic independent of the wall clock (at night every store is closed and no call arrives).
    public var simulatorStart: Date?

    /// Reads the settings from `environment` (the process environment by default).
    ///
    /// - Throws: ``SettingsError`` naming the variable and the accepted values.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        func string(_ key: String, _ fallback: String) -> String {
            environment[key].flatMap { $0.isEmpty ? nil : $0 } ?? fallback
        }
        func integer(_ key: String, _ fallback: Int, range: ClosedRange<Int>) throws -> Int {
            guard let text = environment[key], !text.isEmpty else { return fallback }
            guard let value = Int(text), range.contains(value) else {
                throw SettingsError(key: key, value: text, expected: "an integer in \(range)")
            }
            return value
        }
        databaseURL = string("SWITCHBOARD_DATABASE_URL", "postgres://postgres@127.0.0.1:54329/switchboard")
        databasePoolSize = try integer("SWITCHBOARD_DATABASE_POOL_SIZE", 8, range: 1...512)
        staffingDatabaseURL = environment["SWITCHBOARD_STAFFING_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        kafkaBootstrap = string("SWITCHBOARD_KAFKA_BOOTSTRAP", "")
        httpHost = string("SWITCHBOARD_HTTP_HOST", "127.0.0.1")
        httpPort = try integer("SWITCHBOARD_HTTP_PORT", 8080, range: 0...65535)
        httpHeaderTimeoutSeconds = try integer("SWITCHBOARD_HTTP_HEADER_TIMEOUT_SECONDS", 10, range: 1...3_600)
        httpBodyTimeoutSeconds = try integer("SWITCHBOARD_HTTP_BODY_TIMEOUT_SECONDS", 30, range: 1...3_600)
        httpIdleTimeoutSeconds = try integer("SWITCHBOARD_HTTP_IDLE_TIMEOUT_SECONDS", 75, range: 1...86_400)
        let maxConnections = try integer("SWITCHBOARD_HTTP_MAX_CONNECTIONS", 0, range: 1...1_000_000)
        httpMaxConnections = maxConnections == 0 ? nil : maxConnections
        let level = string("SWITCHBOARD_LOG_LEVEL", "info")
        guard let parsedLevel = Logger.Level(rawValue: level) else {
            throw SettingsError(
                key: "SWITCHBOARD_LOG_LEVEL",
                value: level,
                expected: "trace, debug, info, notice, warning, error or critical"
            )
        }
        logLevel = parsedLevel
        logFormat = string("SWITCHBOARD_LOG_FORMAT", "text")
        guard ["text", "json"].contains(logFormat) else {
            throw SettingsError(key: "SWITCHBOARD_LOG_FORMAT", value: logFormat, expected: "text or json")
        }
        contactRecordsTopic = string("SWITCHBOARD_TOPIC_CONTACT_RECORDS", "contact-records")
        agentEventsTopic = string("SWITCHBOARD_TOPIC_AGENT_EVENTS", "agent-events")
        contactEventsTopic = string("SWITCHBOARD_TOPIC_CONTACT_EVENTS", "contact-events")
        embeddedPartitions = try integer("SWITCHBOARD_EMBEDDED_PARTITIONS", 24, range: 1...1024)
        embeddedBrokers = try integer("SWITCHBOARD_EMBEDDED_BROKERS", 1, range: 1...9)
        flowsDirectory = string("SWITCHBOARD_FLOWS_DIR", "flows")
        flowsPollIntervalMilliseconds = try integer("SWITCHBOARD_FLOWS_POLL_INTERVAL_MS", 1000, range: 100...600_000)
        analystAttributeKeys = string("SWITCHBOARD_ANALYST_ATTRIBUTE_KEYS", Settings.defaultAnalystAttributeKeys)
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        hookTokens = string("SWITCHBOARD_HOOK_TOKENS", "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        hookHMACSecrets = [
            string("SWITCHBOARD_HOOK_HMAC_SECRET", ""), string("SWITCHBOARD_HOOK_HMAC_PREVIOUS_SECRET", ""),
        ].filter { !$0.isEmpty }
        hookReplayWindowSeconds = try integer("SWITCHBOARD_HOOK_REPLAY_WINDOW_SECONDS", 300, range: 1...86_400)
        let acceptV1 = string("SWITCHBOARD_HOOK_HMAC_ACCEPT_V1", "false")
        switch acceptV1 {
        case "true": hookAcceptsV1Signatures = true
        case "false": hookAcceptsV1Signatures = false
        default:
            throw SettingsError(key: "SWITCHBOARD_HOOK_HMAC_ACCEPT_V1", value: acceptV1, expected: "true or false")
        }
        allowOpen = []
        for name in string("SWITCHBOARD_ALLOW_OPEN", "").split(separator: ",") {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let surface = OpenSurface(rawValue: trimmed), surface == .hook || surface == .console else {
                throw SettingsError(
                    key: "SWITCHBOARD_ALLOW_OPEN", value: trimmed, expected: "a comma-separated list of hook, console")
            }
            allowOpen.insert(surface)
        }
        allowedHosts = string("SWITCHBOARD_ALLOWED_HOSTS", "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        for name in allowedHosts where name.contains(":") || name.contains("/") || name.contains(" ") {
            throw SettingsError(
                key: "SWITCHBOARD_ALLOWED_HOSTS", value: name,
                expected: "comma-separated host names without a scheme, port or path (serve.internal.example)")
        }
        firehoseAccessKeys = string("SWITCHBOARD_FIREHOSE_ACCESS_KEYS", "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        receiverMaxBodyBytes = try integer(
            "SWITCHBOARD_RECEIVER_MAX_BODY_BYTES", 128 << 20, range: (1 << 20)...(1 << 30))
        receiverConcurrentRequests = try integer("SWITCHBOARD_RECEIVER_CONCURRENT_REQUESTS", 8, range: 1...1_024)
        receiverWindowBytes = try integer("SWITCHBOARD_RECEIVER_WINDOW_BYTES", 4 << 20, range: (64 << 10)...(256 << 20))
        receiverProduceTimeoutMilliseconds = try integer(
            "SWITCHBOARD_RECEIVER_PRODUCE_TIMEOUT_MS", 30_000, range: 1_000...170_000)
        consoleTokens = string("SWITCHBOARD_CONSOLE_TOKENS", "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        floorRebuildMinutes = try integer("SWITCHBOARD_FLOOR_REBUILD_MINUTES", 120, range: 1...10_080)
        let zone = string("SWITCHBOARD_FLOOR_TIME_ZONE", "Asia/Tokyo")
        guard let floorZone = TimeZone(identifier: zone) else {
            throw SettingsError(
                key: "SWITCHBOARD_FLOOR_TIME_ZONE", value: zone, expected: "an IANA time zone such as Asia/Tokyo")
        }
        floorTimeZone = floorZone
        floorServiceLevelSeconds = try integer("SWITCHBOARD_FLOOR_SERVICE_LEVEL_SECONDS", 20, range: 1...3_600)
        mcp = try MCPSettings(environment: environment)
        kafkaProperties = try Self.kafkaProperties(string("SWITCHBOARD_KAFKA_PROPERTIES", ""))
        shutdownDrainSeconds = try integer("SWITCHBOARD_SHUTDOWN_DRAIN_SECONDS", 5, range: 0...300)
        ingestGroup = string("SWITCHBOARD_INGEST_GROUP", "switchboard-ingest")
        ingestLanes = try integer("SWITCHBOARD_INGEST_LANES", 2, range: 1...64)
        ingestBatchRecords = try integer("SWITCHBOARD_INGEST_BATCH_RECORDS", 8_000, range: 1...100_000)
        ingestBatchMilliseconds = try integer("SWITCHBOARD_INGEST_BATCH_MS", 200, range: 1...60_000)
        ingestMaxRecordBytes = try integer("SWITCHBOARD_INGEST_MAX_RECORD_BYTES", 1 << 20, range: 1_024...(64 << 20))
        kafkaSessionTimeoutMilliseconds = try integer(
            "SWITCHBOARD_KAFKA_SESSION_TIMEOUT_MS", 10_000, range: 3_000...300_000)
        let simulator = string("SWITCHBOARD_SIMULATOR", "on").lowercased()
        switch simulator {
        case "on", "true", "1", "yes": simulatorEnabled = true
        case "off", "false", "0", "no": simulatorEnabled = false
        default: throw SettingsError(key: "SWITCHBOARD_SIMULATOR", value: simulator, expected: "on or off")
        }
        simulatorSpeed = try integer("SWITCHBOARD_SIMULATOR_SPEED", 60, range: 1...100_000)
        simulatorAgents = try integer("SWITCHBOARD_SIMULATOR_AGENTS", 12, range: 0...10_000)
        let seed = string("SWITCHBOARD_SIMULATOR_SEED", "1")
        guard let parsedSeed = UInt64(seed) else {
            throw SettingsError(key: "SWITCHBOARD_SIMULATOR_SEED", value: seed, expected: "an unsigned 64-bit integer")
        }
        simulatorSeed = parsedSeed
        let shocks = string("SWITCHBOARD_SIMULATOR_SHOCKS", "0")
        guard let share = Double(shocks), (0...1).contains(share) else {
            throw SettingsError(key: "SWITCHBOARD_SIMULATOR_SHOCKS", value: shocks, expected: "a share from 0 to 1")
        }
        simulatorShocks = share
        simulatorHTTPPort = try integer("SWITCHBOARD_SIMULATOR_HTTP_PORT", 8082, range: 0...65535)
        let via = string("SWITCHBOARD_SIMULATOR_VIA", "").lowercased()
        if via.isEmpty {
            simulatorVia = nil
        } else if let route = SimulatorRoute(rawValue: via) {
            simulatorVia = route
        } else {
            throw SettingsError(key: "SWITCHBOARD_SIMULATOR_VIA", value: via, expected: "kafka or firehose")
        }
        let start = string("SWITCHBOARD_SIMULATOR_START", "")
        if start.isEmpty {
            simulatorStart = nil
        } else if let instant = Self.instant(iso8601: start) {
            simulatorStart = instant
        } else {
            throw SettingsError(
                key: "SWITCHBOARD_SIMULATOR_START", value: start,
                expected: "an ISO 8601 instant with Z or an offset, e.g. 2026-11-20T11:30:00+09:00")
        }
        try validateCredentials(environment: environment)
    }

    /// The database configuration of ``databaseURL`` with the pool of ``databasePoolSize``.
    ///
    /// - Throws: ``StorageError`` naming what is wrong with the URL.
    public func databaseConfiguration() throws -> DatabaseConfiguration {
        var configuration = try DatabaseConfiguration(url: databaseURL)
        configuration.maximumConnections = databasePoolSize
        return configuration
    }

    /// The most connections `serve`'s staffing pool opens (``databasePoolSize`` when that is
    /// smaller): a plan's three reads share them, and every replica's pool counts in the
    /// database's connection budget (deploy/docs/kubernetes.md).
    public static let staffingPoolSize = 2

    /// The database configuration of ``staffingDatabaseURL`` (`nil` without one), its pool of at
    /// most ``staffingPoolSize``.
    ///
    /// - Throws: ``StorageError`` naming what is wrong with the URL (its password as `***`).
    public func staffingDatabaseConfiguration() throws -> DatabaseConfiguration? {
        guard let staffingDatabaseURL else { return nil }
        var configuration = try DatabaseConfiguration(url: staffingDatabaseURL)
        configuration.maximumConnections = min(databasePoolSize, Self.staffingPoolSize)
        return configuration
    }

    /// The simulator's options from these settings: starting at ``simulatorStart`` (or now), at
    /// the configured speed; the receiver (for `SWITCHBOARD_SIMULATOR_VIA=firehose`) on the hook's
    /// host and port.
    public func simulatorOptions(hookURL: URL) -> SimulatorOptions {
        SimulatorOptions(
            seed: simulatorSeed, speed: Double(simulatorSpeed), agents: simulatorAgents, callsPerHour: 6,
            rate: nil, duration: nil, hookURL: hookURL, hookToken: hookTokens.first, start: simulatorStart ?? Date(),
            via: simulatorVia ?? .kafka,
            receiverURL: URL(string: "/v1/firehose", relativeTo: hookURL)?.absoluteURL,
            receiverAccessKey: firehoseAccessKeys.first, shocks: simulatorShocks)
    }

    /// Parses an ISO 8601 instant with `Z` or an offset (`2026-11-20T11:30:00+09:00`), as
    /// `SWITCHBOARD_SIMULATOR_START` and `simulate --start` take it; `nil` when it is not one.
    public static func instant(iso8601 text: String) -> Date? {
        UTCTimestamp(iso8601: text)?.date
    }

    /// The default of `SWITCHBOARD_ANALYST_ATTRIBUTE_KEYS`: the routing attributes the IVR flows
    /// and the hook set, none of them personal.
    public static let defaultAnalystAttributeKeys =
        "storeId,result,dayType,flow,rule,queue,language,intent,partySize,followUp"

    /// The HTTP server's timeouts and connection cap.
    public var httpLimits: HTTPLimits {
        HTTPLimits(
            headerTimeout: .seconds(httpHeaderTimeoutSeconds), bodyTimeout: .seconds(httpBodyTimeoutSeconds),
            idleTimeout: .seconds(httpIdleTimeoutSeconds),
            maxConnections: httpMaxConnections ?? HTTPLimits.defaultMaxConnections())
    }

    /// The ingested topics.
    public var ingestTopics: IngestTopics {
        IngestTopics(
            contactRecords: contactRecordsTopic, agentEvents: agentEventsTopic, contactEvents: contactEventsTopic)
    }

    /// The three topics, in a fixed order.
    public var topics: [String] { [contactRecordsTopic, agentEventsTopic, contactEventsTopic] }

    /// The topic of `stream`.
    public func topic(of stream: ConnectStream) -> String {
        switch stream {
        case .contactRecords: contactRecordsTopic
        case .agentEvents: agentEventsTopic
        case .contactEvents: contactEventsTopic
        }
    }
}

/// A setting with a value the program cannot use.
public struct SettingsError: Error, CustomStringConvertible {
    public var key: String
    public var value: String
    public var expected: String

    /// Whether ``value`` is a credential, which the description never repeats.
    public var isCredential = false

    public var description: String {
        isCredential
            ? "\(key) is invalid: expected \(expected)"
            : "\(key)=\"\(value)\" is invalid: expected \(expected)"
    }

    /// An error about a setting that holds a value the program cannot use.
    public init(key: String, value: String, expected: String) {
        self.key = key
        self.value = value
        self.expected = expected
    }

    /// An error about a credential; its value is kept out of the error.
    public init(credential key: String, expected: String) {
        self.init(key: key, value: "", expected: expected)
        isCredential = true
    }
}
