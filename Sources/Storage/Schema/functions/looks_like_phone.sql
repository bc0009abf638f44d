CREATE OR REPLACE FUNCTION looks_like_phone(value text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
    SELECT public.phone_text(value) ~ '[0-9]([ ().-]{0,2}[0-9]){6,}'
       AND public.phone_text(value) !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}([.][0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$'
$$;

COMMENT ON FUNCTION looks_like_phone(text) IS
'Whether a value, read by phone_text (full-width digits and Japanese dashes included), contains a run of 7 or more digits separated by at most two of space, parentheses, dot or hyphen, other than an ISO 8601 date or time.';
