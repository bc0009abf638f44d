-- Migration 2: ingest tables
--
-- The ingest's tables: contact records (one row per contact, version-guarded), agent and
-- contact events (append-only, de-duplicated), and the dead-letter table.

CREATE TABLE contact_record (
    contact_id text PRIMARY KEY,
    initial_contact_id text,
    previous_contact_id text,
    next_contact_id text,
    channel text,
    initiation_method text,
    initiation_ts timestamptz,
    connected_to_system_ts timestamptz,
    disconnect_ts timestamptz,
    disconnect_reason text,
    queue_name text,
    queue_arn text,
    enqueue_ts timestamptz,
    dequeue_ts timestamptz,
    queue_duration_s integer,
    agent_username text,
    agent_arn text,
    connected_to_agent_ts timestamptz,
    agent_interaction_s integer,
    customer_hold_s integer,
    acw_start_ts timestamptz,
    acw_end_ts timestamptz,
    acw_s integer,
    number_of_holds integer,
    longest_hold_s integer,
    routing_profile text,
    dialed_number text,
    customer_number text,
    store_id text,
    attributes jsonb COMPRESSION lz4 NOT NULL DEFAULT '{}',
    raw jsonb COMPRESSION lz4 NOT NULL,
    last_update_ts timestamptz NOT NULL,
    source_partition integer NOT NULL,
    source_offset bigint NOT NULL,
    versions_seen integer NOT NULL DEFAULT 1,
    ingested_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX contact_record_enqueue ON contact_record (enqueue_ts) WHERE enqueue_ts IS NOT NULL;

CREATE INDEX contact_record_initiation ON contact_record (initiation_ts);

CREATE INDEX contact_record_store ON contact_record (store_id, initiation_ts);

COMMENT ON TABLE contact_record IS
'One row per Amazon Connect ContactId: the copy with the greatest LastUpdateTimestamp (ties: later partition/offset). raw keeps every field.';

CREATE TABLE agent_event (
    event_id text PRIMARY KEY,
    agent_arn text NOT NULL,
    event_type text NOT NULL,
    event_ts timestamptz NOT NULL,
    username text,
    status_name text,
    status_type text,
    status_start_ts timestamptz,
    activity text NOT NULL,
    contact_count integer NOT NULL DEFAULT 0,
    routing_profile text,
    raw jsonb COMPRESSION lz4 NOT NULL,
    source_partition integer NOT NULL,
    source_offset bigint NOT NULL,
    ingested_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX agent_event_agent_ts ON agent_event (agent_arn, event_ts);

COMMENT ON COLUMN agent_event.activity IS
'available | onContact | afterContactWork | customStatus | offline, derived from the snapshot (contacts first, then status).';

CREATE TABLE contact_event (
    event_id text PRIMARY KEY,
    contact_id text NOT NULL,
    event_type text NOT NULL,
    event_ts timestamptz NOT NULL,
    channel text,
    initiation_method text,
    queue_arn text,
    agent_arn text,
    raw jsonb COMPRESSION lz4 NOT NULL,
    source_partition integer NOT NULL,
    source_offset bigint NOT NULL,
    ingested_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX contact_event_contact ON contact_event (contact_id, event_ts);

CREATE TABLE dead_letter (
    id bigserial PRIMARY KEY,
    topic text NOT NULL,
    partition integer NOT NULL,
    "offset" bigint NOT NULL,
    key bytea,
    value bytea,
    error text NOT NULL,
    first_seen timestamptz NOT NULL DEFAULT now(),
    replayed_at timestamptz,
    UNIQUE (topic, partition, "offset")
);

COMMENT ON TABLE dead_letter IS
'Records that could not be decoded or validated, with their raw bytes. switchboard dlq replay re-validates them.';
