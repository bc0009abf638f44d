CREATE OR REPLACE FUNCTION rollup_instant(p_value text) RETURNS timestamptz LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN p_value ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
                THEN p_value::date::timestamp AT TIME ZONE analytics_time_zone()
                ELSE p_value::timestamptz END
$$;

COMMENT ON FUNCTION rollup_instant(text) IS
'A date (its midnight in analytics_time_zone()) or a timestamptz, as switchboard rollup rebuild --from/--to take them.';
