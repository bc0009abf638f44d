-- Migration 20: transferred out by agent counts external transfers
-- Runs after the schema's functions and views.
--
-- Connect's "Contacts transferred out by agent" counts the contacts an agent transferred out
-- with the CCP: to a queue or an agent (the next leg is a TRANSFER) and to an external number
-- (the record has TransferCompletedTimestamp). contact_outcome, rollup_apply_written and
-- rollup_rebuild_contacts now count both; this corrects the queue rollup's figure for every
-- interval whose raw records are kept. Intervals before the retention horizon keep the figure
-- they had (docs/analysts.md).

SELECT rollup_lock();

UPDATE queue_interval_rollup t
SET transferred_out_by_agent = s.transferred_out_by_agent
FROM (
    SELECT queue, interval_start, count(*) FILTER (WHERE transferred_out_by_agent) AS transferred_out_by_agent
    FROM contact_outcome
    WHERE queued
    GROUP BY queue, interval_start
) AS s
WHERE t.queue = s.queue AND t.interval_start = s.interval_start
  AND t.transferred_out_by_agent <> s.transferred_out_by_agent;
