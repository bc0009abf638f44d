/// The measures of the contact rollups, shared by their upkeep (signed contributions) and their
/// rebuild (the same with `sign` 1), so the two cannot disagree on a column.
///
/// - Important: These strings are part of migration 7's SQL. A deployed database has run them:
///   change a definition in a new migration (with `rollup_rebuild(NULL, NULL)`), never here.
enum RollupSums {
    /// A count: `name` adds `sign` for each contact where `condition` holds.
    struct Count {
        var name: String
        var condition: String
    }

    /// A sum of seconds and how many values it has: `name` adds `sign × value` and `name_n` adds
    /// `sign` for each contact where `condition` holds and `value` is not NULL (an average is
    /// `name / name_n`, as `avg` ignores NULLs).
    struct Sum {
        var name: String
        var value: String
        var condition: String
    }

    static let queueCounts = [
        Count(name: "queued", condition: "true"),
        Count(name: "answered", condition: "answered"),
        Count(name: "abandoned", condition: "abandoned"),
        Count(name: "callbacks_requested", condition: "callback_requested"),
        Count(name: "transferred_out", condition: "transferred_out"),
        Count(name: "transferred_out_queue", condition: "transferred_out_queue"),
        Count(name: "transferred_out_external", condition: "transferred_out_external"),
        Count(name: "answered_within_threshold", condition: "answered_within_threshold"),
        Count(name: "abandoned_within_threshold", condition: "abandoned_within_threshold"),
        Count(name: "removed_within_threshold", condition: "removed_within_threshold"),
    ]

    static let queueSums = [
        Sum(name: "answered_queue_s", value: "queue_s", condition: "answered"),
        Sum(name: "abandoned_queue_s", value: "queue_s", condition: "abandoned"),
        Sum(name: "answered_handle_s", value: "handle_s", condition: "answered"),
        Sum(name: "answered_acw_s", value: "acw_s", condition: "answered"),
    ]

    static let storeCounts = [
        Count(name: "contacts", condition: "first_contact"),
        Count(name: "contact_records", condition: "true"),
        Count(
            name: "ended_in_flow", condition: "first_contact AND NOT queued AND NOT handled AND next_contact_id IS NULL"
        ),
        Count(name: "queued", condition: "queued"),
        Count(name: "answered", condition: "answered"),
        Count(name: "abandoned", condition: "abandoned"),
        Count(name: "callbacks_requested", condition: "callback_requested"),
        Count(name: "contacts_handled", condition: "handled"),
        Count(
            name: "contacts_handled_incoming",
            condition: "handled AND initiation_method IN ('INBOUND', 'TRANSFER', 'QUEUE_TRANSFER')"),
        Count(name: "contacts_handled_outbound", condition: "handled AND initiation_method = 'OUTBOUND'"),
        Count(name: "callback_contacts_handled", condition: "handled AND initiation_method = 'CALLBACK'"),
        Count(name: "transferred_out", condition: "transferred_out"),
        Count(name: "transferred_out_external", condition: "transferred_out_external"),
        Count(name: "removed_within_threshold", condition: "removed_within_threshold"),
        Count(name: "answered_within_threshold", condition: "answered_within_threshold"),
    ]

    static let storeSums = [
        Sum(name: "answered_queue_s", value: "queue_s", condition: "answered"),
        Sum(name: "handled_handle_s", value: "handle_s", condition: "handled"),
        Sum(name: "handled_acw_s", value: "acw_s", condition: "handled"),
    ]

    /// The measure columns, in the order of ``aggregates(_:sums:sign:)``.
    static func columns(_ counts: [Count], sums: [Sum]) -> [String] {
        counts.map(\.name) + sums.flatMap { [$0.name, $0.name + "_n"] } + ["agent_connection_attempts"]
    }

    /// The aggregates of the measures over rows with a `sign` column (or `1`).
    static func aggregates(_ counts: [Count], sums: [Sum], sign: String) -> String {
        let countTerms = counts.map { "coalesce(sum(\(sign)) FILTER (WHERE \($0.condition)), 0) AS \($0.name)" }
        let sumTerms = sums.flatMap { sum in
            let present = "\(sum.condition) AND \(sum.value) IS NOT NULL"
            return [
                "coalesce(sum(\(sign) * \(sum.value)) FILTER (WHERE \(present)), 0) AS \(sum.name)",
                "coalesce(sum(\(sign)) FILTER (WHERE \(present)), 0) AS \(sum.name)_n",
            ]
        }
        let attempts = "coalesce(sum(\(sign) * agent_connection_attempts), 0) AS agent_connection_attempts"
        return (countTerms + sumTerms + [attempts]).joined(separator: ",\n    ")
    }

    /// `column = target.column + delta.column` for every measure.
    static func additions(_ counts: [Count], sums: [Sum], target: String, delta: String) -> String {
        columns(counts, sums: sums).map { "\($0) = \(target).\($0) + \(delta).\($0)" }.joined(separator: ",\n    ")
    }
}
