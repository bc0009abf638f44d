-- Migration 1: consumer offsets
--
-- The ingest's offsets, stored in the transaction of the rows they cover.

CREATE TABLE consumer_offset (
    consumer_group text NOT NULL,
    topic text NOT NULL,
    partition integer NOT NULL,
    next_offset bigint NOT NULL DEFAULT -1,
    owner_epoch bigint NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer_group, topic, partition)
);

COMMENT ON TABLE consumer_offset IS
'Next offset to read per consumer group and partition, written in the same transaction as the rows. owner_epoch fences zombie workers; next_offset -1 means none stored yet.';
