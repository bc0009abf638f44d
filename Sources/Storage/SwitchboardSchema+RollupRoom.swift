extension SwitchboardSchema {
    /// The contact rollups' upkeep of migration 10, same results at a third (wide batches) to four
    /// fifths (small ones) less of its cost.
    ///
    /// Measured on a 190,000-contact database with one wide batch (1,900 new contacts across a
    /// week, 1,457 queue buckets and 182 store days, as `make bench-ingest`'s stream writes them),
    /// `rollup_apply_written()` in a warm session, eight runs each:
    /// - **Room for HOT updates** (`fillfactor = 40` on `queue_interval_rollup` and
    ///   `store_day_rollup`): with full pages only 26 % of the bucket updates were HOT; every other
    ///   one wrote the row to a new page and a new entry in each index. 50–66 ms → 43–44 ms.
    /// - **No merge joins** in the upkeep: the stashes are temporary tables without statistics
    ///   (1,900 rows were estimated at 1.5 million), and the planner sorted the batch's rows by
    ///   store id (text) to merge them with their business days. 42.5 → 39.5 ms.
    /// - **Lookups only for keys that exist**: a contact without a next contact no longer probes
    ///   every monthly partition's primary key with a null id (a one-time filter skips the
    ///   probe), and the contacts whose next contact the batch wrote are found by one scan of each
    ///   partition's `next_contact_id` index for all the batch's ids (`= ANY`) instead of one
    ///   probe of every partition per batch contact. 44 → 38 ms with the above; the probes grow
    ///   with the number of partitions (13 months kept and 2 ahead: four times the bench's).
    /// - **`rollup_interval` by `date_bin`**, the same instants (compared on 190,000 contacts):
    ///   `extract(epoch …)` is `numeric` since PostgreSQL 14, and its division and `floor` cost
    ///   0.5 µs per row wherever an interval is computed (the upkeep, the rebuild, the views).
    /// - **One plan per session instead of one per batch.** The stream's batches are small (the
    ///   bench's average 640 contacts: 312 calls, 11–13 ms each), and a 10-contact batch still
    ///   cost 5.8 ms: the upkeep was planned afresh every call (custom plans, 2.5 ms), and the
    ///   plan could not have been kept anyway, because the commit's `ON COMMIT DELETE ROWS` empties
    ///   the stash by truncation, which rebuilds the replaced stash's primary-key index and so
    ///   invalidates every plan that reads it (1.1 ms more at commit). The stashes now have no
    ///   index (a replaced version is kept only if the contact has none yet, by `NOT EXISTS`;
    ///   the upkeep hash-joins them), and the plan is generic, kept for the session. Its joins
    ///   between the batch's sets are hash joins whatever the first batch's size (`auto_explain`
    ///   of a plan made at 10 contacts running a 1,900-contact batch: the nested loops are the
    ///   lookups by key), and it ran 1,900-contact batches in 31–32 ms against 36–41 ms planned
    ///   afresh. (Forbidding nested loops as well was tried and dropped: the stale recomputation
    ///   below then hash-joined `contact_outcome`'s next contacts over whole partitions, 188 ms
    ///   for 3 buckets of 190,000 contacts.) The queue buckets' stale-maximum recomputation,
    ///   planned every call even with nothing stale (1.9 ms), runs only when a bucket is marked
    ///   (a probe of its partial index). A 10-contact batch: 5.8 → 1.0 ms; 640 contacts across
    ///   the week: 15.3–15.9 → 12.5–13.5 ms.
    /// The rows of existing pages keep their old fill until rewritten (`VACUUM FULL` on the two
    /// tables, optional); new buckets, which take nearly all updates, get the room at once.
    static let rollupRoom = Migration(
        version: 11,
        name: "rollup upkeep with room for HOT updates and one plan per session",
        statements: [
            "ALTER TABLE queue_interval_rollup SET (fillfactor = 40)",
            "ALTER TABLE store_day_rollup SET (fillfactor = 40)",
            """
            CREATE OR REPLACE FUNCTION rollup_interval(ts timestamptz) RETURNS timestamptz LANGUAGE sql STABLE AS
            $$ SELECT date_bin('15 minutes', ts, timestamptz 'epoch') $$
            """,
            replacing(in: ensureStashes, [("contact_id text PRIMARY KEY,", "contact_id text,")]),
            replacing(
                in: rollupMaintenance.first { $0.hasPrefix("CREATE FUNCTION contact_record_stash_replaced()") } ?? "",
                [
                    ("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION"),
                    (
                        "FROM replaced\n    ON CONFLICT (contact_id) DO NOTHING;",
                        """
                        FROM replaced r
                            WHERE NOT EXISTS (SELECT 1 FROM pg_temp.rollup_replaced_contact p WHERE p.contact_id = r.contact_id);
                        """
                    ),
                ]),
            roomyUpkeep,
        ]
    )

    /// Migration 10's `rollup_apply_written()` with the joins and lookups above.
    static let roomyUpkeep = replacing(
        in: coveredUpkeep("CREATE OR REPLACE FUNCTION", written: .stashed),
        [
            (
                "SET plan_cache_mode = force_custom_plan SET jit = off AS $fn$",
                """
                SET plan_cache_mode = force_generic_plan SET jit = off
                -- The stashes have no statistics: estimated far too large, their rows were sorted by
                -- store id (text) for merge joins.
                SET enable_mergejoin = off AS $fn$
                """
            ),
            (
                "    UPDATE queue_interval_rollup t\n",
                "    IF EXISTS (SELECT 1 FROM queue_interval_rollup WHERE max_stale) THEN\n    UPDATE queue_interval_rollup t\n"
            ),
            (
                "    WHERE t.max_stale AND t.queue = m.queue AND t.interval_start = m.interval_start;\n",
                "    WHERE t.max_stale AND t.queue = m.queue AND t.interval_start = m.interval_start;\n    END IF;\n"
            ),
            (
                "        FROM batch k\n" + previousJoinsByKey
                    + "\n        WHERE NOT EXISTS (SELECT 1 FROM batch b WHERE b.contact_id = r.contact_id)",
                """
                        -- One scan of each partition's next_contact_id index for all the batch's ids,
                        -- not one probe of every partition per batch contact.
                        FROM contact_record r
                        CROSS JOIN LATERAL (
                            -- r's next contact, in the batch: read only for the contacts found.
                            SELECT x.initiation_method FROM contact_record x WHERE x.contact_id = r.next_contact_id OFFSET 0
                        ) AS n
                        LEFT JOIN pre o ON o.contact_id = r.next_contact_id
                        WHERE r.next_contact_id = ANY (ARRAY(SELECT contact_id FROM batch))
                          AND NOT EXISTS (SELECT 1 FROM batch b WHERE b.contact_id = r.contact_id)
                """
            ),
            (
                "        LEFT JOIN contact_record n ON n.contact_id = r.next_contact_id\n",
                nextContactLookup(of: "r")
            ),
            (
                "        LEFT JOIN contact_record n ON n.contact_id = p.next_contact_id\n",
                nextContactLookup(of: "p")
            ),
        ])

    /// The initiation method of `row`'s next contact, looked up only when it has one (a null
    /// id would still open every monthly partition's index).
    static func nextContactLookup(of row: String) -> String {
        """
                LEFT JOIN LATERAL (
                    SELECT x.initiation_method FROM contact_record x
                    WHERE \(row).next_contact_id IS NOT NULL AND x.contact_id = \(row).next_contact_id OFFSET 0
                ) AS n ON true

        """
    }
}
