CREATE OR REPLACE FUNCTION store_business_day_at(p_store_id text, p_at timestamptz)
RETURNS TABLE (business_date date, day_type text, hours_reason text) LANGUAGE sql STABLE AS $$
    SELECT b.business_date, coalesce(d.day_type, public.day_type(b.business_date)), d.hours_reason
    FROM (
        SELECT CASE WHEN p.store_id IS NULL THEN l.local_date ELSE l.local_date - 1 END AS business_date
        FROM (
            SELECT (p_at AT TIME ZONE coalesce(s.time_zone, public.analytics_time_zone()))::date AS local_date
            FROM (SELECT) AS one
            LEFT JOIN public.store s ON s.store_id = p_store_id
        ) AS l
        LEFT JOIN public.store_business_day p
            ON p.store_id = p_store_id AND p.business_date = l.local_date - 1 AND p_at < p.closes_at
    ) AS b
    LEFT JOIN public.store_business_day d ON d.store_id = p_store_id AND d.business_date = b.business_date
$$;

COMMENT ON FUNCTION store_business_day_at(text, timestamptz) IS
'The business date, day type and hours reason of a store at an instant, as the IVR hook decides them. Stores not in flows/ (or dates not generated) fall back to the local date in analytics_time_zone() and day_type(date).';
