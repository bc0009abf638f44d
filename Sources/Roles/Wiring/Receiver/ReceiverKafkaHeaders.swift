import Kafka

/// The Kafka headers the receiver sets and the ingest reads: where a message came from, and why
/// a payload can never be ingested (so the ingest dead-letters it with that reason).
enum ReceiverKafkaHeaders {
    /// `firehose <request id> record <n>` or `eventbridge <id>`.
    static let origin = "switchboard-origin"
    /// The reason a payload can never be ingested.
    static let rejection = "switchboard-rejection"

    /// The headers of a message.
    static func headers(origin: String, rejection: String?) -> [KafkaHeader] {
        var headers = [KafkaHeader(key: Self.origin, value: Array(origin.utf8))]
        if let rejection { headers.append(KafkaHeader(key: Self.rejection, value: Array(rejection.utf8))) }
        return headers
    }

    /// The value of header `name` of `record`, if present and not null.
    static func value(_ name: String, of record: KafkaRecord) -> String? {
        guard !record.headers.isEmpty,
            let value = record.headers.last(where: { $0.key == name })?.value
        else { return nil }
        return String(decoding: value, as: UTF8.self)
    }
}
