-- Migration 18: the ingest's upsert stashes the rows it writes itself
--
-- The rollups' upkeep reads the rows a batch wrote from pg_temp.rollup_written_contact. Statement
-- triggers with a `REFERENCING NEW TABLE` transition table filled it: PostgreSQL copies every
-- written row whole into the transition table (a CTR's ~3 KB, `raw` included, before TOAST), only
-- for the trigger to keep 19 of its columns. The ingest's upsert now returns those 19 columns and
-- inserts them into the stash in the same statement (a data-modifying WITH), so a written row is
-- copied as ~200 bytes. Other writers never filled the stash (it exists in the ingest's sessions
-- only), so nothing else changes. The trigger keeping replaced versions stays: it sees the row
-- before the update, which RETURNING cannot.

DROP TRIGGER contact_record_rollup_inserted ON contact_record;

DROP TRIGGER contact_record_rollup_updated ON contact_record;

DROP FUNCTION contact_record_stash_written();

COMMENT ON FUNCTION ingest_write_begin() IS
'Called first in every ingest transaction: holds the retention horizon''s lock shared until commit, readies the rollups'' stashes of replaced and written contacts (the ingest''s upsert fills the latter itself), and returns the horizon (rows before it are refused).';

COMMENT ON FUNCTION rollup_apply_written() IS
'Applies the contacts this transaction wrote (stashed by the ingest''s upsert, and the versions it replaced by the trigger on contact_record) to queue_interval_rollup and store_day_rollup. Called by the ingest writer after its upsert.';
