import ContactCenter
import Primitives

/// Turns one Firehose record into the Kafka messages it holds: each JSON object of its payload
/// (Connect writes one object per record; a record holding several concatenated or
/// newline-delimited objects yields each), keyed as the ingest expects, and whatever can never
/// be ingested marked with the reason, for the dead-letter table.
struct ConnectMessageSplitter: Sendable {
    let stream: ConnectStream
    /// The largest object produced (larger ones are dead-lettered with an excerpt).
    let maximumMessageBytes: Int

    /// The messages of `record`; empty for an empty (or blank) record.
    func messages(of record: FirehoseRecord, requestId: String) -> [ReceivedRecord] {
        let origin = "firehose \(requestId) record \(record.index)"
        switch record.content {
        case .invalid(let reason, let excerpt):
            return [rejected(excerpt, reason: reason, requestId: requestId, origin: origin)]
        case .data(let payload):
            // The usual record is one object: keyed in one walk, without splitting.
            if payload.count <= maximumMessageBytes,
                let single = payload.withUnsafeBytes({ stream.keyOfSingleObject($0) })
            {
                switch single {
                case .success(let key):
                    return [ReceivedRecord(stream: stream, key: Array(key.utf8), value: payload, origin: origin)]
                case .failure(let error):
                    return [rejected(payload, reason: error.description, requestId: requestId, origin: origin)]
                }
            }
            var splitter = JSONObjectSplitter()
            var chunks = splitter.feed(payload)
            if let tail = splitter.finish() { chunks.append(tail) }
            return chunks.enumerated().map { position, chunk in
                message(
                    chunk, requestId: requestId, origin: chunks.count == 1 ? origin : "\(origin) object \(position)")
            }
        }
    }

    /// One message of a single payload (an EventBridge event, or one object of a record).
    func message(_ chunk: [UInt8], requestId: String, origin: String) -> ReceivedRecord {
        guard chunk.count <= maximumMessageBytes else {
            return rejected(
                Array(chunk.prefix(FirehoseRequestParser.excerptBytes)),
                reason: "a JSON object of \(chunk.count) bytes exceeds the \(maximumMessageBytes) bytes a message may "
                    + "hold (value cut to its first \(FirehoseRequestParser.excerptBytes) bytes)",
                requestId: requestId, origin: origin)
        }
        guard chunk.first == UInt8(ascii: "{") else {
            return rejected(
                chunk,
                reason: "\(stream.description) payload is not a JSON object: it starts with "
                    + "\"\(String(decoding: chunk.prefix(24), as: UTF8.self))\"",
                requestId: requestId, origin: origin)
        }
        let key = chunk.withUnsafeBytes { bytes in
            Result { () throws(JSONDecodingError) in try stream.key(of: bytes) }
        }
        switch key {
        case .success(let key):
            return ReceivedRecord(stream: stream, key: Array(key.utf8), value: chunk, origin: origin)
        case .failure(let error):
            return rejected(chunk, reason: error.description, requestId: requestId, origin: origin)
        }
    }

    private func rejected(_ value: [UInt8], reason: String, requestId: String, origin: String) -> ReceivedRecord {
        ReceivedRecord(stream: stream, key: Array(requestId.utf8), value: value, rejection: reason, origin: origin)
    }
}
