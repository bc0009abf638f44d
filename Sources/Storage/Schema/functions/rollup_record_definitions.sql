CREATE OR REPLACE FUNCTION rollup_record_definitions() RETURNS void LANGUAGE sql AS $$
    UPDATE rollup_state SET definitions_fingerprint = rollup_definitions_fingerprint();
    DELETE FROM rollup_business_day_snapshot;
    INSERT INTO rollup_business_day_snapshot (store_id, business_date, day_type, closes_at)
    SELECT store_id, business_date, day_type, closes_at FROM store_business_day;
$$;

COMMENT ON FUNCTION rollup_record_definitions() IS
'Records the settings, store time zones, holidays and business days the contact rollups were computed with (a whole rebuild''s last step; switchboard rollup rebuild calls it after rebuilding month by month).';
