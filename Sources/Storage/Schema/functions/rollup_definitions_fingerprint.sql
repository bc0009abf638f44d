CREATE OR REPLACE FUNCTION rollup_definitions_fingerprint() RETURNS text LANGUAGE sql STABLE AS $$
    SELECT md5(concat_ws('|',
        analytics_threshold_seconds()::text,
        analytics_time_zone(),
        (SELECT string_agg(concat_ws(',', store_id, time_zone), ';' ORDER BY store_id) FROM store),
        (SELECT string_agg(day::text, ';' ORDER BY day) FROM calendar_day)))
$$;
