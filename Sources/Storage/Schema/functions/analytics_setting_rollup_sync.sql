CREATE OR REPLACE FUNCTION analytics_setting_rollup_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM rollup_sync_definitions();
    RETURN NULL;
END
$$;
