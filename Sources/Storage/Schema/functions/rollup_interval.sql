CREATE OR REPLACE FUNCTION rollup_interval(ts timestamptz) RETURNS timestamptz LANGUAGE sql STABLE AS
$$ SELECT date_bin('15 minutes', ts, timestamptz 'epoch') $$;

COMMENT ON FUNCTION rollup_interval(timestamptz) IS
'The start of the 15-minute interval (aligned to the epoch) holding an instant, as the views bucket.';
