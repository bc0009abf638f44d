import ContactCenter
import Foundation

/// The columns of a contact record batch, sent as binary array binds: each column is written
/// from the rows straight into the bind (``RowColumn``), in ContactId order.
public struct ContactRecordColumns: Sendable {
    typealias Row = IngestBatch.Sourced<ContactTraceRecord>
    typealias Column<Element: ArrayColumnElement> = RowColumn<Row, Element>

    let rows: [Row]
    /// The rows' indices in ContactId order: concurrent lanes that hold the same contacts (an
    /// import's files, a re-partitioned topic) lock their rows in the same order and cannot
    /// deadlock. (The indices are sorted, not the rows: a row is a large value to move.)
    let order: [Int]
    /// How many copies of each contact the batch held (`versions_seen`).
    let copies: [String: Int]

    init(_ rows: [Row], copies: [String: Int]) {
        self.rows = rows
        self.copies = copies
        order = rows.withUnsafeBufferPointer { rows in
            guard let base = rows.baseAddress else { return [] }
            return rows.indices.sorted {
                (base + $0).pointee.value.contactId.utf8.lexicographicallyPrecedes(
                    (base + $1).pointee.value.contactId.utf8)
            }
        }
    }

    private func column<Element>(_ value: @escaping @Sendable (UnsafePointer<Row>) -> Element?) -> Column<Element> {
        Column(rows: rows, order: order, value: value)
    }

    var contactID: Column<String> { column { $0.pointee.value.contactId } }
    var initialContactID: Column<String> { column { $0.pointee.value.initialContactId } }
    var previousContactID: Column<String> { column { $0.pointee.value.previousContactId } }
    var nextContactID: Column<String> { column { $0.pointee.value.nextContactId } }
    var channel: Column<String> { column { $0.pointee.value.channel?.rawValue } }
    var initiationMethod: Column<String> { column { $0.pointee.value.initiationMethod } }
    var initiation: Column<UTCTimestamp> { column { $0.pointee.value.initiationTimestamp } }
    var initiationMonth: Column<UTCTimestamp> {
        // From the stored properties: a computed property of the pointee copies the whole record.
        column {
            ContactTraceRecord.partitionMonth(
                initiation: $0.pointee.value.initiationTimestamp, lastUpdate: $0.pointee.value.lastUpdateTimestamp)
        }
    }
    var connectedToSystem: Column<UTCTimestamp> { column { $0.pointee.value.connectedToSystemTimestamp } }
    var disconnect: Column<UTCTimestamp> { column { $0.pointee.value.disconnectTimestamp } }
    var disconnectReason: Column<String> { column { $0.pointee.value.disconnectReason } }
    var queueName: Column<String> { column { $0.pointee.value.queue?.name } }
    var queueARN: Column<String> { column { $0.pointee.value.queue?.arn } }
    var enqueue: Column<UTCTimestamp> { column { $0.pointee.value.queue?.enqueueTimestamp } }
    var dequeue: Column<UTCTimestamp> { column { $0.pointee.value.queue?.dequeueTimestamp } }
    var queueDuration: Column<Int32> { column { $0.pointee.value.queue?.duration.map(Int32.init(clamping:)) } }
    var agentUsername: Column<String> { column { $0.pointee.value.agent?.username } }
    var agentARN: Column<String> { column { $0.pointee.value.agent?.arn } }
    var connectedToAgent: Column<UTCTimestamp> { column { $0.pointee.value.agent?.connectedToAgentTimestamp } }
    var agentInteraction: Column<Int32> {
        column { $0.pointee.value.agent?.agentInteractionDuration.map(Int32.init(clamping:)) }
    }
    var customerHold: Column<Int32> {
        column { $0.pointee.value.agent?.customerHoldDuration.map(Int32.init(clamping:)) }
    }
    var acwStart: Column<UTCTimestamp> { column { $0.pointee.value.agent?.afterContactWorkStartTimestamp } }
    var acwEnd: Column<UTCTimestamp> { column { $0.pointee.value.agent?.afterContactWorkEndTimestamp } }
    var acw: Column<Int32> { column { $0.pointee.value.agent?.afterContactWorkDuration.map(Int32.init(clamping:)) } }
    var numberOfHolds: Column<Int32> { column { $0.pointee.value.agent?.numberOfHolds.map(Int32.init(clamping:)) } }
    var longestHold: Column<Int32> { column { $0.pointee.value.agent?.longestHoldDuration.map(Int32.init(clamping:)) } }
    var routingProfile: Column<String> { column { $0.pointee.value.agent?.routingProfile?.name } }
    var dialedNumber: Column<String> { column { $0.pointee.value.systemEndpoint?.address } }
    var customerNumber: Column<String> { column { $0.pointee.value.customerEndpoint?.address } }
    var storeID: Column<String> { column { ContactTraceRecord.storeId(in: $0.pointee.value.attributes) } }
    var attributes: Column<JSONBValue> { column { JSONBValue(bytes: Self.json($0.pointee.value.attributes)) } }
    var raw: Column<JSONBValue> {
        column { JSONBValue(bytes: $0.pointee.value.rawJSON ?? $0.pointee.value.jsonData()) }
    }
    var lastUpdate: Column<UTCTimestamp> { column { $0.pointee.value.lastUpdateTimestamp } }
    var partition: Column<Int32> { column { $0.pointee.partition } }
    var offset: Column<Int64> { column { $0.pointee.offset } }
    var versionsSeen: Column<Int32> {
        let copies = copies
        return column { Int32(clamping: copies[$0.pointee.value.contactId] ?? 1) }
    }
    var agentConnectionAttempts: Column<Int32> {
        column { $0.pointee.value.agentConnectionAttempts.map(Int32.init(clamping:)) }
    }
    var transferCompleted: Column<UTCTimestamp> { column { $0.pointee.value.transferCompletedTimestamp } }
    var transferredToEndpoint: Column<String> { column { $0.pointee.value.transferredToEndpoint?.address } }
    var hierarchyLevel1: Column<String> { column { $0.pointee.value.agent?.hierarchyGroups?.level1?.name } }
    var hierarchyLevel2: Column<String> { column { $0.pointee.value.agent?.hierarchyGroups?.level2?.name } }
    var hierarchyLevel3: Column<String> { column { $0.pointee.value.agent?.hierarchyGroups?.level3?.name } }
    var hierarchyLevel4: Column<String> { column { $0.pointee.value.agent?.hierarchyGroups?.level4?.name } }
    var hierarchyLevel5: Column<String> { column { $0.pointee.value.agent?.hierarchyGroups?.level5?.name } }

    /// A string map as a JSON object, written by hand: faster than a general encoder per row.
    /// Members in the order `jsonb` stores them (shorter keys first, then by their bytes), which
    /// spares PostgreSQL the sort (``RawJSONForm/jsonbOrder``).
    static func json(_ attributes: [String: String]) -> Data {
        var output = [UInt8]()
        output.reserveCapacity(attributes.count * 32 + 2)
        output.append(UInt8(ascii: "{"))
        var first = true
        let members = attributes.sorted { a, b in
            let (left, right) = (a.key.utf8.count, b.key.utf8.count)
            return left != right ? left < right : a.key.utf8.lexicographicallyPrecedes(b.key.utf8)
        }
        for (key, value) in members {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            appendString(key, to: &output)
            output.append(UInt8(ascii: ":"))
            appendString(value, to: &output)
        }
        output.append(UInt8(ascii: "}"))
        return Data(output)
    }

    private static func appendString(_ string: String, to output: inout [UInt8]) {
        let hex: StaticString = "0123456789abcdef"
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x00..<0x20:
                output += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
                output.append(hex.utf8Start[Int(byte >> 4)])
                output.append(hex.utf8Start[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension ContactRecordColumns {
    /// The `contact_record` columns written by the ingest, in the order of the upsert's binds.
    public static let columnNames = [
        "contact_id", "initial_contact_id", "previous_contact_id", "next_contact_id", "channel", "initiation_method",
        "initiation_ts", "connected_to_system_ts", "disconnect_ts", "disconnect_reason", "queue_name", "queue_arn",
        "enqueue_ts", "dequeue_ts", "queue_duration_s", "agent_username", "agent_arn", "connected_to_agent_ts",
        "agent_interaction_s", "customer_hold_s", "acw_start_ts", "acw_end_ts", "acw_s", "number_of_holds",
        "longest_hold_s", "routing_profile", "dialed_number", "customer_number", "store_id", "attributes", "raw",
        "last_update_ts", "source_partition", "source_offset", "versions_seen", "agent_connection_attempts",
        "transfer_completed_ts", "transferred_to_endpoint", "agent_hierarchy_level1", "agent_hierarchy_level2",
        "agent_hierarchy_level3", "agent_hierarchy_level4", "agent_hierarchy_level5", "initiation_month",
    ]

    /// One row in PostgreSQL's COPY text format (tab-separated, `\N` for NULL), with the same
    /// values the ingest binds: the reference of `switchboard bench-ingest`.
    public static func copyTextLine(_ record: ContactTraceRecord, partition: Int32, offset: Int64) -> String {
        func text(_ value: String?) -> String {
            guard let value else { return "\\N" }
            var escaped = ""
            escaped.reserveCapacity(value.utf8.count)
            for character in value.unicodeScalars {
                switch character {
                case "\\": escaped += "\\\\"
                case "\t": escaped += "\\t"
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                default: escaped.unicodeScalars.append(character)
                }
            }
            return escaped
        }
        func time(_ value: UTCTimestamp?) -> String { value.map { $0.iso8601Milliseconds } ?? "\\N" }
        func number(_ value: Int?) -> String { value.map(String.init) ?? "\\N" }
        let queue = record.queue
        let agent = record.agent
        let fields: [String] = [
            text(record.contactId), text(record.initialContactId), text(record.previousContactId),
            text(record.nextContactId), text(record.channel?.rawValue), text(record.initiationMethod),
            time(record.initiationTimestamp), time(record.connectedToSystemTimestamp), time(record.disconnectTimestamp),
            text(record.disconnectReason), text(queue?.name), text(queue?.arn), time(queue?.enqueueTimestamp),
            time(queue?.dequeueTimestamp), number(queue?.duration), text(agent?.username), text(agent?.arn),
            time(agent?.connectedToAgentTimestamp), number(agent?.agentInteractionDuration),
            number(agent?.customerHoldDuration), time(agent?.afterContactWorkStartTimestamp),
            time(agent?.afterContactWorkEndTimestamp), number(agent?.afterContactWorkDuration),
            number(agent?.numberOfHolds), number(agent?.longestHoldDuration), text(agent?.routingProfile?.name),
            text(record.systemEndpoint?.address), text(record.customerEndpoint?.address), text(record.storeId),
            text(String(decoding: json(record.attributes), as: UTF8.self)),
            text(String(decoding: record.rawJSON ?? record.jsonData(), as: UTF8.self)),
            time(record.lastUpdateTimestamp), String(partition), String(offset), "1",
            number(record.agentConnectionAttempts), time(record.transferCompletedTimestamp),
            text(record.transferredToEndpoint?.address), text(agent?.hierarchyGroups?.level1?.name),
            text(agent?.hierarchyGroups?.level2?.name), text(agent?.hierarchyGroups?.level3?.name),
            text(agent?.hierarchyGroups?.level4?.name), text(agent?.hierarchyGroups?.level5?.name),
            time(record.partitionMonth),
        ]
        return fields.joined(separator: "\t")
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
