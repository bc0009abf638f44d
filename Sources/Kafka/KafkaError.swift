import CRdKafka

/// An error of the Kafka binding, carrying librdkafka's error code when there is one.
///
/// Like `PSQLError`, the error is a struct with an extensible ``Code`` rather than an enum, so new
/// kinds of failure do not break clients that switch over it.
public struct KafkaError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: Hashable, Sendable {
            case configuration
            case clientCreation
            case broker
            case produce
            case consume
            case rebalance
            case assignmentHandler
            case closed
            case timeout
            case mockCluster
        }

        fileprivate let base: Base

        /// A configuration property was rejected (unknown name or invalid value).
        public static let configuration = Code(base: .configuration)
        /// librdkafka refused to create the client.
        public static let clientCreation = Code(base: .clientCreation)
        /// A broker or cluster level error reported by librdkafka.
        public static let broker = Code(base: .broker)
        /// A record could not be produced or was not delivered.
        public static let produce = Code(base: .produce)
        /// Consuming failed (including a stored offset that fell off the log).
        public static let consume = Code(base: .consume)
        /// Assigning or revoking partitions failed.
        public static let rebalance = Code(base: .rebalance)
        /// The application's assignment handler threw; the consumer must be re-created.
        public static let assignmentHandler = Code(base: .assignmentHandler)
        /// The client was already closed.
        public static let closed = Code(base: .closed)
        /// An operation did not finish within its deadline.
        public static let timeout = Code(base: .timeout)
        /// The embedded (mock) cluster could not be created or driven.
        public static let mockCluster = Code(base: .mockCluster)

        public var description: String {
            switch base {
            case .configuration: "configuration"
            case .clientCreation: "clientCreation"
            case .broker: "broker"
            case .produce: "produce"
            case .consume: "consume"
            case .rebalance: "rebalance"
            case .assignmentHandler: "assignmentHandler"
            case .closed: "closed"
            case .timeout: "timeout"
            case .mockCluster: "mockCluster"
            }
        }
    }

    /// What kind of failure this is.
    public var code: Code
    /// A human-readable explanation, including librdkafka's own message when there is one.
    public var message: String
    /// librdkafka's `rd_kafka_resp_err_t` value, when the failure came from librdkafka.
    public var underlyingCode: Int32?
    /// `true` when the client cannot recover and must be destroyed and re-created.
    public var isFatal: Bool
    /// `true` when the same operation may succeed if retried later.
    public var isRetriable: Bool

    /// Creates an error.
    public init(
        code: Code,
        message: String,
        underlyingCode: Int32? = nil,
        isFatal: Bool = false,
        isRetriable: Bool = false
    ) {
        self.code = code
        self.message = message
        self.underlyingCode = underlyingCode
        self.isFatal = isFatal
        self.isRetriable = isRetriable
    }

    /// librdkafka's symbolic name of ``underlyingCode`` (e.g. `_ALL_BROKERS_DOWN`), if any.
    public var underlyingName: String? {
        underlyingCode.map { String(validatingCString: rd_kafka_err2name(rd_kafka_resp_err_t($0))) ?? "\($0)" }
    }

    public var description: String {
        if let underlyingName {
            return "KafkaError.\(code) [\(underlyingName)]: \(message)"
        }
        return "KafkaError.\(code): \(message)"
    }

    /// Builds an error from a librdkafka response code.
    static func rdKafka(_ err: rd_kafka_resp_err_t, code: Code, context: String) -> KafkaError {
        let text = String(validatingCString: rd_kafka_err2str(err)) ?? "unknown error"
        return KafkaError(
            code: code,
            message: "\(context): \(text)",
            underlyingCode: err.rawValue,
            isFatal: err == RD_KAFKA_RESP_ERR__FATAL,
            isRetriable: KafkaError.retriableCodes.contains(err.rawValue)
        )
    }

    /// Builds an error from a librdkafka `rd_kafka_error_t`, destroying it.
    static func consuming(_ error: OpaquePointer, code: Code, context: String) -> KafkaError {
        defer { rd_kafka_error_destroy(error) }
        let text = String(validatingCString: rd_kafka_error_string(error)) ?? "unknown error"
        return KafkaError(
            code: code,
            message: "\(context): \(text)",
            underlyingCode: rd_kafka_error_code(error).rawValue,
            isFatal: rd_kafka_error_is_fatal(error) != 0,
            isRetriable: rd_kafka_error_is_retriable(error) != 0
        )
    }

    /// Transient conditions librdkafka recovers from by itself (broker down, timeouts, queue full).
    static let retriableCodes: Set<Int32> = [
        RD_KAFKA_RESP_ERR__TRANSPORT.rawValue,
        RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN.rawValue,
        RD_KAFKA_RESP_ERR__TIMED_OUT.rawValue,
        RD_KAFKA_RESP_ERR__QUEUE_FULL.rawValue,
        RD_KAFKA_RESP_ERR__MSG_TIMED_OUT.rawValue,
        RD_KAFKA_RESP_ERR__RESOLVE.rawValue,
        RD_KAFKA_RESP_ERR_REQUEST_TIMED_OUT.rawValue,
        RD_KAFKA_RESP_ERR_NOT_LEADER_FOR_PARTITION.rawValue,
        RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE.rawValue,
        RD_KAFKA_RESP_ERR_NOT_ENOUGH_REPLICAS.rawValue,
        RD_KAFKA_RESP_ERR_COORDINATOR_NOT_AVAILABLE.rawValue,
        RD_KAFKA_RESP_ERR_NOT_COORDINATOR.rawValue,
    ]
}
