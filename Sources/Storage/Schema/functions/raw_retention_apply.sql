CREATE OR REPLACE FUNCTION raw_retention_apply(p_keep_months integer, p_dry_run boolean DEFAULT false)
RETURNS TABLE (partition_name text, range_end timestamptz)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_horizon timestamptz;
    t record;
    p record;
BEGIN
    IF p_keep_months IS NULL OR p_keep_months < 1 THEN
        RAISE EXCEPTION 'retention must keep at least 1 month (asked: %)', p_keep_months;
    END IF;
    -- Exclusive: waits for the writes that read the horizon, holds later ones back.
    PERFORM pg_advisory_xact_lock(1398227528);
    -- The horizon never moves back: what it dropped is gone.
    SELECT greatest(horizon, date_trunc('month', now(), 'UTC') - make_interval(months => p_keep_months))
    INTO v_horizon FROM raw_retention;
    FOR t IN SELECT * FROM raw_partitioned_tables() LOOP
        FOR p IN
            SELECT c.relname, b.upper
            FROM pg_inherits i
            JOIN pg_class c ON c.oid = i.inhrelid
            CROSS JOIN LATERAL (
                SELECT substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \(''([^'']+)''\)')::timestamptz
            ) AS b(upper)
            WHERE i.inhparent = t.table_name::regclass AND b.upper <= v_horizon
            ORDER BY b.upper
        LOOP
            partition_name := p.relname;
            range_end := p.upper;
            RETURN NEXT;
            IF NOT p_dry_run THEN
                EXECUTE format('DROP TABLE %I', p.relname);
            END IF;
        END LOOP;
        IF NOT p_dry_run THEN
            EXECUTE format('DELETE FROM %I WHERE %I < $1', t.table_name || '_default', t.key_column)
            USING v_horizon;
        END IF;
    END LOOP;
    IF NOT p_dry_run THEN
        UPDATE raw_retention SET horizon = v_horizon, keep_months = p_keep_months, applied_at = now();
    END IF;
END
$$;

COMMENT ON FUNCTION raw_retention_apply(integer, boolean) IS
'Moves the retention horizon to the start of the UTC month p_keep_months before the current one and drops the raw partitions that end at or before it (p_dry_run: only lists them). Rollups are kept.';
