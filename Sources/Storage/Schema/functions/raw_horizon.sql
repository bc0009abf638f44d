CREATE OR REPLACE FUNCTION raw_horizon() RETURNS timestamptz LANGUAGE sql STABLE AS
$$ SELECT horizon FROM raw_retention $$;
