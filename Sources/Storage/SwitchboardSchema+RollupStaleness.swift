extension SwitchboardSchema {
    /// The contact rollups' upkeep of migration 8, marking a queue bucket's longest wait (and
    /// greatest queue name) stale only when what the batch takes off is not covered by what it
    /// adds.
    ///
    /// A bucket's `max_queued_s` is a maximum: a removed value cannot be subtracted, so migration
    /// 8 marked the bucket stale whenever a removed value reached the stored maximum, and the
    /// bucket was recomputed from its raw rows (0.16 ms each, by `contact_outcome`). Its queue
    /// name is the greatest of the bucket's names, and a newer version of a contact removes the
    /// old version's name, which is that greatest name in nearly every bucket: every replaced
    /// version cost a recomputation, even one re-delivered unchanged. When the batch adds a value
    /// at least as large as the largest it removes, the stored maximum stays exact: the removed
    /// values are at most the added one, and whatever remains is at most the old maximum, so
    /// `greatest(old maximum, added)` is the maximum of what remains plus what was added. Only
    /// the removals that no addition covers are compared with the stored row, which is read only
    /// for those buckets (one probe less per bucket the batch touches). Measured on 1,900
    /// contacts across a week, 93 of them replacing an identical version: 16 ms of
    /// recomputation → none.
    static let rollupStaleness = Migration(
        version: 9,
        name: "rollup staleness only for uncovered removals",
        statements: [applyContactsCovered]
    )

    static let applyContactsCovered = coveredUpkeep("CREATE OR REPLACE FUNCTION")

    /// Migration 9's upkeep, finding the written contacts as `written` says (migration 10: stashed).
    static func coveredUpkeep(_ create: String, written: WrittenContacts = .readBack) -> String {
        applyContactsFunction(
            create,
            previousJoins: previousJoinsByKey,
            queueWrite: queueUpsert(
                stale: """
                                   -- A removal no addition covers may have been the bucket's maximum (or greatest name).
                                   CASE WHEN u.max_s IS NULL AND u.name IS NULL THEN false
                                        WHEN e.present IS NULL THEN true
                                        ELSE coalesce(u.max_s >= e.max_queued_s, false) OR coalesce(u.name >= e.queue_name, false)
                                   END
                    """,
                lookups: """
                            CROSS JOIN LATERAL (
                                SELECT CASE WHEN d.added_max >= d.removed_max THEN NULL ELSE d.removed_max END AS max_s,
                                       CASE WHEN d.added_name >= d.removed_name THEN NULL ELSE d.removed_name END AS name
                            ) AS u
                            LEFT JOIN LATERAL (
                                -- Read only for uncovered removals: a one-time filter skips the probe.
                                SELECT true AS present, x.max_queued_s, x.queue_name FROM queue_interval_rollup x
                                WHERE (u.max_s IS NOT NULL OR u.name IS NOT NULL)
                                  AND x.queue = d.queue AND x.interval_start = d.interval_start OFFSET 0
                            ) AS e ON true
                    """),
            storeDelta: storeDeltaByKey, written: written)
    }
}
