import ContactCenter
import Primitives
@_spi(Bench) import Storage

/// The reference load of `switchboard-bench bench-ingest`: the rows the ingest would write, as
/// PostgreSQL's COPY text for `psql \copy`.
extension ContactRecordColumns {
    /// The `contact_record` columns written by the ingest, in the order of the upsert's binds.
    static let columnNames = [
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
    /// values the ingest binds, in the order of ``columnNames``: the reference load's rows.
    static func copyTextLine(_ record: ContactTraceRecord, partition: Int32, offset: Int64) -> String {
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
