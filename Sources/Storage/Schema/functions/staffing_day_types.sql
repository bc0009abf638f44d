CREATE OR REPLACE FUNCTION staffing_day_types(p_from date, p_to date)
RETURNS TABLE (store_id text, business_date date, day_type text) LANGUAGE sql STABLE AS $$
    SELECT st.store_id, g.day::date,
           coalesce(d.day_type, CASE
               WHEN h0.day IS NOT NULL THEN 'holiday'
               WHEN h1.day IS NOT NULL THEN 'pre_holiday'
               WHEN extract(isodow FROM g.day) IN (6, 7) THEN 'weekend'
               ELSE 'weekday' END)
    FROM (SELECT DISTINCT s.store_id FROM public.staffing_source s) AS st
    CROSS JOIN generate_series(p_from::timestamp, p_to::timestamp, interval '1 day') AS g(day)
    LEFT JOIN public.store_business_day d ON d.store_id = st.store_id AND d.business_date = g.day::date
    LEFT JOIN public.calendar_day h0 ON h0.day = g.day::date
    LEFT JOIN public.calendar_day h1 ON h1.day = g.day::date + 1
$$;

COMMENT ON FUNCTION staffing_day_types(date, date) IS
'The day type of every store of staffing_source on every date of p_from..p_to: store_business_day''s (the IVR hook''s), else the national calendar''s (holiday, pre_holiday, weekend, weekday).';
