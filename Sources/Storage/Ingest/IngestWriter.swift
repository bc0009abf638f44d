import ContactCenter
import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// What one batch write did.
public struct IngestWriteSummary: Sendable, Hashable {
    /// Contact records inserted or replaced by a newer copy.
    public var contactRecordsWritten = 0
    /// Contact record copies that lost to a newer stored copy (late or duplicate arrivals).
    public var contactRecordsOutdated = 0
    /// Agent events inserted (duplicates by event id are not).
    public var agentEventsWritten = 0
    /// Contact events inserted.
    public var contactEventsWritten = 0
    /// Dead letters inserted.
    public var deadLettersWritten = 0
    /// Rows refused because they are before the retention horizon (moved to the dead letters,
    /// counted in ``deadLettersWritten`` too).
    public var rowsBeforeRetention = 0
    /// Whether the batch was found written already (its offsets stored by an earlier attempt
    /// whose outcome was not known): nothing was written this time.
    public var alreadyWritten = false

    /// Creates an empty summary.
    public init() {}
}

/// Writes decoded batches: every row and the partitions' next offsets in one transaction.
///
/// A crash at any point therefore neither loses nor duplicates a row (docs/ingest.md, "Exactly
/// once into PostgreSQL"), and neither does a retry of a write whose outcome was not known: the offsets
/// advance only from where the batch's claims say they are (``OffsetStore``), so a batch that an
/// abandoned attempt committed is recognized (``IngestWriteSummary/alreadyWritten``) instead of
/// written twice. Writers never read back what they wrote to decide what to do; the version
/// guard and the de-duplication live in the statements.
///
/// Every statement's wait ends: it honours cancellation and a closed connection (``Transaction``).
public struct IngestWriter: Sendable {
    /// Where transactions get their connection.
    private enum Connections: Sendable {
        case pool(PostgresClient)
        case own(WriteConnections)
    }

    private let connections: Connections
    private let group: String
    private let logger: Logger
    /// The UTC months whose raw partitions this writer has ensured (a box: copies of the writer
    /// share it, which a `Mutex` cannot be).
    private let coveredMonths = NIOLockedValueBox<Set<UTCTimestamp>>([])

    /// Creates a writer for consumer group `group` whose transactions lease connections from `client`.
    public init(client: PostgresClient, group: String, logger: Logger) {
        self.connections = .pool(client)
        self.group = group
        self.logger = logger
    }

    /// Creates a writer for consumer group `group` whose transactions run on `connections`.
    init(connections: WriteConnections, group: String, logger: Logger) {
        self.connections = .own(connections)
        self.group = group
        self.logger = logger
    }

    /// Writes `batch` under the caller's partition claims.
    ///
    /// - Parameter claims: The claim of every partition in the batch: the owner epoch from
    ///   ``OffsetStore/claim(_:)`` and the next offset stored before this batch (the claimed one,
    ///   then each written batch's). Pass `nil` to write without offsets (imports from files).
    /// - Returns: What was written; ``IngestWriteSummary/alreadyWritten`` when the partitions'
    ///   offsets were already past this batch (an earlier attempt committed it; nothing is written).
    /// - Throws: ``StorageError`` `.fenced` when another worker owns a partition now, or its stored
    ///   offset is neither before nor after this batch (nothing is written); PostgreSQL errors when
    ///   the database is unavailable (nothing is written either, unless the error came after
    ///   `COMMIT` was sent: a retry then finds the batch written).
    public func write(_ batch: IngestBatch, claims: [PartitionKey: PartitionClaim]?) async throws
        -> IngestWriteSummary
    {
        let group = self.group
        let logger = self.logger
        try await coverPartitions(of: batch)
        do {
            return try await transaction { connection in
                // Offsets first: the offset rows are locked until commit, so a concurrent claim
                // waits and then sees this batch's offsets, or it came first and this write is
                // fenced; and a second attempt of this batch waits for the first and then finds
                // its offsets stored.
                if let claims {
                    try await OffsetStore.advance(
                        batch.nextOffsets, firstOffsets: batch.firstOffsets, from: claims, group: group, on: connection,
                        logger: logger)
                }
                return try await Self.writeRows(batch, on: connection, logger: logger)
            }
        } catch let error as StorageError where error.code == .alreadyWritten {
            var summary = IngestWriteSummary()
            summary.alreadyWritten = true
            return summary
        }
    }

    /// Creates the raw tables' partitions of the batch's months, and those of the next months,
    /// unless this writer did so already (`raw_partitions_ensure`, in its own transaction before
    /// the batch's: a partition is created once, ahead of time, not by every batch).
    func coverPartitions(of batch: IngestBatch) async throws {
        let months = batch.months
        let missing = coveredMonths.withLockedValue { months.subtracting($0) }
        guard !missing.isEmpty else { return }
        let logger = self.logger
        let dates = missing.sorted().map { Date(timeIntervalSince1970: Double($0.millisecondsSince1970) / 1000) }
        let created = try await transaction { connection in
            var created = 0
            for row in try await Transaction.statement(
                "SELECT raw_partitions_ensure(\(dates))", on: connection, logger: logger)
            {
                created = try row.decode(Int.self)
            }
            return created
        }
        if created > 0 {
            logger.info("raw partitions created", metadata: ["count": "\(created)", "months": "\(missing.sorted())"])
        }
        coveredMonths.withLockedValue { $0.formUnion(missing) }
    }

    private func transaction<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        switch connections {
        case .pool(let client):
            try await client.withConnection { connection in
                try await Transaction.run(on: connection, logger: logger, body)
            }
        case .own(let connections):
            try await connections.withTransaction(body)
        }
    }

    /// Writes the rows and dead letters of `batch` on `connection`, inside the caller's transaction.
    static func writeRows(_ batch: IngestBatch, on connection: PostgresConnection, logger: Logger) async throws
        -> IngestWriteSummary
    {
        var summary = IngestWriteSummary()
        // First: the horizon lock, held shared until commit, comes before any raw table's lock.
        var batch = batch
        if let horizon = try await retentionHorizon(on: connection, logger: logger) {
            summary.rowsBeforeRetention = batch.refuseRows(before: horizon)
        }
        (summary.contactRecordsWritten, summary.contactRecordsOutdated) = try await upsertContactRecords(
            batch,
            on: connection,
            logger: logger
        )
        summary.agentEventsWritten = try await insertAgentEvents(batch.agentEvents, on: connection, logger: logger)
        summary.contactEventsWritten = try await insertContactEvents(
            batch.contactEvents, on: connection, logger: logger)
        summary.deadLettersWritten = try await insertDeadLetters(batch.deadLetters, on: connection, logger: logger)
        return summary
    }

    /// The retention horizon (`ingest_write_begin()`, which holds its lock shared until commit),
    /// or `nil` when nothing was ever dropped.
    static func retentionHorizon(on connection: PostgresConnection, logger: Logger) async throws -> UTCTimestamp? {
        let rows = try await Transaction.statement(
            """
            SELECT CASE WHEN h = '-infinity' THEN NULL ELSE (extract(epoch FROM h) * 1000)::int8 END
            FROM ingest_write_begin() AS h
            """,
            on: connection,
            logger: logger
        )
        for row in rows {
            return try row.decode(Int64?.self).map { UTCTimestamp(millisecondsSince1970: $0) }
        }
        return nil
    }

    /// The upsert of a batch's contact records (binds encoded, nothing sent): the version guard
    /// (docs/ingest.md) in SQL; returns the ids of the rows it wrote.
    ///
    /// The rows it writes go to the rollups' stash (`pg_temp.rollup_written_contact`, made by
    /// `ingest_write_begin()`) in the same statement, as the 19 columns the upkeep reads: a
    /// transition table would copy each row whole, `raw` included.
    ///
    /// The arrays are unnested in the select list, in lockstep, not in `FROM`: PostgreSQL copies
    /// every value of a `FROM unnest(…)` into a tuplestore before the first row comes out, and
    /// the select list reads them from the arrays as it goes: a lane's 2,000 CTRs carry ~4.6 MB of
    /// `raw`, and their insert takes about a fifth less time this way. The events' inserts
    /// likewise.
    ///
    /// - Note: In the `Bench` SPI for `switchboard-bench bench-decode`, which times the worker's
    ///   share of the write path: it must encode this very query, so the query cannot move to the
    ///   bench, and the SPI keeps it out of Storage's public API for everyone else.
    @_spi(Bench)
    public static func upsertQuery(
        _ records: [IngestBatch.Sourced<ContactTraceRecord>], copies: [String: Int]
    ) -> PostgresQuery {
        let c = ContactRecordColumns(records, copies: copies)
        return """
            WITH written AS (
            INSERT INTO contact_record (
                contact_id, initial_contact_id, previous_contact_id, next_contact_id, channel, initiation_method,
                initiation_ts, connected_to_system_ts, disconnect_ts, disconnect_reason, queue_name, queue_arn,
                enqueue_ts, dequeue_ts, queue_duration_s, agent_username, agent_arn, connected_to_agent_ts,
                agent_interaction_s, customer_hold_s, acw_start_ts, acw_end_ts, acw_s, number_of_holds,
                longest_hold_s, routing_profile, dialed_number, customer_number, store_id, attributes, raw,
                last_update_ts, source_partition, source_offset, versions_seen, agent_connection_attempts,
                transfer_completed_ts, transferred_to_endpoint, agent_hierarchy_level1, agent_hierarchy_level2,
                agent_hierarchy_level3, agent_hierarchy_level4, agent_hierarchy_level5, initiation_month)
            SELECT unnest(\(c.contactID)), unnest(\(c.initialContactID)), unnest(\(c.previousContactID)),
                unnest(\(c.nextContactID)), unnest(\(c.channel)), unnest(\(c.initiationMethod)),
                unnest(\(c.initiation)), unnest(\(c.connectedToSystem)), unnest(\(c.disconnect)),
                unnest(\(c.disconnectReason)), unnest(\(c.queueName)), unnest(\(c.queueARN)), unnest(\(c.enqueue)),
                unnest(\(c.dequeue)), unnest(\(c.queueDuration)), unnest(\(c.agentUsername)), unnest(\(c.agentARN)),
                unnest(\(c.connectedToAgent)), unnest(\(c.agentInteraction)), unnest(\(c.customerHold)),
                unnest(\(c.acwStart)), unnest(\(c.acwEnd)), unnest(\(c.acw)), unnest(\(c.numberOfHolds)),
                unnest(\(c.longestHold)), unnest(\(c.routingProfile)), unnest(\(c.dialedNumber)),
                unnest(\(c.customerNumber)), unnest(\(c.storeID)), unnest(\(c.attributes)), unnest(\(c.raw)),
                unnest(\(c.lastUpdate)), unnest(\(c.partition)), unnest(\(c.offset)), unnest(\(c.versionsSeen)),
                unnest(\(c.agentConnectionAttempts)), unnest(\(c.transferCompleted)),
                unnest(\(c.transferredToEndpoint)), unnest(\(c.hierarchyLevel1)), unnest(\(c.hierarchyLevel2)),
                unnest(\(c.hierarchyLevel3)), unnest(\(c.hierarchyLevel4)), unnest(\(c.hierarchyLevel5)),
                unnest(\(c.initiationMonth))
            ON CONFLICT (contact_id, initiation_month) DO UPDATE SET
                initial_contact_id = EXCLUDED.initial_contact_id, previous_contact_id = EXCLUDED.previous_contact_id,
                next_contact_id = EXCLUDED.next_contact_id, channel = EXCLUDED.channel,
                initiation_method = EXCLUDED.initiation_method, initiation_ts = EXCLUDED.initiation_ts,
                connected_to_system_ts = EXCLUDED.connected_to_system_ts, disconnect_ts = EXCLUDED.disconnect_ts,
                disconnect_reason = EXCLUDED.disconnect_reason, queue_name = EXCLUDED.queue_name,
                queue_arn = EXCLUDED.queue_arn, enqueue_ts = EXCLUDED.enqueue_ts, dequeue_ts = EXCLUDED.dequeue_ts,
                queue_duration_s = EXCLUDED.queue_duration_s, agent_username = EXCLUDED.agent_username,
                agent_arn = EXCLUDED.agent_arn, connected_to_agent_ts = EXCLUDED.connected_to_agent_ts,
                agent_interaction_s = EXCLUDED.agent_interaction_s, customer_hold_s = EXCLUDED.customer_hold_s,
                acw_start_ts = EXCLUDED.acw_start_ts, acw_end_ts = EXCLUDED.acw_end_ts, acw_s = EXCLUDED.acw_s,
                number_of_holds = EXCLUDED.number_of_holds, longest_hold_s = EXCLUDED.longest_hold_s,
                routing_profile = EXCLUDED.routing_profile, dialed_number = EXCLUDED.dialed_number,
                customer_number = EXCLUDED.customer_number, store_id = EXCLUDED.store_id,
                attributes = EXCLUDED.attributes, raw = EXCLUDED.raw, last_update_ts = EXCLUDED.last_update_ts,
                source_partition = EXCLUDED.source_partition, source_offset = EXCLUDED.source_offset,
                agent_connection_attempts = EXCLUDED.agent_connection_attempts,
                transfer_completed_ts = EXCLUDED.transfer_completed_ts,
                transferred_to_endpoint = EXCLUDED.transferred_to_endpoint,
                agent_hierarchy_level1 = EXCLUDED.agent_hierarchy_level1,
                agent_hierarchy_level2 = EXCLUDED.agent_hierarchy_level2,
                agent_hierarchy_level3 = EXCLUDED.agent_hierarchy_level3,
                agent_hierarchy_level4 = EXCLUDED.agent_hierarchy_level4,
                agent_hierarchy_level5 = EXCLUDED.agent_hierarchy_level5,
                versions_seen = contact_record.versions_seen + EXCLUDED.versions_seen, ingested_at = now()
            WHERE (EXCLUDED.last_update_ts, EXCLUDED.source_partition, EXCLUDED.source_offset)
                > (contact_record.last_update_ts, contact_record.source_partition, contact_record.source_offset)
            RETURNING contact_id, initial_contact_id, next_contact_id, initiation_method, initiation_ts, disconnect_ts,
                disconnect_reason, store_id, queue_arn, queue_name, enqueue_ts, dequeue_ts, queue_duration_s,
                connected_to_agent_ts, agent_interaction_s, customer_hold_s, acw_s, agent_connection_attempts,
                transfer_completed_ts
            ), stashed AS (
            INSERT INTO pg_temp.rollup_written_contact (
                contact_id, initial_contact_id, next_contact_id, initiation_method, initiation_ts, disconnect_ts,
                disconnect_reason, store_id, queue_arn, queue_name, enqueue_ts, dequeue_ts, queue_duration_s,
                connected_to_agent_ts, agent_interaction_s, customer_hold_s, acw_s, agent_connection_attempts,
                transfer_completed_ts)
            SELECT * FROM written
            )
            SELECT contact_id FROM written
            """
    }

    static func upsertContactRecords(
        _ batch: IngestBatch,
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> (written: Int, outdated: Int) {
        let records = batch.contactRecords
        guard !records.isEmpty else { return (0, 0) }
        var written: Set<String> = []
        for chunk in upsertChunks(records) {
            let rows = try await Transaction.statement(
                upsertQuery(chunk, copies: batch.contactRecordCopies), on: connection, logger: logger)
            for row in rows { written.insert(try row.decode(String.self)) }
        }
        if !written.isEmpty {
            // The rollups join the rows' transaction (`rollup_apply_written()`, docs/schema.sql): the
            // upsert stashed the written rows, so nothing is read back. Before the update of
            // versions_seen below, whose rows are not new versions.
            try await Transaction.statement("SELECT rollup_apply_written()", on: connection, logger: logger)
        }
        // Copies that lost to a newer stored copy still count as versions seen.
        var outdatedIDs = ArrayColumn<String>()
        var outdatedMonths = ArrayColumn<UTCTimestamp>()
        var outdatedCopies = ArrayColumn<Int32>()
        for index in records.indices where !written.contains(records[index].value.contactId) {
            let contactID = records[index].value.contactId
            outdatedIDs.append(contactID)
            outdatedMonths.append(records[index].value.partitionMonth)
            outdatedCopies.append(Int32(batch.contactRecordCopies[contactID] ?? 1))
        }
        if outdatedIDs.count > 0 {
            try await Transaction.statement(
                """
                UPDATE contact_record AS r SET versions_seen = r.versions_seen + v.copies
                FROM unnest(\(outdatedIDs), \(outdatedMonths), \(outdatedCopies)) AS v(contact_id, initiation_month, copies)
                WHERE r.contact_id = v.contact_id AND r.initiation_month = v.initiation_month
                """,
                on: connection,
                logger: logger
            )
        }
        return (written.count, outdatedIDs.count)
    }

    /// The most contact records one upsert statement binds. A transaction of more sends them in
    /// several statements, in ContactId order across all of them: a statement's binds are held
    /// twice while it is sent (its bind buffer and postgres-nio's copy into the Bind message), so
    /// a transaction's records in one statement would hold twice what two statements hold, while
    /// a statement's own cost in PostgreSQL is small beside its rows'.
    static let upsertStatementRecords = 2_000

    /// `records` in statements of at most ``upsertStatementRecords``, sorted by ContactId across
    /// the statements (each statement sorts its own rows again): concurrent lanes then lock
    /// shared contacts in one order whatever the split, and cannot deadlock.
    static func upsertChunks(
        _ records: [IngestBatch.Sourced<ContactTraceRecord>]
    ) -> [[IngestBatch.Sourced<ContactTraceRecord>]] {
        guard records.count > upsertStatementRecords else { return [records] }
        let order = records.withUnsafeBufferPointer { ContactRecordColumns.contactIDOrder($0) }
        return stride(from: 0, to: order.count, by: upsertStatementRecords).map { start in
            order[start..<min(start + upsertStatementRecords, order.count)].map { records[$0] }
        }
    }

    static func insertAgentEvents(
        _ events: [IngestBatch.Sourced<AgentEvent>],
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> Int {
        guard !events.isEmpty else { return 0 }
        var eventID = ArrayColumn<String>(capacity: events.count)
        var agentARN = ArrayColumn<String>(capacity: events.count)
        var eventType = ArrayColumn<String>(capacity: events.count)
        var eventTime = ArrayColumn<UTCTimestamp>(capacity: events.count)
        var username = ArrayColumn<String>(capacity: events.count)
        var statusName = ArrayColumn<String>(capacity: events.count)
        var statusType = ArrayColumn<String>(capacity: events.count)
        var statusStart = ArrayColumn<UTCTimestamp>(capacity: events.count)
        var activity = ArrayColumn<String>(capacity: events.count)
        var contactCount = ArrayColumn<Int32>(capacity: events.count)
        var routingProfile = ArrayColumn<String>(capacity: events.count)
        var contactState = ArrayColumn<String>(capacity: events.count)
        var raw = ArrayColumn<JSONBValue>(capacity: events.count)
        var partition = ArrayColumn<Int32>(capacity: events.count)
        var offset = ArrayColumn<Int64>(capacity: events.count)
        for sourced in events {
            let event = sourced.value
            let snapshot = event.currentSnapshot
            eventID.append(event.eventId)
            agentARN.append(event.agentArn)
            eventType.append(event.eventType.rawValue)
            eventTime.append(event.eventTimestamp)
            username.append(snapshot?.configuration?.username)
            statusName.append(snapshot?.status?.name)
            statusType.append(snapshot?.status?.type.rawValue)
            statusStart.append(snapshot?.status?.startTimestamp)
            let activityValue: AgentActivity =
                event.eventType == .logout
                ? .offline : AgentActivity(status: snapshot?.status?.type, contacts: snapshot?.contacts ?? [])
            activity.append(activityValue.rawValue)
            contactCount.append(Int32(snapshot?.contacts.count ?? 0))
            routingProfile.append(snapshot?.configuration?.routingProfile?.name)
            contactState.append(
                event.eventType == .logout ? nil : AgentContactState.deciding(snapshot?.contacts ?? [])?.rawValue)
            raw.append(JSONBValue(bytes: event.rawJSON ?? event.jsonData()))
            partition.append(sourced.partition)
            offset.append(sourced.offset)
        }
        // Per agent, the first and last time of the events inserted (duplicates are not).
        let inserted = try await Transaction.statement(
            """
            WITH inserted AS (
                INSERT INTO agent_event (event_id, agent_arn, event_type, event_ts, username, status_name, status_type,
                    status_start_ts, activity, contact_count, routing_profile, raw, source_partition, source_offset,
                    contact_state)
                SELECT unnest(\(eventID)), unnest(\(agentARN)), unnest(\(eventType)), unnest(\(eventTime)),
                    unnest(\(username)), unnest(\(statusName)), unnest(\(statusType)), unnest(\(statusStart)),
                    unnest(\(activity)), unnest(\(contactCount)), unnest(\(routingProfile)), unnest(\(raw)),
                    unnest(\(partition)), unnest(\(offset)), unnest(\(contactState))
                ON CONFLICT (event_id, event_ts) DO NOTHING
                RETURNING agent_arn, event_ts
            )
            SELECT agent_arn, min(event_ts), max(event_ts), count(*) FROM inserted GROUP BY agent_arn
            """,
            on: connection,
            logger: logger
        )
        var agents: [String] = []
        var first: [Date] = []
        var last: [Date] = []
        var count = 0
        for row in inserted {
            let (agent, from, to, events) = try row.decode((String, Date, Date, Int).self)
            agents.append(agent)
            first.append(from)
            last.append(to)
            count += events
        }
        if !agents.isEmpty {
            try await Transaction.statement(
                "SELECT rollup_apply_agents(\(agents), \(first), \(last)), agent_latest_apply(\(agents), \(last))",
                on: connection, logger: logger)
        }
        return count
    }

    static func insertContactEvents(
        _ events: [IngestBatch.Sourced<ContactEvent>],
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> Int {
        guard !events.isEmpty else { return 0 }
        var eventID = ArrayColumn<String>(capacity: events.count)
        var contactID = ArrayColumn<String>(capacity: events.count)
        var eventType = ArrayColumn<String>(capacity: events.count)
        var eventTime = ArrayColumn<UTCTimestamp>(capacity: events.count)
        var channel = ArrayColumn<String>(capacity: events.count)
        var initiationMethod = ArrayColumn<String>(capacity: events.count)
        var queueARN = ArrayColumn<String>(capacity: events.count)
        var agentARN = ArrayColumn<String>(capacity: events.count)
        var raw = ArrayColumn<JSONBValue>(capacity: events.count)
        var partition = ArrayColumn<Int32>(capacity: events.count)
        var offset = ArrayColumn<Int64>(capacity: events.count)
        for sourced in events {
            let event = sourced.value
            eventID.append(event.id)
            contactID.append(event.contactId)
            eventType.append(event.eventType.rawValue)
            eventTime.append(event.time)
            channel.append(event.channel?.rawValue)
            initiationMethod.append(event.initiationMethod)
            queueARN.append(event.queueInfo?.queueArn)
            agentARN.append(event.agentInfo?.agentArn)
            raw.append(JSONBValue(bytes: event.rawJSON ?? event.jsonData()))
            partition.append(sourced.partition)
            offset.append(sourced.offset)
        }
        return try await Transaction.statement(
            """
            INSERT INTO contact_event (event_id, contact_id, event_type, event_ts, channel, initiation_method,
                queue_arn, agent_arn, raw, source_partition, source_offset)
            SELECT unnest(\(eventID)), unnest(\(contactID)), unnest(\(eventType)), unnest(\(eventTime)),
                unnest(\(channel)), unnest(\(initiationMethod)), unnest(\(queueARN)), unnest(\(agentARN)),
                unnest(\(raw)), unnest(\(partition)), unnest(\(offset))
            ON CONFLICT (event_id, event_ts) DO NOTHING
            RETURNING 1
            """,
            on: connection,
            logger: logger
        ).count
    }

    static func insertDeadLetters(
        _ letters: [DeadLetter],
        on connection: PostgresConnection,
        logger: Logger
    ) async throws -> Int {
        guard !letters.isEmpty else { return 0 }
        var topic = ArrayColumn<String>()
        var partition = ArrayColumn<Int32>()
        var offset = ArrayColumn<Int64>()
        var key = ArrayColumn<ByteaValue>()
        var value = ArrayColumn<ByteaValue>()
        var error = ArrayColumn<String>()
        for letter in letters {
            topic.append(letter.topic)
            partition.append(letter.partition)
            offset.append(letter.offset)
            key.append(letter.key.map(ByteaValue.init))
            value.append(letter.value.map(ByteaValue.init))
            error.append(letter.reason.description)
        }
        return try await Transaction.statement(
            """
            INSERT INTO dead_letter (topic, partition, "offset", key, value, error)
            SELECT * FROM unnest(\(topic), \(partition), \(offset), \(key), \(value), \(error))
            ON CONFLICT (topic, partition, "offset") DO NOTHING
            RETURNING 1
            """,
            on: connection,
            logger: logger
        ).count
    }
}
