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
        -- Months from 10 years back to 12 ahead only: whatever the writer passes (or a record's
        -- timestamp says), a table never gets more than about 130 partitions; rows of other
        -- months stay in its default partition.
        FOR m IN EXECUTE format(
            'SELECT month FROM (
                 SELECT DISTINCT date_trunc(''month'', %1$I, ''UTC'') FROM %2$I
                 WHERE %1$I > ''-infinity'' AND %1$I < ''infinity''
                 UNION SELECT date_trunc(''month'', m, ''UTC'') FROM unnest($1) AS u(m) WHERE m IS NOT NULL
                 UNION SELECT generate_series(date_trunc(''month'', now(), ''UTC''),
                                              now() + make_interval(months => least(greatest($2, 0), 12)), interval ''1 month'')
             ) AS wanted(month)
             WHERE month >= date_trunc(''month'', now(), ''UTC'') - interval ''10 years''
               AND month <= date_trunc(''month'', now(), ''UTC'') + interval ''12 months''
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
'Creates the monthly partitions of the raw tables for the given months, the current month and p_ahead months after it (0 to 12: the writer may call it, so a larger number creates no more), and every month with rows in a default partition (moved into it). Only months from 10 years before the current one to 12 after it: rows of other months stay in the default partition. Returns how many it created. Never at or before the retention horizon.';
