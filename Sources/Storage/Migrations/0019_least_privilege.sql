-- Migration 19: least privilege
--
-- No function is executable by PUBLIC: each role gets EXECUTE on what it uses from the
-- privileges file (Sources/Storage/Schema/privileges.sql), which every migrate applies after
-- the migrations. The functions an analyst's view calls, and those docs/analysts.md offers,
-- name their tables and functions with their schema, so a temporary table of the caller's
-- cannot stand in for one of ours. Masking reads Japanese text: full-width digits and the
-- dashes people write in Japanese count as digits and separators.

REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC;

-- Functions the migrating role creates from now on are not executable by PUBLIC either.
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

-- PostgreSQL 15 and later already refuse CREATE in public to PUBLIC; older servers (RDS offers
-- 13 and 14) allow it. Only the schema's owner can revoke it: anyone else is told to.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_namespace n, aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a
                   WHERE n.nspname = 'public' AND a.grantee = 0 AND a.privilege_type = 'CREATE') THEN
        NULL;
    ELSIF pg_has_role((SELECT nspowner FROM pg_namespace WHERE nspname = 'public'), 'MEMBER') THEN
        EXECUTE 'REVOKE CREATE ON SCHEMA public FROM PUBLIC';
    ELSE
        RAISE WARNING 'cannot revoke CREATE on schema public from PUBLIC: not the schema''s owner; ask an administrator to make the migrating role own it (deploy/README.md, "Database roles")';
    END IF;
END
$$;

CREATE OR REPLACE FUNCTION analytics_threshold_seconds() RETURNS integer LANGUAGE sql STABLE AS
$$ SELECT coalesce((SELECT value::integer FROM public.analytics_setting WHERE key = 'service_level_threshold_seconds'), 20) $$;

CREATE OR REPLACE FUNCTION analytics_time_zone() RETURNS text LANGUAGE sql STABLE AS
$$ SELECT coalesce((SELECT value FROM public.analytics_setting WHERE key = 'business_time_zone'), 'Asia/Tokyo') $$;

CREATE OR REPLACE FUNCTION day_type(d date) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT CASE
        WHEN EXISTS (SELECT 1 FROM public.calendar_day WHERE day = d) THEN 'holiday'
        WHEN EXISTS (SELECT 1 FROM public.calendar_day WHERE day = d + 1) THEN 'pre_holiday'
        WHEN extract(isodow FROM d) IN (6, 7) THEN 'weekend'
        ELSE 'weekday' END
$$;

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

CREATE OR REPLACE FUNCTION analyst_attribute_keys() RETURNS text[] LANGUAGE sql STABLE AS $$
    SELECT coalesce(
        (SELECT array_remove(string_to_array(regexp_replace(value, '[[:space:]]', '', 'g'), ','), '')
         FROM public.analytics_setting WHERE key = 'analyst_attribute_keys'),
        ARRAY[]::text[])
$$;

CREATE FUNCTION phone_text(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT translate(normalize(value, NFKC), 'ー‐‒–—―−', '-------')
$$;

COMMENT ON FUNCTION phone_text(text) IS
'A value as the phone test reads it: NFKC-normalised (full-width digits, parentheses, spaces and hyphens become ASCII), and the dashes NFKC keeps (ー U+30FC, ‐ U+2010, ‒ U+2012, – U+2013, — U+2014, ― U+2015, − U+2212) read as hyphens. Needs a UTF8 database.';

CREATE OR REPLACE FUNCTION looks_like_phone(value text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
    SELECT public.phone_text(value) ~ '[0-9]([ ().-]{0,2}[0-9]){6,}'
       AND public.phone_text(value) !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}([.][0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$'
$$;

COMMENT ON FUNCTION looks_like_phone(text) IS
'Whether a value, read by phone_text (full-width digits and Japanese dashes included), contains a run of 7 or more digits separated by at most two of space, parentheses, dot or hyphen, other than an ISO 8601 date or time.';

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
