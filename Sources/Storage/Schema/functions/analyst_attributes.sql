CREATE OR REPLACE FUNCTION analyst_attributes(attributes jsonb) RETURNS jsonb LANGUAGE sql STABLE AS $$
    SELECT coalesce(
        jsonb_object_agg(a.key, CASE WHEN public.looks_like_phone(a.value)
                                     THEN public.mask_phone(public.phone_text(a.value)) ELSE a.value END),
        '{}'::jsonb)
    FROM jsonb_each_text(CASE WHEN jsonb_typeof(attributes) = 'object' THEN attributes ELSE '{}' END)
         AS a(key, value)
    WHERE a.key = ANY (public.analyst_attribute_keys())
$$;

COMMENT ON FUNCTION analyst_attributes(jsonb) IS
'The allowed contact attributes (analyst_attribute_keys()), phone-like values (looks_like_phone) masked after phone_text: a masked value shows its digits as ASCII.';
