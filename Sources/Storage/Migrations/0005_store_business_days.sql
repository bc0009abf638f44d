-- Migration 5: store business days
--
-- The stores of `flows/` and their business days, written by `BusinessDayStore` from the
-- same evaluator the IVR hook uses, and the function that files an instant by them.

CREATE TABLE store (
    store_id text PRIMARY KEY,
    name text NOT NULL,
    time_zone text NOT NULL,
    calendar_id text NOT NULL,
    hours_profile text NOT NULL,
    attributes jsonb NOT NULL DEFAULT '{}'
);

COMMENT ON TABLE store IS
'The stores declared in flows/, rewritten on migrate, import and flows reload.';

COMMENT ON TABLE calendar_day IS
'The holidays of the calendar japan as flows/ adjusts it (computed by law in Swift), for its whole range 1948-07-20 to 2150, rewritten on migrate.';

CREATE TABLE store_business_day (
    store_id text NOT NULL,
    business_date date NOT NULL,
    day_type text NOT NULL,
    hours_reason text,
    holiday_name text,
    opens_at timestamptz,
    closes_at timestamptz,
    PRIMARY KEY (store_id, business_date)
);

COMMENT ON TABLE store_business_day IS
'One row per store and business day, computed by the IVR hook''s evaluator from flows/ for every year with contacts and the coming year. day_type: weekday, weekend, holiday, pre_holiday, closure, override. hours_reason: the closure, override or holiday that set the hours (NULL for weekly hours). opens_at/closes_at: the first opening and the last closing of the day (NULL when closed all day; closes_at is past midnight for overnight hours).';

CREATE FUNCTION store_business_day_at(p_store_id text, p_at timestamptz)
RETURNS TABLE (business_date date, day_type text, hours_reason text)
LANGUAGE sql STABLE AS $$
    SELECT b.business_date, coalesce(d.day_type, day_type(b.business_date)), d.hours_reason
    FROM (
        SELECT CASE WHEN p.store_id IS NULL THEN l.local_date ELSE l.local_date - 1 END AS business_date
        FROM (
            SELECT (p_at AT TIME ZONE coalesce(s.time_zone, analytics_time_zone()))::date AS local_date
            FROM (SELECT) AS one
            LEFT JOIN store s ON s.store_id = p_store_id
        ) AS l
        LEFT JOIN store_business_day p
            ON p.store_id = p_store_id AND p.business_date = l.local_date - 1 AND p_at < p.closes_at
    ) AS b
    LEFT JOIN store_business_day d ON d.store_id = p_store_id AND d.business_date = b.business_date
$$;

COMMENT ON FUNCTION store_business_day_at(text, timestamptz) IS
'The business date, day type and hours reason of a store at an instant, as the IVR hook decides them. Stores not in flows/ (or dates not generated) fall back to the local date in analytics_time_zone() and day_type(date).';
