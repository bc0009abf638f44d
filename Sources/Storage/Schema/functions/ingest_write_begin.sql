CREATE OR REPLACE FUNCTION ingest_write_begin() RETURNS timestamptz LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(1398227528);
    PERFORM rollup_ensure_stash();
    RETURN (SELECT horizon FROM raw_retention);
END
$$;

COMMENT ON FUNCTION ingest_write_begin() IS
'Called first in every ingest transaction: holds the retention horizon''s lock shared until commit, readies the rollups'' stashes of replaced and written contacts (the ingest''s upsert fills the latter itself), and returns the horizon (rows before it are refused).';
