extension SwitchboardSchema {
    /// The contact rollups' upkeep of migration 7, with the same results at a cost that follows
    /// the batch instead of the history (measured with `auto_explain` on a 2,864-contact batch of
    /// `make bench-ingest`: 50 ms, of which 10 ms hashed the whole `store_business_day` twice,
    /// 8 ms probed every batch contact for a previous contact, and the queue buckets were matched
    /// by a sequential scan of `queue_interval_rollup`, which grows with the history):
    /// - the previous contacts are found by one probe of `contact_record_next` per batch
    ///   contact (the planner had chosen a merge join walking that whole index);
    /// - the business day and day type are looked up once per (store, local date) of the batch,
    ///   by key, not joined per row;
    /// - the queue buckets are upserted through their primary key (`ON CONFLICT`), each existing
    ///   bucket read by key first for its `max_stale` mark. (The rollup lock keeps other writers
    ///   out between the read and the write.)
    static let rollupUpkeep = Migration(
        version: 8,
        name: "rollup upkeep by key",
        statements: [applyContactsByKey]
    )

    static let applyContactsByKey = applyContactsFunction(
        "CREATE OR REPLACE FUNCTION",
        previousJoins: previousJoinsByKey,
        queueWrite: queueUpsert(
            stale: """
                               -- A removed value may have been the bucket's maximum (or greatest name).
                               CASE WHEN e.present IS NULL THEN d.removed_max IS NOT NULL OR d.removed_name IS NOT NULL
                                    ELSE coalesce(d.removed_max >= e.max_queued_s, false)
                                         OR coalesce(d.removed_name >= e.queue_name, false) END
                """,
            lookups: """
                        LEFT JOIN LATERAL (
                            SELECT true AS present, x.max_queued_s, x.queue_name FROM queue_interval_rollup x
                            WHERE x.queue = d.queue AND x.interval_start = d.interval_start OFFSET 0
                        ) AS e ON true
                """),
        storeDelta: storeDeltaByKey)

    /// The CTE `queue_write` (migrations 8 and 9): upserts each `queue_delta` row into its queue
    /// bucket by primary key. `stale` is the expression of the bucket's `max_stale` mark (with
    /// its comment line) over `d` and what `lookups` (the joins after `FROM queue_delta d`) read.
    static func queueUpsert(stale: String, lookups: String) -> String {
        """
            ), queue_write AS (
                INSERT INTO queue_interval_rollup AS t (queue, interval_start, queue_name, max_queued_s, max_stale,
                    \(RollupSums.columns(RollupSums.queueCounts, sums: RollupSums.queueSums).joined(separator: ", ")))
                SELECT d.queue, d.interval_start, d.added_name, d.added_max,
        \(stale),
                       \(RollupSums.columns(RollupSums.queueCounts, sums: RollupSums.queueSums).map { "d.\($0)" }
                           .joined(separator: ", "))
                FROM queue_delta d
        \(lookups)
                ON CONFLICT (queue, interval_start) DO UPDATE SET
                    \(RollupSums.additions(RollupSums.queueCounts, sums: RollupSums.queueSums, target: "t", delta: "EXCLUDED")),
                    queue_name = greatest(t.queue_name, EXCLUDED.queue_name),
                    max_queued_s = greatest(t.max_queued_s, EXCLUDED.max_queued_s),
                    max_stale = t.max_stale OR EXCLUDED.max_stale
                RETURNING 1
        """
    }

    /// Migration 8's joins after `FROM batch k`: the previous contacts by key (also migration 9's).
    static let previousJoinsByKey = """
                -- OFFSET 0 keeps each lookup a probe by key: joined, the planner may walk a whole
                -- index (a merge join over contact_record_next) or hash a whole table.
                CROSS JOIN LATERAL (
                    SELECT * FROM contact_record x WHERE x.next_contact_id = k.contact_id OFFSET 0
                ) AS r
                CROSS JOIN LATERAL (
                    -- r's next contact is k: written through r so that it is read only for those found.
                    SELECT x.initiation_method FROM contact_record x WHERE x.contact_id = r.next_contact_id OFFSET 0
                ) AS n
                LEFT JOIN pre o ON o.contact_id = k.contact_id
        """

    /// Migration 8's `store_delta`: business days and day types by key (also migration 9's).
    static let storeDeltaByKey = """
        ), located AS MATERIALIZED (
                SELECT o.*, o.store_id IS NULL AS no_store,
                       (o.initiation_ts AT TIME ZONE coalesce(s.time_zone, v_time_zone))::date AS local_date
                FROM outcome o
                LEFT JOIN store s ON s.store_id = o.store_id
                WHERE o.initiation_ts IS NOT NULL
            ), day_key AS MATERIALIZED (
                -- store_business_day_at and day_type once per (store, local date) of the batch: a
                -- contact before its store's previous business day closed belongs to that day.
                SELECT k.store_id, k.no_store, k.local_date,
                       (SELECT p.closes_at FROM store_business_day p
                        WHERE p.store_id = k.store_id AND p.business_date = k.local_date - 1) AS previous_closes_at,
                       \(dayType(store: "k.store_id", date: "k.local_date")) AS day_type,
                       \(dayType(store: "k.store_id", date: "k.local_date - 1")) AS previous_day_type
                FROM (SELECT DISTINCT store_id, no_store, local_date FROM located) AS k
            ), store_delta AS (
                SELECT coalesce(l.store_id, '(unknown)') AS store_id, b.business_date, b.day_type,
                       \(RollupSums.aggregates(RollupSums.storeCounts, sums: RollupSums.storeSums, sign: "l.sign"))
                FROM located l
                JOIN day_key k ON k.no_store = l.no_store AND coalesce(k.store_id, '') = coalesce(l.store_id, '')
                    AND k.local_date = l.local_date
                CROSS JOIN LATERAL (
                    SELECT CASE WHEN l.initiation_ts < k.previous_closes_at THEN l.local_date - 1
                                ELSE l.local_date END AS business_date,
                           CASE WHEN l.initiation_ts < k.previous_closes_at THEN k.previous_day_type
                                ELSE k.day_type END AS day_type
                ) AS b
                GROUP BY 1, 2, 3
            )
        """

    /// `day_type(date)` of a store's business day, by key: the stored day type, else holiday,
    /// day before a holiday, weekend or weekday from `calendar_day` (as migration 7's joins).
    static func dayType(store: String, date: String) -> String {
        """
        coalesce(
                           (SELECT d.day_type FROM store_business_day d
                            WHERE d.store_id = \(store) AND d.business_date = \(date)),
                           -- Scalar subqueries, not EXISTS: a hashed EXISTS reads the whole calendar.
                           CASE WHEN (SELECT true FROM calendar_day h WHERE h.day = \(date)) THEN 'holiday'
                                WHEN (SELECT true FROM calendar_day h WHERE h.day = \(date) + 1) THEN 'pre_holiday'
                                WHEN extract(isodow FROM \(date)) IN (6, 7) THEN 'weekend'
                                ELSE 'weekday' END)
        """
    }
}
