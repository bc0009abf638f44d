CREATE OR REPLACE FUNCTION raw_partition_create(p_table text, p_key text, p_month timestamptz) RETURNS boolean
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
    v_from timestamptz := date_trunc('month', p_month, 'UTC');
    v_to timestamptz := date_trunc('month', p_month, 'UTC') + interval '1 month';
    v_name text := p_table || to_char(date_trunc('month', p_month, 'UTC') AT TIME ZONE 'UTC', '"_y"YYYY"m"MM');
BEGIN
    IF to_regclass(v_name) IS NOT NULL OR v_to <= raw_horizon() THEN
        RETURN false;
    END IF;
    -- Created apart and attached: ATTACH takes a lock writers do not conflict with.
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING COMPRESSION INCLUDING STORAGE)',
                   v_name, p_table);
    EXECUTE format('WITH moved AS (DELETE FROM %1$I WHERE %2$I >= $1 AND %2$I < $2 RETURNING *) '
                   'INSERT INTO %3$I SELECT * FROM moved', p_table || '_default', p_key, v_name)
    USING v_from, v_to;
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
                   p_table, v_name, v_from, v_to);
    RETURN true;
END
$$;
