CREATE OR REPLACE FUNCTION raw_partitions_ensure(p_months timestamptz[] DEFAULT '{}', p_ahead integer DEFAULT 2)
RETURNS integer LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    t record;
    m timestamptz;
    v_created integer := 0;
BEGIN
    -- 0x53574250, "SWBP" in ASCII: one creator at a time.
    PERFORM pg_advisory_xact_lock(1398227536);
    FOR t IN SELECT * FROM raw_partitioned_tables() LOOP
        FOR m IN EXECUTE format(
            'SELECT DISTINCT date_trunc(''month'', %1$I, ''UTC'') FROM %2$I
             WHERE %1$I > ''-infinity'' AND %1$I < ''infinity''
             UNION SELECT date_trunc(''month'', m, ''UTC'') FROM unnest($1) AS u(m) WHERE m IS NOT NULL
             UNION SELECT generate_series(date_trunc(''month'', now(), ''UTC''),
                                          now() + make_interval(months => least(greatest($2, 0), 12)), interval ''1 month'')
             ORDER BY 1', t.key_column, t.table_name || '_default')
        USING p_months, p_ahead
        LOOP
            IF raw_partition_create(t.table_name, t.key_column, m) THEN
                v_created := v_created + 1;
            END IF;
        END LOOP;
    END LOOP;
    RETURN v_created;
END
$$;

COMMENT ON FUNCTION raw_partitions_ensure(timestamptz[], integer) IS
'Creates the monthly partitions of the raw tables for the given months, the current month and p_ahead months after it (0 to 12: the writer may call it, so a larger number creates no more), and every month with rows in a default partition (moved into it). Returns how many it created. Never at or before the retention horizon.';
