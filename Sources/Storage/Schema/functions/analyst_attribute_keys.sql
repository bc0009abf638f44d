CREATE OR REPLACE FUNCTION analyst_attribute_keys() RETURNS text[] LANGUAGE sql STABLE AS $$
    SELECT coalesce(
        (SELECT array_remove(string_to_array(regexp_replace(value, '[[:space:]]', '', 'g'), ','), '')
         FROM public.analytics_setting WHERE key = 'analyst_attribute_keys'),
        ARRAY[]::text[])
$$;
