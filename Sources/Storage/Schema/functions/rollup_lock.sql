CREATE OR REPLACE FUNCTION rollup_lock() RETURNS void LANGUAGE sql AS $$ SELECT pg_advisory_xact_lock(1398227538) $$;
