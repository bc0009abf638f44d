CREATE OR REPLACE FUNCTION day_type(d date) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT CASE
        WHEN EXISTS (SELECT 1 FROM public.calendar_day WHERE day = d) THEN 'holiday'
        WHEN EXISTS (SELECT 1 FROM public.calendar_day WHERE day = d + 1) THEN 'pre_holiday'
        WHEN extract(isodow FROM d) IN (6, 7) THEN 'weekend'
        ELSE 'weekday' END
$$;
