CREATE OR REPLACE FUNCTION analytics_threshold_seconds() RETURNS integer LANGUAGE sql STABLE AS
$$ SELECT coalesce((SELECT value::integer FROM public.analytics_setting WHERE key = 'service_level_threshold_seconds'), 20) $$;
