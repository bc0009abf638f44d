import ContactCenter
import Metrics

/// The receiver's metrics:
///
/// - `switchboard_receiver_requests_total{route, stream, status}`: requests by answer;
/// - `switchboard_receiver_records_total{stream, outcome}`: messages `produced`, payloads
///   `dead_lettered` (produced marked for the dead-letter table), and `empty` Firehose records;
/// - `switchboard_receiver_bytes_total{stream, form}`: request bodies as `received` (on the wire,
///   compressed or not) and record payloads `decoded` from base64;
/// - `switchboard_receiver_rejected_keys_total{route}`: requests refused for a missing or wrong key;
/// - `switchboard_receiver_produce_duration_seconds{stream}`: from handing a window of records to
///   Kafka until every one is acknowledged;
/// - `switchboard_receiver_requests_in_flight`: requests being read.
struct ReceiverMetrics: Sendable {
    static let requestsLabel = "switchboard_receiver_requests_total"
    static let recordsLabel = "switchboard_receiver_records_total"
    static let bytesLabel = "switchboard_receiver_bytes_total"
    static let rejectedKeysLabel = "switchboard_receiver_rejected_keys_total"
    static let produceLabel = "switchboard_receiver_produce_duration_seconds"
    static let inFlightLabel = "switchboard_receiver_requests_in_flight"

    private struct PerStream: Sendable {
        let produced: Counter
        let deadLettered: Counter
        let empty: Counter
        let received: Counter
        let decoded: Counter
        let produce: Timer

        init(_ stream: ConnectStream) {
            let name = stream.rawValue
            produced = Counter(
                label: ReceiverMetrics.recordsLabel, dimensions: [("stream", name), ("outcome", "produced")])
            deadLettered = Counter(
                label: ReceiverMetrics.recordsLabel, dimensions: [("stream", name), ("outcome", "dead_lettered")])
            empty = Counter(label: ReceiverMetrics.recordsLabel, dimensions: [("stream", name), ("outcome", "empty")])
            received = Counter(label: ReceiverMetrics.bytesLabel, dimensions: [("stream", name), ("form", "received")])
            decoded = Counter(label: ReceiverMetrics.bytesLabel, dimensions: [("stream", name), ("form", "decoded")])
            produce = Timer(label: ReceiverMetrics.produceLabel, dimensions: [("stream", name)])
        }
    }

    private let streams: [ConnectStream: PerStream]
    let inFlight = Gauge(label: ReceiverMetrics.inFlightLabel)

    init() {
        streams = Dictionary(uniqueKeysWithValues: ConnectStream.allCases.map { ($0, PerStream($0)) })
    }

    func request(route: String, stream: ConnectStream?, status: Int) {
        Counter(
            label: Self.requestsLabel,
            dimensions: [("route", route), ("stream", stream?.rawValue ?? "unknown"), ("status", String(status))]
        ).increment()
    }

    func rejectedKey(route: String) {
        Counter(label: Self.rejectedKeysLabel, dimensions: [("route", route)]).increment()
    }

    func received(_ stream: ConnectStream, bytes: Int) {
        streams[stream]?.received.increment(by: bytes)
    }

    func decoded(_ stream: ConnectStream, bytes: Int) {
        streams[stream]?.decoded.increment(by: bytes)
    }

    func empty(_ stream: ConnectStream) {
        streams[stream]?.empty.increment()
    }

    func published(_ records: [ReceivedRecord], elapsed: Duration) {
        guard let stream = records.first?.stream, let metrics = streams[stream] else { return }
        let dead = records.count { $0.rejection != nil }
        if records.count > dead { metrics.produced.increment(by: records.count - dead) }
        if dead > 0 { metrics.deadLettered.increment(by: dead) }
        let (seconds, attoseconds) = elapsed.components
        metrics.produce.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
