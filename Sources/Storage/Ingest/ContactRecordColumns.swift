import ContactCenter
import Foundation
import Primitives

/// The columns of a contact record batch, sent as binary array binds, in ContactId order.
///
/// Every column but `raw` is gathered in one pass over the rows (``ArrayColumn``): each row's
/// `Queue` and `Agent` are read once for all their columns. Read column by column, every access
/// through an optional segment (`agent?.username`) would copy the segment, retaining and
/// releasing its dozen strings, 16 times per row for `Agent` alone. `raw` (2–4 KB per CTR) is written
/// straight from the rows into its bind (``RowColumn``): gathered first, it would be copied twice.
///
/// Not public API: in the `Bench` SPI, for `switchboard-bench bench-ingest`, whose reference load
/// writes the same values as COPY text (`ContactRecordColumns+CopyText.swift` there) with
/// ``json(_:)``'s attributes. The columns stay here, beside the upsert that binds them; the SPI
/// lets the benchmark extend them without making them part of Storage's API.
@_spi(Bench)
public struct ContactRecordColumns: Sendable {
    typealias Row = IngestBatch.Sourced<ContactTraceRecord>

    var contactID: ArrayColumn<String>
    var initialContactID: ArrayColumn<String>
    var previousContactID: ArrayColumn<String>
    var nextContactID: ArrayColumn<String>
    var channel: ArrayColumn<String>
    var initiationMethod: ArrayColumn<String>
    var initiation: ArrayColumn<UTCTimestamp>
    var initiationMonth: ArrayColumn<UTCTimestamp>
    var connectedToSystem: ArrayColumn<UTCTimestamp>
    var disconnect: ArrayColumn<UTCTimestamp>
    var disconnectReason: ArrayColumn<String>
    var queueName: ArrayColumn<String>
    var queueARN: ArrayColumn<String>
    var enqueue: ArrayColumn<UTCTimestamp>
    var dequeue: ArrayColumn<UTCTimestamp>
    var queueDuration: ArrayColumn<Int32>
    var agentUsername: ArrayColumn<String>
    var agentARN: ArrayColumn<String>
    var connectedToAgent: ArrayColumn<UTCTimestamp>
    var agentInteraction: ArrayColumn<Int32>
    var customerHold: ArrayColumn<Int32>
    var acwStart: ArrayColumn<UTCTimestamp>
    var acwEnd: ArrayColumn<UTCTimestamp>
    var acw: ArrayColumn<Int32>
    var numberOfHolds: ArrayColumn<Int32>
    var longestHold: ArrayColumn<Int32>
    var routingProfile: ArrayColumn<String>
    var dialedNumber: ArrayColumn<String>
    var customerNumber: ArrayColumn<String>
    var storeID: ArrayColumn<String>
    var attributes: ArrayColumn<JSONBValue>
    let raw: RowColumn<Row, JSONBValue>
    var lastUpdate: ArrayColumn<UTCTimestamp>
    var partition: ArrayColumn<Int32>
    var offset: ArrayColumn<Int64>
    var versionsSeen: ArrayColumn<Int32>
    var agentConnectionAttempts: ArrayColumn<Int32>
    var transferCompleted: ArrayColumn<UTCTimestamp>
    var transferredToEndpoint: ArrayColumn<String>
    var hierarchyLevel1: ArrayColumn<String>
    var hierarchyLevel2: ArrayColumn<String>
    var hierarchyLevel3: ArrayColumn<String>
    var hierarchyLevel4: ArrayColumn<String>
    var hierarchyLevel5: ArrayColumn<String>

    /// Gathers the columns of `rows`; `copies` holds how many copies of each contact the batch
    /// held (`versions_seen`).
    init(_ rows: [Row], copies: [String: Int]) {
        // The rows in ContactId order: concurrent lanes that hold the same contacts (an import's
        // files, a re-partitioned topic) lock their rows in the same order and cannot deadlock.
        let order = rows.withUnsafeBufferPointer { Self.contactIDOrder($0) }
        let count = rows.count
        func strings() -> ArrayColumn<String> { ArrayColumn(capacity: count) }
        func times() -> ArrayColumn<UTCTimestamp> { ArrayColumn(capacity: count) }
        func numbers() -> ArrayColumn<Int32> { ArrayColumn(capacity: count) }
        (contactID, initialContactID, previousContactID, nextContactID) = (strings(), strings(), strings(), strings())
        (channel, initiationMethod, disconnectReason) = (strings(), strings(), strings())
        (initiation, initiationMonth, connectedToSystem, disconnect) = (times(), times(), times(), times())
        (queueName, queueARN, enqueue, dequeue, queueDuration) = (strings(), strings(), times(), times(), numbers())
        (agentUsername, agentARN, connectedToAgent) = (strings(), strings(), times())
        (agentInteraction, customerHold, acw, numberOfHolds, longestHold) = (
            numbers(), numbers(), numbers(), numbers(), numbers()
        )
        (acwStart, acwEnd, routingProfile) = (times(), times(), strings())
        (dialedNumber, customerNumber, storeID, transferredToEndpoint) = (strings(), strings(), strings(), strings())
        attributes = ArrayColumn(capacity: count, typicalSize: 256)
        raw = RowColumn(rows: rows, order: order) {
            JSONBValue(bytes: $0.pointee.value.rawJSON ?? $0.pointee.value.jsonData())
        }
        (lastUpdate, transferCompleted) = (times(), times())
        (partition, offset, versionsSeen, agentConnectionAttempts) = (
            numbers(), ArrayColumn(capacity: count), numbers(), numbers()
        )
        (hierarchyLevel1, hierarchyLevel2, hierarchyLevel3, hierarchyLevel4, hierarchyLevel5) = (
            strings(), strings(), strings(), strings(), strings()
        )
        rows.withUnsafeBufferPointer { rows in
            guard let base = rows.baseAddress else { return }
            for index in order { append(base + index, copies: copies) }
        }
        contactID.reservesForStatement = encodedByteCount(rows)
    }

    /// The bytes of the upsert's binds: every column's, `raw`'s counted from the rows (each its
    /// length, the version byte and the JSON).
    private func encodedByteCount(_ rows: [Row]) -> Int {
        var raw = 4 + 20
        for row in rows { raw += 4 + 1 + (row.value.rawJSON?.count ?? Self.typicalRawBytes) }
        let columns = [
            contactID, initialContactID, previousContactID, nextContactID, channel, initiationMethod,
            disconnectReason, queueName, queueARN, agentUsername, agentARN, routingProfile, dialedNumber,
            customerNumber, storeID, transferredToEndpoint, hierarchyLevel1, hierarchyLevel2, hierarchyLevel3,
            hierarchyLevel4, hierarchyLevel5,
        ].reduce(0) { $0 + $1.encodedByteCount }
        let times = [
            initiation, initiationMonth, connectedToSystem, disconnect, enqueue, dequeue, connectedToAgent, acwStart,
            acwEnd, lastUpdate, transferCompleted,
        ].reduce(0) { $0 + $1.encodedByteCount }
        let numbers = [
            queueDuration, agentInteraction, customerHold, acw, numberOfHolds, longestHold, partition, versionsSeen,
            agentConnectionAttempts,
        ].reduce(0) { $0 + $1.encodedByteCount }
        return raw + columns + times + numbers + offset.encodedByteCount + attributes.encodedByteCount
    }

    /// What ``encodedByteCount(_:)`` counts for a row without its raw JSON at hand (built, not
    /// decoded: it is encoded when written).
    private static let typicalRawBytes = 2_800

    /// The indices of `rows` in the order of their ContactIds' UTF-8 bytes (``bytesPrecede(_:_:)``).
    ///
    /// Sorted by each id's first 16 bytes as two big-endian integers, read once per row; only ids
    /// whose first 16 bytes are equal (not UUIDs) are compared whole. The indices are sorted, not
    /// the rows (a row is a large value to move), and the comparisons touch no string: comparing
    /// strings retains and releases both, and a sort of 2,000 rows compares ~20,000 times.
    static func contactIDOrder(_ rows: UnsafeBufferPointer<Row>) -> [Int] {
        struct Key {
            var high: UInt64
            var low: UInt64
            var index: Int
        }
        var keys: [Key] = []
        keys.reserveCapacity(rows.count)
        for index in rows.indices {
            var id = rows[index].value.contactId
            let (high, low) = id.withUTF8(Self.prefixKey)
            keys.append(Key(high: high, low: low, index: index))
        }
        keys.sort { a, b in
            if a.high != b.high { return a.high < b.high }
            if a.low != b.low { return a.low < b.low }
            return bytesPrecede(rows[a.index].value.contactId, rows[b.index].value.contactId)
        }
        return keys.map(\.index)
    }

    /// The first 16 bytes of `bytes` as two big-endian integers, zeros past its end. Keys that
    /// differ order their ids as `memcmp` does: the bytes before the first difference are equal,
    /// and where a zero past a shorter id's end meets a longer id's byte, the shorter id is a
    /// prefix of the longer and sorts first. Equal keys are decided on the whole ids.
    static func prefixKey(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var (high, low): (UInt64, UInt64) = (0, 0)
        for position in 0..<16 {
            let byte = position < bytes.count ? UInt64(bytes[position]) : 0
            if position < 8 { high = high << 8 | byte } else { low = low << 8 | byte }
        }
        return (high, low)
    }

    /// Whether `a`'s UTF-8 bytes sort before `b`'s (`memcmp` order, as PostgreSQL's `C` collation).
    static func bytesPrecede(_ a: String, _ b: String) -> Bool {
        var (a, b) = (a, b)
        return a.withUTF8 { a in
            b.withUTF8 { b in
                let common = min(a.count, b.count)
                let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
                return order != 0 ? order < 0 : a.count < b.count
            }
        }
    }

    /// Appends the row's value to every column but `raw`, reading each segment of the record once.
    private mutating func append(_ row: UnsafePointer<Row>, copies: [String: Int]) {
        func seconds(_ value: Int?) -> Int32? { value.map(Int32.init(clamping:)) }
        let record = row.pointee.value
        contactID.append(record.contactId)
        initialContactID.append(record.initialContactId)
        previousContactID.append(record.previousContactId)
        nextContactID.append(record.nextContactId)
        channel.append(record.channel?.rawValue)
        initiationMethod.append(record.initiationMethod)
        initiation.append(record.initiationTimestamp)
        initiationMonth.append(
            ContactTraceRecord.partitionMonth(
                initiation: record.initiationTimestamp, lastUpdate: record.lastUpdateTimestamp))
        connectedToSystem.append(record.connectedToSystemTimestamp)
        disconnect.append(record.disconnectTimestamp)
        disconnectReason.append(record.disconnectReason)
        let queue = record.queue
        queueName.append(queue?.name)
        queueARN.append(queue?.arn)
        enqueue.append(queue?.enqueueTimestamp)
        dequeue.append(queue?.dequeueTimestamp)
        queueDuration.append(seconds(queue?.duration))
        let agent = record.agent
        agentUsername.append(agent?.username)
        agentARN.append(agent?.arn)
        connectedToAgent.append(agent?.connectedToAgentTimestamp)
        agentInteraction.append(seconds(agent?.agentInteractionDuration))
        customerHold.append(seconds(agent?.customerHoldDuration))
        acwStart.append(agent?.afterContactWorkStartTimestamp)
        acwEnd.append(agent?.afterContactWorkEndTimestamp)
        acw.append(seconds(agent?.afterContactWorkDuration))
        numberOfHolds.append(seconds(agent?.numberOfHolds))
        longestHold.append(seconds(agent?.longestHoldDuration))
        routingProfile.append(agent?.routingProfile?.name)
        let groups = agent?.hierarchyGroups
        hierarchyLevel1.append(groups?.level1?.name)
        hierarchyLevel2.append(groups?.level2?.name)
        hierarchyLevel3.append(groups?.level3?.name)
        hierarchyLevel4.append(groups?.level4?.name)
        hierarchyLevel5.append(groups?.level5?.name)
        dialedNumber.append(record.systemEndpoint?.address)
        customerNumber.append(record.customerEndpoint?.address)
        storeID.append(ContactTraceRecord.storeId(in: record.attributes))
        attributes.appendWritten { bytes in
            bytes.append(1)  // jsonb's binary format: a version, then the text
            Self.appendJSON(record.attributes, to: &bytes)
        }
        lastUpdate.append(record.lastUpdateTimestamp)
        partition.append(row.pointee.partition)
        offset.append(row.pointee.offset)
        versionsSeen.append(Int32(clamping: copies[record.contactId] ?? 1))
        agentConnectionAttempts.append(seconds(record.agentConnectionAttempts))
        transferCompleted.append(record.transferCompletedTimestamp)
        transferredToEndpoint.append(record.transferredToEndpoint?.address)
    }

    /// A string map as a JSON object, written by hand: faster than a general encoder per row.
    /// Members in the order `jsonb` stores them (shorter keys first, then by their bytes), which
    /// spares PostgreSQL the sort (``RawJSONForm/jsonbOrder``).
    @_spi(Bench)
    public static func json(_ attributes: [String: String]) -> Data {
        var output = [UInt8]()
        output.reserveCapacity(attributes.count * 32 + 2)
        appendJSON(attributes, to: &output)
        return Data(output)
    }

    /// Appends ``json(_:)``'s JSON of `attributes` to `output`.
    static func appendJSON(_ attributes: [String: String], to output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        var first = true
        let members = attributes.sorted { a, b in
            let (left, right) = (a.key.utf8.count, b.key.utf8.count)
            return left != right ? left < right : a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
        }
        for (key, value) in members {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            JSONWriter.appendQuoted(key, to: &output)
            output.append(UInt8(ascii: ":"))
            JSONWriter.appendQuoted(value, to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }
}

extension ContactTraceRecord {
    /// The month of `contact_record`'s partition (`initiation_month`): the UTC month of
    /// `InitiationTimestamp`, or of `LastUpdateTimestamp` for a record without it. Every version
    /// of a contact carries the same initiation, so they share the row.
    public var partitionMonth: UTCTimestamp {
        Self.partitionMonth(initiation: initiationTimestamp, lastUpdate: lastUpdateTimestamp)
    }

    /// ``partitionMonth`` of a record with these timestamps.
    static func partitionMonth(initiation: UTCTimestamp?, lastUpdate: UTCTimestamp) -> UTCTimestamp {
        (initiation ?? lastUpdate).monthStart
    }
}
