extension SwitchboardSchema {
    /// The analyst views rebuilt on Amazon Connect's metric definitions (admin guide, "Metric
    /// definitions"; contact records data model, "How to identify abandoned contacts"), each
    /// column named and documented in the README, "SQL for analysts".
    ///
    /// - Abandoned: queued, never connected to an agent, not moved on (no `NextContactId`, no
    ///   `TransferCompletedTimestamp`), disconnected by the customer (`CUSTOMER_DISCONNECT`).
    ///   Callbacks and queue transfers are not abandons.
    /// - `connect_service_level` is Connect's "Service level X": contacts removed from the queue
    ///   within X (answered, abandoned or callback requested) / contacts queued;
    ///   `answered_service_level` is answered within X / queued.
    /// - Occupancy is Connect's: agent on contact / (agent on contact + agent idle), connecting
    ///   time in neither, error time idle.
    /// - `store_day_metrics` files contacts by the store's business day (``businessDays``) and
    ///   counts calls by their first contact.
    static let connectMetrics = Migration(
        version: 6,
        name: "connect metric definitions",
        statements: [
            "DROP VIEW store_day_metrics, agent_interval_metrics, agent_status_interval, queue_interval_metrics, "
                + "contact_record_analyst"
        ] + analystMasking + contactMetricViews + agentMetricViews + analystGrants
    )

    /// Phone masking and the attribute allow-list.
    static let analystMasking = [
        """
        CREATE OR REPLACE FUNCTION mask_phone(number text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
            SELECT CASE WHEN number IS NULL THEN NULL ELSE coalesce((
                SELECT string_agg(
                           CASE WHEN c.ch ~ '[[:alnum:]]' AND NOT (c.ch ~ '^[0-9]$' AND c.digits > 6 AND c.from_end <= 4)
                                THEN '*' ELSE c.ch END, '' ORDER BY c.pos)
                FROM (
                    SELECT t.ch, t.pos,
                           count(*) FILTER (WHERE t.ch ~ '^[0-9]$') OVER (ORDER BY t.pos DESC) AS from_end,
                           count(*) FILTER (WHERE t.ch ~ '^[0-9]$') OVER () AS digits
                    FROM regexp_split_to_table(number, '') WITH ORDINALITY AS t(ch, pos)
                ) AS c), '') END
        $$
        """,
        """
        COMMENT ON FUNCTION mask_phone(text) IS
        'Masks a phone number: every letter and digit becomes *, except the last 4 digits of a number with more than 6 digits (+81312345678 -> +*******5678).'
        """,
        """
        CREATE FUNCTION looks_like_phone(value text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
            SELECT value ~ '[0-9]([ ().-]{0,2}[0-9]){6,}'
               AND value !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}([.][0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$'
        $$
        """,
        """
        COMMENT ON FUNCTION looks_like_phone(text) IS
        'Whether a value contains a run of 7 or more digits (separated by at most two of space, parentheses, dot or hyphen), other than an ISO 8601 date or time.'
        """,
        """
        INSERT INTO analytics_setting (key, value, description) VALUES
        ('analyst_attribute_keys', 'storeId,result,dayType,flow,rule,queue,language,intent,partySize,followUp',
         'Contact attribute keys analysts see in contact_record_analyst (comma-separated). Written from SWITCHBOARD_ANALYST_ATTRIBUTE_KEYS on migrate. Phone-like values are masked even for these keys.')
        """,
        """
        CREATE FUNCTION analyst_attribute_keys() RETURNS text[] LANGUAGE sql STABLE AS $$
            SELECT coalesce(
                (SELECT array_remove(string_to_array(regexp_replace(value, '[[:space:]]', '', 'g'), ','), '')
                 FROM analytics_setting WHERE key = 'analyst_attribute_keys'),
                ARRAY[]::text[])
        $$
        """,
        """
        CREATE FUNCTION analyst_attributes(attributes jsonb) RETURNS jsonb LANGUAGE sql STABLE AS $$
            SELECT coalesce(
                jsonb_object_agg(a.key, CASE WHEN looks_like_phone(a.value) THEN mask_phone(a.value) ELSE a.value END),
                '{}'::jsonb)
            FROM jsonb_each_text(CASE WHEN jsonb_typeof(attributes) = 'object' THEN attributes ELSE '{}' END)
                 AS a(key, value)
            WHERE a.key = ANY (analyst_attribute_keys())
        $$
        """,
        """
        COMMENT ON FUNCTION analyst_attributes(jsonb) IS
        'The allowed contact attributes (analyst_attribute_keys()), phone-like values masked.'
        """,
    ]

    /// The analyst role may read the views, the calendar, the stores and the settings; never the
    /// raw tables.
    static let analystGrants = [
        """
        DO $$
        BEGIN
            IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'switchboard_analyst') THEN
                EXECUTE 'REVOKE ALL ON contact_record, agent_event, contact_event, dead_letter, consumer_offset FROM switchboard_analyst';
                EXECUTE 'GRANT SELECT ON contact_record_analyst, contact_outcome, queue_interval_metrics, store_day_metrics,
                         agent_contact_interval_metrics, agent_activity_segment, agent_status_interval, agent_interval_metrics,
                         calendar_day, analytics_setting, store, store_business_day TO switchboard_analyst';
            END IF;
        END
        $$
        """
    ]
}
