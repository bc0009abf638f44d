CREATE OR REPLACE FUNCTION analytics_time_zone() RETURNS text LANGUAGE sql STABLE AS
$$ SELECT coalesce((SELECT value FROM public.analytics_setting WHERE key = 'business_time_zone'), 'Asia/Tokyo') $$;
