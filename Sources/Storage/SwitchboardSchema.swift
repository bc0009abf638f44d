/// The versioned migrations of Switchboard's schema, applied by `switchboard migrate` and at start-up.
public enum SwitchboardSchema {
    /// Every migration, in order.
    public static let migrations: [Migration] = [
        offsets, ingestTables, analystViews, connectColumns, businessDays, connectMetrics, rollups, rollupUpkeep,
        rollupStaleness, rawPartitions, rollupRoom, rollupPrevious, agentUpkeepByKey,
    ]

    /// `text` with each `(old, new)` replaced once; every `old` must be there exactly once. A later
    /// migration derives a function or view from an earlier one's text this way (migrations 10
    /// and 11) instead of copying it.
    static func replacing(in text: String, _ replacements: [(String, String)]) -> String {
        replacements.reduce(text) { text, replacement in
            let (old, new) = replacement
            precondition(text.components(separatedBy: old).count == 2, "the original holds \(old) once")
            return text.replacingOccurrences(of: old, with: new)
        }
    }

    static let offsets =
        Migration(
            version: 1,
            name: "consumer offsets",
            statements: [
                """
                CREATE TABLE consumer_offset (
                    consumer_group text NOT NULL,
                    topic text NOT NULL,
                    partition integer NOT NULL,
                    next_offset bigint NOT NULL DEFAULT -1,
                    owner_epoch bigint NOT NULL DEFAULT 0,
                    updated_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (consumer_group, topic, partition)
                )
                """,
                """
                COMMENT ON TABLE consumer_offset IS
                'Next offset to read per consumer group and partition, written in the same transaction as the rows. owner_epoch fences zombie workers; next_offset -1 means none stored yet.'
                """,
            ]
        )
}
