/// How the receiver authenticates senders and bounds its work, set per deployment.
///
/// Memory: a request is read as a stream, never whole. One request holds at most one Firehose
/// record being decoded (``maximumRecordBytes`` plus its base64 excerpt), the records awaiting
/// Kafka's acknowledgement (``publishWindowBytes``, and librdkafka's copy of them), and the
/// gzip and HTTP buffers (a few hundred KiB): about 2 × 4 MiB + 2 MiB ≈ 10 MiB with the defaults,
/// whatever the body's size. At most ``maximumConcurrentRequests`` requests are read at once
/// (more are answered 429), so the receiver's requests hold at most about 8 × 10 MiB = 80 MiB.
public struct ReceiverConfiguration: Sendable {
    /// The accepted access keys (`X-Amz-Firehose-Access-Key`; for EventBridge the API key header
    /// or Basic password). Several during a rotation. Empty: every request is accepted (`dev`) or,
    /// with ``refusesWithoutKeys``, refused.
    public var accessKeys: [String]
    /// Whether a receiver without keys refuses every request (401) instead of accepting all:
    /// a production role must never run open.
    public var refusesWithoutKeys: Bool
    /// The largest request body accepted, compressed or not (413 beyond). Firehose's bodies are
    /// at most 64 MiB of records before base64 and compression; base64 makes that 85.4 MiB, so
    /// the default of 128 MiB never refuses a genuine request (a 413 makes Firehose drop it).
    public var maximumBodyBytes: Int
    /// The largest record, decoded, a Firehose request may carry (its contract: 1,024,000 bytes).
    /// A larger record, and a JSON object larger than ``maximumMessageBytes``, is dead-lettered.
    public var maximumRecordBytes: Int
    /// The largest message produced to Kafka (the ingest dead-letters larger ones anyway; keep it
    /// at or below the brokers' `message.max.bytes`).
    public var maximumMessageBytes: Int
    /// Bytes of decoded records handed to Kafka before the receiver waits for their
    /// acknowledgement and reads on.
    public var publishWindowBytes: Int
    /// Requests read at once; further ones are answered 429 (Firehose backs off and retries).
    public var maximumConcurrentRequests: Int
    /// The largest EventBridge event body (EventBridge's own limit is 256 KB).
    public var maximumEventBytes: Int

    /// Creates a configuration.
    public init(
        accessKeys: [String] = [],
        refusesWithoutKeys: Bool = false,
        maximumBodyBytes: Int = 128 << 20,
        maximumRecordBytes: Int = 1_024_000,
        maximumMessageBytes: Int = 1_000_000,
        publishWindowBytes: Int = 4 << 20,
        maximumConcurrentRequests: Int = 8,
        maximumEventBytes: Int = 1 << 20
    ) {
        self.accessKeys = accessKeys.filter { !$0.isEmpty }
        self.refusesWithoutKeys = refusesWithoutKeys
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumRecordBytes = maximumRecordBytes
        self.maximumMessageBytes = maximumMessageBytes
        self.publishWindowBytes = publishWindowBytes
        self.maximumConcurrentRequests = max(1, maximumConcurrentRequests)
        self.maximumEventBytes = maximumEventBytes
    }

    /// The header that carries the Firehose access key.
    public static let accessKeyHeader = "X-Amz-Firehose-Access-Key"
    /// The header that carries the Firehose request id.
    public static let requestIDHeader = "X-Amz-Firehose-Request-Id"
    /// The header that carries the Firehose protocol version.
    public static let protocolVersionHeader = "X-Amz-Firehose-Protocol-Version"
    /// The header that carries the Firehose stream's common attributes.
    public static let commonAttributesHeader = "X-Amz-Firehose-Common-Attributes"
    /// The header that carries the Firehose stream's ARN.
    public static let sourceARNHeader = "X-Amz-Firehose-Source-Arn"
    /// The API key header of EventBridge API destinations (the connection's header name).
    public static let apiKeyHeader = "X-Api-Key"
}
