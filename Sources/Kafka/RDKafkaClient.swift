import CRdKafka
import Logging
import NIOConcurrencyHelpers
import Synchronization

/// Owns one `rd_kafka_t` handle and the context librdkafka's callbacks reach through its opaque.
///
/// - Important: `rd_kafka_destroy` hangs while any message, event, queue or partition list of the
///   handle is alive, so every caller copies messages out and destroys them at once, and partition
///   lists live only inside ``RDKafkaPartitionList`` values on the thread that made them.
final class RDKafkaClient: @unchecked Sendable {
    // @unchecked Sendable: the only stored state is the immutable handle pointer and the
    // immutable (Sendable) context. The consumer calls every `rd_kafka_*` function on its single
    // dedicated thread (`KafkaConsumerThread`), which refuses work once it accepted the final
    // close and destroy. The producer uses only librdkafka's thread-safe producer APIs
    // (`rd_kafka_produceva`, `rd_kafka_poll`, `rd_kafka_flush`, `rd_kafka_purge`,
    // `rd_kafka_metadata`) and destroys the handle once, after its poll loop has stopped, behind
    // every blocking call accepted before, with new calls refused (`KafkaProducer`'s state lock).
    let handle: OpaquePointer
    let context: RDKafkaContext

    private init(handle: OpaquePointer, context: RDKafkaContext) {
        self.handle = handle
        self.context = context
    }

    /// Creates a client from librdkafka properties.
    ///
    /// - Throws: ``KafkaError`` `.configuration` for a rejected property, `.clientCreation` when
    ///   librdkafka refuses the configuration as a whole.
    static func make(
        type: rd_kafka_type_t,
        properties: [(String, String)],
        context: RDKafkaContext,
        configure: (OpaquePointer) -> Void = { _ in }
    ) throws -> RDKafkaClient {
        guard let conf = rd_kafka_conf_new() else {
            throw KafkaError(code: .clientCreation, message: "rd_kafka_conf_new failed")
        }
        var errorText = [CChar](repeating: 0, count: 512)
        for (name, value) in properties {
            let result = rd_kafka_conf_set(conf, name, value, &errorText, errorText.count)
            if result != RD_KAFKA_CONF_OK {
                rd_kafka_conf_destroy(conf)
                // The property's name only: a value may be a secret, and librdkafka's reason may
                // quote it.
                let reason = value.isEmpty ? Self.text(errorText) : Self.text(errorText).replacing(value, with: "***")
                throw KafkaError(
                    code: .configuration,
                    message: "property \(name) rejected: \(reason)",
                    isFatal: true
                )
            }
        }
        rd_kafka_conf_set_opaque(conf, Unmanaged.passUnretained(context).toOpaque())
        rd_kafka_conf_set_log_cb(conf) { handle, level, facility, message in
            guard let handle, let opaque = rd_kafka_opaque(handle) else { return }
            let context = Unmanaged<RDKafkaContext>.fromOpaque(opaque).takeUnretainedValue()
            context.log(
                level: level,
                facility: facility.flatMap { String(validatingCString: $0) } ?? "",
                message: message.flatMap { String(validatingCString: $0) } ?? ""
            )
        }
        rd_kafka_conf_set_error_cb(conf) { handle, code, reason, opaque in
            guard let opaque else { return }
            let context = Unmanaged<RDKafkaContext>.fromOpaque(opaque).takeUnretainedValue()
            var error = KafkaError.rdKafka(
                rd_kafka_resp_err_t(code),
                code: .broker,
                context: reason.flatMap { String(validatingCString: $0) } ?? "broker error"
            )
            if rd_kafka_resp_err_t(code) == RD_KAFKA_RESP_ERR__FATAL, let handle {
                var text = [CChar](repeating: 0, count: 512)
                let original = rd_kafka_fatal_error(handle, &text, text.count)
                error = KafkaError(
                    code: .broker,
                    message: "fatal: \(RDKafkaClient.text(text))",
                    underlyingCode: original.rawValue,
                    isFatal: true
                )
            }
            context.record(error)
        }
        configure(conf)
        guard let handle = rd_kafka_new(type, conf, &errorText, errorText.count) else {
            // rd_kafka_new frees the configuration only on success.
            rd_kafka_conf_destroy(conf)
            throw KafkaError(
                code: .clientCreation,
                message: "rd_kafka_new failed: \(Self.text(errorText))",
                isFatal: true
            )
        }
        return RDKafkaClient(handle: handle, context: context)
    }

    /// The optional features this librdkafka was built with (`builtin.features`: `ssl`,
    /// `sasl_scram`, `zstd`, ...).
    static func builtinFeatures() -> Set<String> {
        guard let conf = rd_kafka_conf_new() else { return [] }
        defer { rd_kafka_conf_destroy(conf) }
        var buffer = [CChar](repeating: 0, count: 1024)
        var size = buffer.count
        guard rd_kafka_conf_get(conf, "builtin.features", &buffer, &size) == RD_KAFKA_CONF_OK else { return [] }
        return Set(text(buffer).split(separator: ",").map(String.init))
    }

    /// Decodes a NUL-terminated C buffer without the deprecated `String(cString: [CChar])`.
    static func text(_ buffer: [CChar]) -> String {
        buffer.withUnsafeBufferPointer { pointer in
            pointer.baseAddress.flatMap { String(validatingCString: $0) } ?? ""
        }
    }
}

/// What librdkafka's callbacks reach through the opaque pointer: the logger, the last error,
/// (for producers) the continuations waiting for delivery reports, and (for consumers) the
/// rebalance callback and the results of offset commits.
///
/// - Important: it must outlive `rd_kafka_destroy`; owners keep it until the handle is gone and
///   leak it on purpose when a watchdog gives up on a hung `destroy`.
final class RDKafkaContext: Sendable {
    let logger: Logger
    let lastError = Mutex<KafkaError?>(nil)
    let fatalError = Mutex<KafkaError?>(nil)
    let deliveries = Mutex<DeliveryRegistry>(DeliveryRegistry())
    let commits = Mutex(KafkaCommitStatistics())
    let rebalance:
        (@Sendable (OpaquePointer, rd_kafka_resp_err_t, UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) -> Void)?

    init(
        logger: Logger,
        rebalance: (
            @Sendable (OpaquePointer, rd_kafka_resp_err_t, UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) ->
                Void
        )? = nil
    ) {
        self.logger = logger
        self.rebalance = rebalance
    }

    /// Forwards one librdkafka log line to swift-log (syslog levels 0–7).
    func log(level: Int32, facility: String, message: String) {
        let swiftLevel: Logger.Level =
            switch level {
            case ...2: .critical
            case 3: .error
            case 4: .warning
            case 5: .notice
            case 6: .info
            default: .debug
            }
        logger.log(level: swiftLevel, "\(message)", metadata: ["rdkafka.facility": "\(facility)"])
    }

    /// Remembers an error reported by librdkafka's error callback.
    func record(_ error: KafkaError) {
        // librdkafka's log callback already reported the details of transient errors.
        logger.log(level: error.isFatal ? .error : .debug, "librdkafka: \(error)")
        lastError.withLock { $0 = error }
        if error.isFatal {
            fatalError.withLock { $0 = error }
        }
    }
}

/// Continuations of records whose delivery report someone awaits, keyed by a per-record id.
struct DeliveryRegistry: Sendable {
    var nextID: UInt = 1
    var waiting: [UInt: CheckedContinuation<KafkaDeliveryReport, any Error>] = [:]
    /// Batches of ``KafkaProducer/send(_:)``, by the id all their records carry.
    var batches: [UInt: PendingBatch] = [:]
    var undelivered: Int = 0

    /// A batch whose delivery reports are still coming.
    struct PendingBatch: Sendable {
        var remaining: Int
        var outcome = KafkaBatchDelivery(failed: 0, firstError: nil)
        let continuation: CheckedContinuation<KafkaBatchDelivery, Never>

        /// Counts `count` records settled (failed with `error`, if any); returns the continuation
        /// to resume once none remains.
        mutating func settle(_ count: Int, error: KafkaError?) -> CheckedContinuation<KafkaBatchDelivery, Never>? {
            remaining -= count
            if let error {
                outcome.failed += count
                if outcome.firstError == nil { outcome.firstError = error }
            }
            return remaining == 0 ? continuation : nil
        }
    }
}

extension Duration {
    /// Whole milliseconds, clamped to `Int32` (librdkafka's timeouts), never negative.
    var milliseconds32: Int32 {
        let (seconds, attoseconds) = components
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return seconds < 0 ? 0 : .max }
        return Int32(clamping: max(milliseconds + attoseconds / 1_000_000_000_000_000, 0))
    }

    /// Whole nanoseconds, clamped to `Int64`.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, sumOverflow) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        guard !overflow && !sumOverflow else { return seconds < 0 ? .min : .max }
        return sum
    }
}
