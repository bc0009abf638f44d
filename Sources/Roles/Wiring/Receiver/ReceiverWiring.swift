import ContactCenter
import Kafka
import Logging
import Server
import ServiceLifecycle

/// The receiver of a process, built from the settings: its idempotent producer, its routes, its
/// readiness check and the producer's lifetime service.
///
/// Without access keys the receiver is open in `dev` (with a warning) and closed elsewhere: no
/// producer, every request refused (``ReceiverConfiguration/refusesWithoutKeys``).
struct ReceiverWiring: Sendable {
    /// The Firehose and EventBridge routes.
    let routes: ReceiverRoutes
    /// `/ready`'s `receiver` check (Kafka reachable with the three topics, producer healthy);
    /// `nil` when the receiver is closed.
    let readinessCheck: (any ReadinessCheck)?
    /// The producer's lifetime; list it before the HTTP server.
    let services: [ServiceGroupConfiguration.ServiceConfiguration]

    /// The readiness scope of the receiver's traffic (`/ready/receiver`).
    static let scope: [String: Set<String>] = ["receiver": ["receiver"]]

    /// - Parameters:
    ///   - open: Whether a receiver without keys accepts every request (`dev` only).
    /// - Throws: `KafkaError` when the producer cannot be created.
    init(settings: Settings, bootstrap: String, open: Bool, logger: Logger) throws {
        let configuration = ReceiverConfiguration(
            accessKeys: settings.firehoseAccessKeys,
            refusesWithoutKeys: !open,
            maximumBodyBytes: settings.receiverMaxBodyBytes,
            publishWindowBytes: settings.receiverWindowBytes,
            maximumConcurrentRequests: settings.receiverConcurrentRequests)
        guard !settings.firehoseAccessKeys.isEmpty || open else {
            logger.notice(
                "the receiver (/v1/firehose, /v1/eventbridge) refuses every request: set SWITCHBOARD_FIREHOSE_ACCESS_KEYS"
            )
            routes = ReceiverRoutes(publisher: RefusingPublisher(), configuration: configuration)
            readinessCheck = nil
            services = []
            return
        }
        if settings.firehoseAccessKeys.isEmpty {
            logger.warning(
                "the receiver is open (any X-Amz-Firehose-Access-Key is accepted): set SWITCHBOARD_FIREHOSE_ACCESS_KEYS outside development"
            )
        }
        let producer = try KafkaProducer(
            configuration: KafkaProducerConfiguration(
                common: settings.kafka(
                    bootstrap: bootstrap, clientID: "switchboard-receiver",
                    defaults: ["acks": "all", "message.max.bytes": "1048576"]),
                messageTimeoutMilliseconds: settings.receiverProduceTimeoutMilliseconds,
                idempotent: true),
            logger: Logger(label: "kafka.receiver"))
        let topics = Dictionary(uniqueKeysWithValues: ConnectStream.allCases.map { ($0, settings.topic(of: $0)) })
        routes = ReceiverRoutes(
            publisher: KafkaRecordPublisher(producer: producer, topics: topics), configuration: configuration)
        readinessCheck = ReceiverReadinessCheck(producer: producer, topics: settings.topics)
        services = [.init(service: producer)]
    }
}

/// Ready when Kafka answers a metadata request with the three topics and the receiver's
/// producer has not failed fatally (an idempotent producer can; it must then be re-created, by
/// restarting the process).
struct ReceiverReadinessCheck: ReadinessCheck {
    let producer: KafkaProducer
    let topics: [String]
    let name = "receiver"

    func check() async -> ReadinessStatus {
        if let error = producer.lastError, error.isFatal {
            return .failing("the producer failed fatally, restart the process: \(error)")
        }
        return await KafkaReadinessCheck(producer: producer, topics: topics).check()
    }
}
