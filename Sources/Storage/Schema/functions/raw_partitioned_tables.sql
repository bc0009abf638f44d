CREATE OR REPLACE FUNCTION raw_partitioned_tables() RETURNS TABLE (table_name text, key_column text)
LANGUAGE sql IMMUTABLE AS
$$ VALUES ('contact_record', 'initiation_month'), ('agent_event', 'event_ts'), ('contact_event', 'event_ts') $$;
