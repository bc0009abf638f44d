import ContactCenter
import Foundation

/// The columns of a contact record batch, built in one pass and sent as binary array binds.
public struct ContactRecordColumns: Sendable {
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
    var raw: ArrayColumn<JSONBValue>
    var lastUpdate: ArrayColumn<UTCTimestamp>
    var partition: ArrayColumn<Int32>
    var offset: ArrayColumn<Int64>
    var copies: ArrayColumn<Int32>
    var agentConnectionAttempts: ArrayColumn<Int32>
    var transferCompleted: ArrayColumn<UTCTimestamp>
    var transferredToEndpoint: ArrayColumn<String>
    var hierarchyLevel1: ArrayColumn<String>
    var hierarchyLevel2: ArrayColumn<String>
    var hierarchyLevel3: ArrayColumn<String>
    var hierarchyLevel4: ArrayColumn<String>
    var hierarchyLevel5: ArrayColumn<String>

    init(capacity: Int) {
        contactID = .init(capacity: capacity)
        initialContactID = .init(capacity: capacity)
        previousContactID = .init(capacity: capacity)
        nextContactID = .init(capacity: capacity)
        channel = .init(capacity: capacity)
        initiationMethod = .init(capacity: capacity)
        initiation = .init(capacity: capacity)
        initiationMonth = .init(capacity: capacity)
        connectedToSystem = .init(capacity: capacity)
        disconnect = .init(capacity: capacity)
        disconnectReason = .init(capacity: capacity)
        queueName = .init(capacity: capacity)
        queueARN = .init(capacity: capacity)
        enqueue = .init(capacity: capacity)
        dequeue = .init(capacity: capacity)
        queueDuration = .init(capacity: capacity)
        agentUsername = .init(capacity: capacity)
        agentARN = .init(capacity: capacity)
        connectedToAgent = .init(capacity: capacity)
        agentInteraction = .init(capacity: capacity)
        customerHold = .init(capacity: capacity)
        acwStart = .init(capacity: capacity)
        acwEnd = .init(capacity: capacity)
        acw = .init(capacity: capacity)
        numberOfHolds = .init(capacity: capacity)
        longestHold = .init(capacity: capacity)
        routingProfile = .init(capacity: capacity)
        dialedNumber = .init(capacity: capacity)
        customerNumber = .init(capacity: capacity)
        storeID = .init(capacity: capacity)
        attributes = .init(capacity: capacity)
        raw = .init(capacity: capacity)
        lastUpdate = .init(capacity: capacity)
        partition = .init(capacity: capacity)
        offset = .init(capacity: capacity)
        copies = .init(capacity: capacity)
        agentConnectionAttempts = .init(capacity: capacity)
        transferCompleted = .init(capacity: capacity)
        transferredToEndpoint = .init(capacity: capacity)
        hierarchyLevel1 = .init(capacity: capacity)
        hierarchyLevel2 = .init(capacity: capacity)
        hierarchyLevel3 = .init(capacity: capacity)
        hierarchyLevel4 = .init(capacity: capacity)
        hierarchyLevel5 = .init(capacity: capacity)
    }

    mutating func append(_ sourced: IngestBatch.Sourced<ContactTraceRecord>, copies count: Int) {
        let record = sourced.value
        contactID.append(record.contactId)
        initialContactID.append(record.initialContactId)
        previousContactID.append(record.previousContactId)
        nextContactID.append(record.nextContactId)
        channel.append(record.channel?.rawValue)
        initiationMethod.append(record.initiationMethod)
        initiation.append(record.initiationTimestamp)
        initiationMonth.append(record.partitionMonth)
        connectedToSystem.append(record.connectedToSystemTimestamp)
        disconnect.append(record.disconnectTimestamp)
        disconnectReason.append(record.disconnectReason)
        queueName.append(record.queue?.name)
        queueARN.append(record.queue?.arn)
        enqueue.append(record.queue?.enqueueTimestamp)
        dequeue.append(record.queue?.dequeueTimestamp)
        queueDuration.append(record.queue?.duration.map(Int32.init(clamping:)))
        agentUsername.append(record.agent?.username)
        agentARN.append(record.agent?.arn)
        connectedToAgent.append(record.agent?.connectedToAgentTimestamp)
        agentInteraction.append(record.agent?.agentInteractionDuration.map(Int32.init(clamping:)))
        customerHold.append(record.agent?.customerHoldDuration.map(Int32.init(clamping:)))
        acwStart.append(record.agent?.afterContactWorkStartTimestamp)
        acwEnd.append(record.agent?.afterContactWorkEndTimestamp)
        acw.append(record.agent?.afterContactWorkDuration.map(Int32.init(clamping:)))
        numberOfHolds.append(record.agent?.numberOfHolds.map(Int32.init(clamping:)))
        longestHold.append(record.agent?.longestHoldDuration.map(Int32.init(clamping:)))
        routingProfile.append(record.agent?.routingProfile?.name)
        dialedNumber.append(record.systemEndpoint?.address)
        customerNumber.append(record.customerEndpoint?.address)
        storeID.append(record.storeId)
        attributes.append(JSONBValue(bytes: Self.json(record.attributes)))
        raw.append(JSONBValue(bytes: record.rawJSON ?? record.jsonData()))
        lastUpdate.append(record.lastUpdateTimestamp)
        partition.append(sourced.partition)
        offset.append(sourced.offset)
        copies.append(Int32(clamping: count))
        agentConnectionAttempts.append(record.agentConnectionAttempts.map(Int32.init(clamping:)))
        transferCompleted.append(record.transferCompletedTimestamp)
        transferredToEndpoint.append(record.transferredToEndpoint?.address)
        let hierarchy = record.agent?.hierarchyGroups
        hierarchyLevel1.append(hierarchy?.level1?.name)
        hierarchyLevel2.append(hierarchy?.level2?.name)
        hierarchyLevel3.append(hierarchy?.level3?.name)
        hierarchyLevel4.append(hierarchy?.level4?.name)
        hierarchyLevel5.append(hierarchy?.level5?.name)
    }

    /// A string map as a JSON object, written by hand: faster than a general encoder per row.
    static func json(_ attributes: [String: String]) -> Data {
        var output = [UInt8]()
        output.reserveCapacity(attributes.count * 32 + 2)
        output.append(UInt8(ascii: "{"))
        var first = true
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
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
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
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
                output += [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension ContactRecordColumns {
    /// The `contact_record` columns written by the ingest, in the order of ``append(_:copies:)``.
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
    public var partitionMonth: UTCTimestamp { (initiationTimestamp ?? lastUpdateTimestamp).monthStart }
}
