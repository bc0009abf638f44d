import ContactCenter
import Foundation
import Primitives

/// Turns source records into an ``IngestBatch``: decodes, validates, de-duplicates, and routes
/// what cannot be used to dead letters. Pure: no I/O.
public struct IngestDecoder: Sendable {
    /// The topic names.
    public var topics: IngestTopics
    /// Records larger than this go to the dead-letter table (CTRs are 2–4 KB; attributes ≤ 32 KB).
    public var maximumRecordBytes: Int

    /// Creates a decoder.
    public init(topics: IngestTopics = IngestTopics(), maximumRecordBytes: Int = 1 << 20) {
        self.topics = topics
        self.maximumRecordBytes = maximumRecordBytes
    }

    /// Decodes `records` into one batch. The next offset of every partition is covered, dead
    /// letters included, so a bad record never stalls its partition.
    ///
    /// - Parameter cutoff: Rows whose raw month is before this instant keep their bytes as
    ///   received (``IngestBatch/Sourced/received``), for the dead letter of a row refused at the
    ///   retention horizon (``IngestBatch/refuseRows(before:)``); the others drop them once decoded,
    ///   so a record in flight holds one copy of its JSON instead of two. `nil` keeps every row's.
    ///   ``receivedCutoff(now:)`` gives the instant before which a row can be refused.
    public func decode(_ records: [SourceRecord], receivedBefore cutoff: UTCTimestamp? = nil) -> IngestBatch {
        var batch = IngestBatch()
        batch.sourceRecordCount = records.count
        // Sized for the whole batch up front: growing, they rehash every key (a twentieth of
        // the decoder's CPU on a batch of 2,000 CTRs, perf), and the rows (~550 bytes each) would
        // be copied into a fresh, twice as large buffer a dozen times (a twentieth of the worker's
        // page faults). A part without CTRs leaves the reserved pages untouched.
        var contactIndex: [String: Int] = [:]
        contactIndex.reserveCapacity(records.count)
        batch.contactRecordCopies.reserveCapacity(records.count)
        batch.contactRecords.reserveCapacity(records.count)
        var agentEventIDs: Set<String> = []
        var contactEventIDs: Set<String> = []
        for record in records {
            let key = record.partitionKey
            batch.nextOffsets[key] = max(batch.nextOffsets[key] ?? .min, record.offset + 1)
            batch.firstOffsets[key] = min(batch.firstOffsets[key] ?? .max, record.offset)
            switch decodeOne(record) {
            case .failure(let reason):
                batch.deadLetters.append(
                    DeadLetter(
                        topic: record.topic,
                        partition: record.partition,
                        offset: record.offset,
                        key: record.key,
                        value: record.value,
                        reason: reason
                    )
                )
            case .success(.contactRecord(let ctr)):
                let sourced = IngestBatch.Sourced(
                    value: ctr, partition: record.partition, offset: record.offset, topic: record.topic,
                    key: record.key,
                    received: Self.keeps(ctr.partitionMonth, before: cutoff) ? record.value : nil)
                batch.contactRecordCopies[ctr.contactId, default: 0] += 1
                batch.keepNewest(sourced, indexedBy: &contactIndex)
            case .success(.agentEvent(let event)):
                if agentEventIDs.insert(event.eventId).inserted {
                    batch.agentEvents.append(
                        .init(
                            value: event, partition: record.partition, offset: record.offset, topic: record.topic,
                            key: record.key,
                            received: Self.keeps(event.partitionMonth, before: cutoff) ? record.value : nil))
                }
            case .success(.contactEvent(let event)):
                if contactEventIDs.insert(event.id).inserted {
                    batch.contactEvents.append(
                        .init(
                            value: event, partition: record.partition, offset: record.offset, topic: record.topic,
                            key: record.key,
                            received: Self.keeps(event.partitionMonth, before: cutoff) ? record.value : nil))
                }
            }
        }
        return batch
    }

    /// Whether a row of raw month `month` keeps its bytes as received.
    @inline(__always)
    static func keeps(_ month: UTCTimestamp, before cutoff: UTCTimestamp?) -> Bool {
        cutoff.map { month < $0 } ?? true
    }

    /// The instant before which a row decoded at `now` may be refused at the retention horizon:
    /// the start of the UTC month before `now`'s. Retention keeps at least one whole month before
    /// the current one (`raw_retention_apply`), so the horizon is at most the start of the
    /// previous month by the database's clock; a row of that month or later is never refused
    /// while the two clocks agree on the month. Should they not (a retention run in the seconds
    /// around a month's turn, with the worker's clock behind), such a row's dead letter holds its
    /// JSON in `jsonb`'s member order instead: the same value, not the same bytes.
    public static func receivedCutoff(now: UTCTimestamp) -> UTCTimestamp {
        now.monthStart.adding(milliseconds: -1).monthStart
    }

    /// Records imported from CTR files carry the topic `import:<file name>` (dead letters stay
    /// unique per file and position, and replays know to decode them as CTRs).
    public static let importTopicPrefix = "import:"

    /// Decodes a single record (also used to re-validate dead letters on replay). A failure's
    /// message names the record's ``SourceRecord/origin`` when it has one.
    public func decodeOne(_ record: SourceRecord) -> Result<DecodedRecord, DeadLetterReason> {
        let decoded = decodeValue(record)
        // The origin first: matching `decoded` against a pattern copies the record it holds.
        guard let origin = record.origin, case .failure(var reason) = decoded else { return decoded }
        reason.message += " (from \(origin))"
        return .failure(reason)
    }

    private func decodeValue(_ record: SourceRecord) -> Result<DecodedRecord, DeadLetterReason> {
        if let rejection = record.rejection {
            return .failure(DeadLetterReason(kind: "rejected", message: rejection))
        }
        guard let value = record.value else {
            return .failure(DeadLetterReason(kind: "tombstone", message: "null value (tombstone): nothing to ingest"))
        }
        guard value.count <= maximumRecordBytes else {
            return .failure(
                DeadLetterReason(
                    kind: "too_large",
                    message: "record of \(value.count) bytes exceeds the limit of \(maximumRecordBytes) bytes"
                )
            )
        }
        do {
            switch record.topic {
            case topics.contactRecords,
                _ where record.topic.hasPrefix(Self.importTopicPrefix):
                return .success(.contactRecord(try ContactTraceRecord(jsonBytes: value, keepingRaw: .jsonbOrder)))
            case topics.agentEvents:
                return .success(.agentEvent(try AgentEvent(jsonBytes: value, keepingRaw: .jsonbOrder)))
            case topics.contactEvents:
                return .success(.contactEvent(try ContactEvent(jsonBytes: value, keepingRaw: .jsonbOrder)))
            default:
                return .failure(
                    DeadLetterReason(kind: "unknown_topic", message: "no decoder for topic \(record.topic)"))
            }
        } catch let error as JSONDecodingError {
            return .failure(DeadLetterReason(kind: "invalid", message: error.description))
        } catch {
            return .failure(DeadLetterReason(kind: "invalid", message: "\(error)"))
        }
    }

    /// The version guard (docs/ingest.md): newer `LastUpdateTimestamp` wins, then the later
    /// (partition, offset).
    static func isNewer(
        _ candidate: IngestBatch.Sourced<ContactTraceRecord>,
        than kept: IngestBatch.Sourced<ContactTraceRecord>
    ) -> Bool {
        (candidate.value.lastUpdateTimestamp, candidate.partition, candidate.offset)
            > (kept.value.lastUpdateTimestamp, kept.partition, kept.offset)
    }
}

/// A successfully decoded record.
public enum DecodedRecord: Sendable {
    /// A contact trace record.
    case contactRecord(ContactTraceRecord)
    /// An agent event.
    case agentEvent(AgentEvent)
    /// A contact event.
    case contactEvent(ContactEvent)
}
