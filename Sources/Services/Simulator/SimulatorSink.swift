import ContactCenter
import Foundation
import Logging

/// How the simulator's messages reach Kafka: produced directly, or delivered through the
/// receiver as Amazon Data Firehose delivers Amazon Connect's streams.
public enum SimulatorRoute: String, Sendable, Hashable {
    /// Produced to the topics directly.
    case kafka
    /// Delivered to the receiver's `/v1/firehose/{stream}` (gzip, the access key), one request per
    /// stream per tick, retried with the same request id until stored.
    case firehose
}

/// Where the simulator's messages go.
public protocol SimulatorSink: Sendable {
    /// Hands over one tick's messages, in order.
    func deliver(_ messages: [SimulatedMessage]) async throws
    /// Waits (briefly) for what was handed over to be delivered; the simulation has ended.
    func finish() async
}

extension SimulatorSink {
    /// Nothing to wait for: a sink that delivers within ``deliver(_:)``.
    public func finish() async {}
}

extension SimulatedMessage.Kind {
    /// The stream the message belongs to.
    public var stream: ConnectStream {
        switch self {
        case .contactRecord: .contactRecords
        case .agentEvent: .agentEvents
        case .contactEvent: .contactEvents
        }
    }
}

/// Delivers the messages through the receiver as Firehose would: one request per stream (at most
/// ``maximumRecordsPerRequest`` records each), each retried with its request id until stored. A
/// request still refused after ``deadline`` is logged and dropped, as Firehose then writes it to
/// its error bucket.
struct FirehoseSimulatorSink: SimulatorSink {
    let client: FirehoseClient
    let logger: Logger
    var maximumRecordsPerRequest = 500
    var deadline = Duration.seconds(600)

    func deliver(_ messages: [SimulatedMessage]) async throws {
        for stream in ConnectStream.allCases {
            let records = messages.filter { $0.kind.stream == stream }.map(\.value)
            var start = 0
            while start < records.count {
                let end = min(start + maximumRecordsPerRequest, records.count)
                let logger = self.logger
                let attempt = try await client.deliver(
                    stream: stream, records: Array(records[start..<end]), deadline: deadline,
                    maximumBackoff: .seconds(10)
                ) { attempt in
                    if !attempt.delivered {
                        logger.warning("receiver answered \(attempt.status) to \(stream); retrying: \(attempt.body)")
                    }
                }
                if !attempt.delivered {
                    logger.error("dropped \(end - start) \(stream) records the receiver did not store: \(attempt.body)")
                }
                start = end
            }
        }
    }
}
