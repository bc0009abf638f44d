import ContactCenter

/// One decoded batch: the rows for each table, the dead letters, and the next offset of every
/// partition the batch covers. Written in one transaction by ``IngestWriter``.
public struct IngestBatch: Sendable {
    /// A decoded record with where it came from.
    public struct Sourced<Value: Sendable>: Sendable {
        /// The decoded value.
        public var value: Value
        /// The partition it came from.
        public var partition: Int32
        /// Its offset.
        public var offset: Int64
        /// Its topic (`import:<file>` for imports).
        public var topic: String
        /// Its key bytes, kept for a dead letter.
        public var key: [UInt8]?
        /// Its value bytes as received, kept for a dead letter: the decoded value's `rawJSON` is
        /// the same JSON in `jsonb`'s member order (``IngestDecoder``). `nil` when built otherwise,
        /// and for rows too recent to be refused at the retention horizon
        /// (``IngestDecoder/receivedCutoff(now:)``), whose dead letter would otherwise never need them.
        public var received: [UInt8]? = nil
    }

    /// Contact trace records, de-duplicated per contact (the newest copy of the batch kept).
    public var contactRecords: [Sourced<ContactTraceRecord>] = []
    /// How many copies of each contact the batch held (for `versions_seen`).
    public var contactRecordCopies: [String: Int] = [:]
    /// Agent events, de-duplicated by event id.
    public var agentEvents: [Sourced<AgentEvent>] = []
    /// Contact events, de-duplicated by event id.
    public var contactEvents: [Sourced<ContactEvent>] = []
    /// Records that could not be decoded or validated.
    public var deadLetters: [DeadLetter] = []
    /// Per partition, the offset after the last record of the batch.
    public var nextOffsets: [PartitionKey: Int64] = [:]
    /// Per partition, the offset of the first record of the batch: its offsets may advance only
    /// from at most there (``OffsetStore``), so no record is written twice.
    public var firstOffsets: [PartitionKey: Int64] = [:]

    /// Creates an empty batch.
    public init() {}

    /// The number of source records the batch covers (rows, duplicates and dead letters).
    public var sourceRecordCount: Int = 0

    /// Whether the batch writes nothing.
    public var isEmpty: Bool { sourceRecordCount == 0 && nextOffsets.isEmpty }

    /// One batch holding `batches`, taken from the source in this order, as if their records
    /// had been decoded together: per contact the newest copy (the decoder's version guard), its
    /// copies summed; events de-duplicated by id, the first kept; every dead letter; per
    /// partition the furthest next offset.
    ///
    /// A lane writes the batches that queued while it wrote the previous one in one transaction
    /// (``IngestPipeline``): the per-transaction costs (offsets, commit, the rollups' upkeep
    /// call) are then paid once for all of them.
    public init(merging batches: [IngestBatch]) {
        guard let first = batches.first else { return }
        self = first
        guard batches.count > 1 else { return }
        var contactIndex: [String: Int] = [:]
        contactIndex.reserveCapacity(contactRecords.count)
        for (index, sourced) in contactRecords.enumerated() { contactIndex[sourced.value.contactId] = index }
        var agentEventIDs = Set(agentEvents.map(\.value.eventId))
        var contactEventIDs = Set(contactEvents.map(\.value.id))
        for later in batches.dropFirst() {
            sourceRecordCount += later.sourceRecordCount
            nextOffsets.merge(later.nextOffsets, uniquingKeysWith: max)
            firstOffsets.merge(later.firstOffsets, uniquingKeysWith: min)
            contactRecordCopies.merge(later.contactRecordCopies, uniquingKeysWith: +)
            deadLetters += later.deadLetters
            for sourced in later.contactRecords { keepNewest(sourced, indexedBy: &contactIndex) }
            for sourced in later.agentEvents where agentEventIDs.insert(sourced.value.eventId).inserted {
                agentEvents.append(sourced)
            }
            for sourced in later.contactEvents where contactEventIDs.insert(sourced.value.id).inserted {
                contactEvents.append(sourced)
            }
        }
    }

    /// Whether `later` holds records of a partition from before where this batch ends: then the
    /// two cover some of the same records (a part queued before its partition was revoked and
    /// claimed again, and the same records read again from the stored offsets) and must not be
    /// written as one transaction, where the overlap would be counted twice. Written one after the
    /// other, the second is refused (``OffsetStore``).
    public func isOverlapped(by later: IngestBatch) -> Bool {
        Self.overlap(of: later, after: nextOffsets)
    }

    /// Whether `later` starts a partition before its offset in `nextOffsets`.
    static func overlap(of later: IngestBatch, after nextOffsets: [PartitionKey: Int64]) -> Bool {
        later.firstOffsets.contains { partition, first in
            nextOffsets[partition].map { first < $0 } ?? false
        }
    }

    /// Adds `sourced`, or replaces the batch's copy of its contact when `sourced` is newer (the
    /// version guard, ``IngestDecoder/isNewer(_:than:)``); `contactIndex` maps each contact to its
    /// position in ``contactRecords``.
    mutating func keepNewest(_ sourced: Sourced<ContactTraceRecord>, indexedBy contactIndex: inout [String: Int]) {
        if let index = contactIndex[sourced.value.contactId] {
            if IngestDecoder.isNewer(sourced, than: contactRecords[index]) { contactRecords[index] = sourced }
        } else {
            contactIndex[sourced.value.contactId] = contactRecords.count
            contactRecords.append(sourced)
        }
    }

    /// The UTC months (their first instants) of the rows' partitions: contacts' initiation (see
    /// `ContactTraceRecord.partitionMonth`), events' times.
    public var months: Set<UTCTimestamp> {
        var months: Set<UTCTimestamp> = []
        for sourced in contactRecords { months.insert(sourced.value.partitionMonth) }
        for sourced in agentEvents { months.insert(sourced.value.partitionMonth) }
        for sourced in contactEvents { months.insert(sourced.value.partitionMonth) }
        return months
    }

    /// Moves the rows before `horizon` (the retention horizon: their months' raw rows were
    /// dropped) to the dead letters, with their bytes as received.
    ///
    /// A row before the horizon would change rollups that can no longer be recomputed: a newer
    /// version of a contact whose stored version is gone would be counted twice, and an agent's
    /// intervals are recomputed from its earlier events.
    /// - Returns: How many rows were moved.
    @discardableResult
    public mutating func refuseRows(before horizon: UTCTimestamp) -> Int {
        let before = deadLetters.count
        func refuse<Value>(_ sourced: Sourced<Value>, time: UTCTimestamp, raw: [UInt8], what: String) {
            deadLetters.append(
                DeadLetter(
                    topic: sourced.topic, partition: sourced.partition, offset: sourced.offset, key: sourced.key,
                    value: raw,
                    reason: DeadLetterReason(
                        kind: "before_retention",
                        message: "\(what) \(time) is before the retention horizon \(horizon): "
                            + "the raw rows of its month were dropped, and the rollups of that period keep their figures"
                    )
                )
            )
        }
        contactRecords.removeAll { sourced in
            let record = sourced.value
            guard record.partitionMonth < horizon else { return false }
            refuse(
                sourced, time: record.initiationTimestamp ?? record.lastUpdateTimestamp,
                raw: sourced.received ?? Array(record.rawJSON ?? record.jsonData()),
                what: record.initiationTimestamp == nil
                    ? "LastUpdateTimestamp (no InitiationTimestamp)" : "InitiationTimestamp")
            contactRecordCopies[sourced.value.contactId] = nil
            return true
        }
        agentEvents.removeAll { sourced in
            guard sourced.value.eventTimestamp < horizon else { return false }
            refuse(
                sourced, time: sourced.value.eventTimestamp,
                raw: sourced.received ?? Array(sourced.value.rawJSON ?? sourced.value.jsonData()),
                what: "EventTimestamp")
            return true
        }
        contactEvents.removeAll { sourced in
            guard sourced.value.time < horizon else { return false }
            refuse(
                sourced, time: sourced.value.time,
                raw: sourced.received ?? Array(sourced.value.rawJSON ?? sourced.value.jsonData()), what: "event time")
            return true
        }
        return deadLetters.count - before
    }
}

/// A record that goes to the dead-letter table, with the reason.
public struct DeadLetter: Sendable, Hashable {
    /// Where it came from.
    public var topic: String
    /// Its partition.
    public var partition: Int32
    /// Its offset.
    public var offset: Int64
    /// Its key bytes.
    public var key: [UInt8]?
    /// Its value bytes (`nil` for a tombstone).
    public var value: [UInt8]?
    /// Why it was refused: a machine-friendly kind and the precise message.
    public var reason: DeadLetterReason

    /// Creates a dead letter.
    public init(
        topic: String, partition: Int32, offset: Int64, key: [UInt8]?, value: [UInt8]?, reason: DeadLetterReason
    ) {
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.key = key
        self.value = value
        self.reason = reason
    }
}

/// Why a record was refused.
public struct DeadLetterReason: Error, Sendable, Hashable, CustomStringConvertible {
    /// A short kind, used as the metrics dimension: `tombstone`, `too_large`, `invalid`,
    /// `unknown_topic`, `rejected` (marked undecodable by the producer, see ``SourceRecord/rejection``).
    public var kind: String
    /// The precise message (field path and reason for validation errors).
    public var message: String

    /// Creates a reason.
    public init(kind: String, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind): \(message)" }
}

extension AgentEvent {
    /// The month of `agent_event`'s partition: the UTC month of `EventTimestamp`.
    var partitionMonth: UTCTimestamp { eventTimestamp.monthStart }
}

extension ContactEvent {
    /// The month of `contact_event`'s partition: the UTC month of the event's time.
    var partitionMonth: UTCTimestamp { time.monthStart }
}
