-- Switchboard's schema after migration 21: every table, view, function and comment.
-- Generated (`make schema`) from `pg_dump --schema-only --no-owner --no-privileges` of a
-- freshly migrated database, without the monthly partitions of the raw tables
-- (`<table>_yYYYYmMM`, made by raw_partitions_ensure() for the current and coming months);
-- do not edit. The migrations are Sources/Storage/Migrations/; docs/schema.md explains both.

--
-- Name: agent_event_activity(text, text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.agent_event_activity(p_event_type text, p_contact_state text, p_status_type text) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $$
    SELECT CASE
        WHEN p_event_type = 'LOGOUT' THEN 'offline'
        WHEN p_contact_state IN ('ERROR', 'MISSED', 'REJECTED') THEN 'error'
        WHEN p_contact_state = 'CONNECTED' THEN 'onContact'
        WHEN p_contact_state = 'ENDED' THEN 'afterContactWork'
        WHEN p_contact_state = 'CONNECTING' THEN 'connecting'
        WHEN p_status_type = 'ROUTABLE' THEN 'available'
        WHEN p_status_type IS NULL OR p_status_type = 'OFFLINE' THEN 'offline'
        ELSE 'customStatus'
    END
$$;

--
-- Name: FUNCTION agent_event_activity(p_event_type text, p_contact_state text, p_status_type text); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.agent_event_activity(p_event_type text, p_contact_state text, p_status_type text) IS 'The activity of agent_activity_segment (Connect''s Agent Activity precedence) from an event''s type, contact_state and status_type.';

--
-- Name: rollup_interval(timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.rollup_interval(ts timestamp with time zone) RETURNS timestamp with time zone
    LANGUAGE sql STABLE
    AS $$ SELECT date_bin('15 minutes', ts, timestamptz 'epoch') $$;

--
-- Name: FUNCTION rollup_interval(ts timestamp with time zone); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.rollup_interval(ts timestamp with time zone) IS 'The start of the 15-minute interval (aligned to the epoch) holding an instant, as the views bucket.';

--
-- Name: agent_interval_rollup; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.agent_interval_rollup (
    agent_arn text NOT NULL,
    interval_start timestamp with time zone NOT NULL,
    username text,
    available_s numeric NOT NULL,
    connecting_s numeric NOT NULL,
    on_contact_s numeric NOT NULL,
    after_contact_work_s numeric NOT NULL,
    error_s numeric NOT NULL,
    custom_status_s numeric NOT NULL,
    offline_s numeric NOT NULL,
    agent_on_contact_s numeric NOT NULL,
    agent_idle_s numeric NOT NULL
);

--
-- Name: TABLE agent_interval_rollup; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.agent_interval_rollup IS 'agent_status_rollup per agent and interval, each status''s seconds rounded to milliseconds first (as agent_interval_metrics sums them). agent_interval_metrics reads it for intervals that ended over 15 minutes ago.';

--
-- Name: agent_latest_event; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.agent_latest_event (
    agent_arn text NOT NULL,
    event_id text NOT NULL,
    event_ts timestamp with time zone NOT NULL,
    event_type text NOT NULL,
    contact_state text,
    status_type text,
    status_name text,
    activity text NOT NULL
);

--
-- Name: TABLE agent_latest_event; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.agent_latest_event IS 'Each agent''s latest event (greatest event_ts, then event_id), whose segment the agent views end at now(). Kept by the ingest in its transaction; switchboard rollup rebuild refills it.';

--
-- Name: agent_status_rollup; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.agent_status_rollup (
    agent_arn text NOT NULL,
    interval_start timestamp with time zone NOT NULL,
    activity text NOT NULL,
    status_name text NOT NULL,
    status_type text,
    username text,
    seconds numeric NOT NULL
);

--
-- Name: TABLE agent_status_rollup; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.agent_status_rollup IS 'Seconds per agent, 15-minute interval, activity and status, unrounded. An agent''s last segment is counted as if it lasted its full 10 minutes; agent_status_interval takes off the part after now().';

--
-- Name: agent_status_interval; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.agent_status_interval AS
 SELECT u.agent_arn,
    max(u.username) AS username,
    u.interval_start,
    u.activity,
    u.status_name,
    u.status_type,
    round(sum(u.seconds), 3) AS seconds
   FROM ( SELECT agent_status_rollup.agent_arn,
            agent_status_rollup.username,
            agent_status_rollup.interval_start,
            agent_status_rollup.activity,
            agent_status_rollup.status_name,
            agent_status_rollup.status_type,
            agent_status_rollup.seconds
           FROM public.agent_status_rollup
        UNION ALL
         SELECT e.agent_arn,
            NULL::text,
            i.interval_start,
            public.agent_event_activity(e.event_type, e.contact_state, e.status_type) AS agent_event_activity,
            COALESCE(e.status_name, e.status_type, e.activity) AS "coalesce",
            e.status_type,
            (- EXTRACT(epoch FROM (LEAST((e.event_ts + '00:10:00'::interval), (i.interval_start + '00:15:00'::interval)) - GREATEST(c.cut, i.interval_start))))
           FROM ((public.agent_latest_event e
             CROSS JOIN LATERAL ( SELECT GREATEST(e.event_ts, now()) AS cut) c)
             CROSS JOIN LATERAL generate_series(public.rollup_interval(c.cut), ((e.event_ts + '00:10:00'::interval) - '00:00:00.000001'::interval), '00:15:00'::interval) i(interval_start))
          WHERE (e.event_ts > (now() - '00:10:00'::interval))) u
  GROUP BY u.agent_arn, u.interval_start, u.activity, u.status_name, u.status_type
 HAVING (sum(u.seconds) > (0)::numeric);

--
-- Name: VIEW agent_status_interval; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON VIEW public.agent_status_interval IS 'Seconds per agent, 15-minute interval, activity and status. A status lasts until the agent''s next event, at most 10 minutes (heartbeats come every 120 s), and at most until now(). From agent_status_rollup.';

--
-- Name: agent_interval_metrics; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.agent_interval_metrics AS
 WITH totals AS (
         SELECT agent_interval_rollup.agent_arn,
            agent_interval_rollup.username,
            agent_interval_rollup.interval_start,
            agent_interval_rollup.available_s,
            agent_interval_rollup.connecting_s,
            agent_interval_rollup.on_contact_s,
            agent_interval_rollup.after_contact_work_s,
            agent_interval_rollup.error_s,
            agent_interval_rollup.custom_status_s,
            agent_interval_rollup.offline_s,
            agent_interval_rollup.agent_on_contact_s,
            agent_interval_rollup.agent_idle_s
           FROM public.agent_interval_rollup
          WHERE (agent_interval_rollup.interval_start <= (now() - '00:15:00'::interval))
        UNION ALL
         SELECT agent_status_interval.agent_arn,
            max(agent_status_interval.username) AS max,
            agent_status_interval.interval_start,
            COALESCE(sum(agent_status_interval.seconds) FILTER (WHERE (agent_status_interval.activity = 'available'::text)), (0)::numeric) AS "coalesce",
            COALESCE(sum(agent_status_interval.seconds) FILTER (WHERE (agent_status_interval.activity = 'connecting'::text)), (0)::numeric) AS "coalesce",
            COALESCE(sum(agent_status_interval.seconds) FILTER (WHERE (agent_status_interval.activity = 'onContact'::text)), (0)::numeric) AS "coalesce",
            COALESCE(sum(agent_status_interval.seconds) FILTER (WHERE (agent_status_interval.activity = 'afterContactWork'::text)), (0)::numeric) AS "coalesce",
            COALESCE(sum(agent_status_interval.seconds) FILTER (WHERE (agent_status_interval.activity = 'error'::text)), (0)::numeric) AS "coalesce",
            COALESCE(sum(agent_status_interval.seconds) FILTER (WHERE (agent_status_interval.activity = 'customStatus'::text)), (0)::numeric) AS "coalesce",
            COALESCE(sum(agent_status_interval.seconds) FILTER (WHERE (agent_status_interval.activity = 'offline'::text)), (0)::numeric) AS "coalesce",
            COALESCE(sum(agent_status_interval.seconds) FILTER (WHERE ((agent_status_interval.activity = ANY (ARRAY['onContact'::text, 'afterContactWork'::text])) AND (agent_status_interval.status_type = 'ROUTABLE'::text))), (0)::numeric) AS "coalesce",
            COALESCE(sum(agent_status_interval.seconds) FILTER (WHERE ((agent_status_interval.activity = ANY (ARRAY['available'::text, 'error'::text])) AND (agent_status_interval.status_type = 'ROUTABLE'::text))), (0)::numeric) AS "coalesce"
           FROM public.agent_status_interval
          WHERE (agent_status_interval.interval_start > (now() - '00:15:00'::interval))
          GROUP BY agent_status_interval.agent_arn, agent_status_interval.interval_start
        )
 SELECT totals.agent_arn,
    totals.username,
    totals.interval_start,
    (totals.interval_start + '00:15:00'::interval) AS interval_end,
    totals.available_s,
    totals.connecting_s,
    totals.on_contact_s,
    totals.after_contact_work_s,
    totals.error_s,
    totals.custom_status_s,
    totals.offline_s,
    totals.agent_on_contact_s,
    totals.agent_idle_s,
    round((totals.agent_on_contact_s / NULLIF((totals.agent_on_contact_s + totals.agent_idle_s), (0)::numeric)), 4) AS occupancy
   FROM totals;

--
-- Name: VIEW agent_interval_metrics; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON VIEW public.agent_interval_metrics IS 'Seconds per agent and 15-minute interval by activity, and Connect''s occupancy (docs/analysts.md), from agent_interval_rollup (intervals that ended over 15 minutes ago) and agent_status_interval.';

--
-- Name: agent_interval_metrics_from_raw(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.agent_interval_metrics_from_raw() RETURNS SETOF public.agent_interval_metrics
    LANGUAGE sql STABLE
    AS $$
WITH totals AS (
    SELECT agent_arn,
           max(username) AS username,
           interval_start,
           coalesce(sum(seconds) FILTER (WHERE activity = 'available'), 0) AS available_s,
           coalesce(sum(seconds) FILTER (WHERE activity = 'connecting'), 0) AS connecting_s,
           coalesce(sum(seconds) FILTER (WHERE activity = 'onContact'), 0) AS on_contact_s,
           coalesce(sum(seconds) FILTER (WHERE activity = 'afterContactWork'), 0) AS after_contact_work_s,
           coalesce(sum(seconds) FILTER (WHERE activity = 'error'), 0) AS error_s,
           coalesce(sum(seconds) FILTER (WHERE activity = 'customStatus'), 0) AS custom_status_s,
           coalesce(sum(seconds) FILTER (WHERE activity = 'offline'), 0) AS offline_s,
           coalesce(sum(seconds) FILTER (
               WHERE activity IN ('onContact', 'afterContactWork') AND status_type = 'ROUTABLE'), 0)
               AS agent_on_contact_s,
           coalesce(sum(seconds) FILTER (
               WHERE activity IN ('available', 'error') AND status_type = 'ROUTABLE'), 0) AS agent_idle_s
    FROM agent_status_interval_from_raw()
    GROUP BY agent_arn, interval_start
)
SELECT agent_arn, username, interval_start, interval_start + interval '15 minutes' AS interval_end,
       available_s, connecting_s, on_contact_s, after_contact_work_s, error_s, custom_status_s, offline_s,
       agent_on_contact_s, agent_idle_s,
       round(agent_on_contact_s / nullif(agent_on_contact_s + agent_idle_s, 0), 4) AS occupancy
FROM totals
$$;

--
-- Name: FUNCTION agent_interval_metrics_from_raw(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.agent_interval_metrics_from_raw() IS 'agent_interval_metrics computed from the raw tables, as the view read them before the rollups served it: what `switchboard rollup check` compares the view with.';

--
-- Name: agent_latest_apply(text[], timestamp with time zone[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.agent_latest_apply(p_agents text[], p_last timestamp with time zone[]) RETURNS void
    LANGUAGE sql
    AS $$
    INSERT INTO agent_latest_event AS t
    SELECT DISTINCT ON (e.agent_arn) e.agent_arn, e.event_id, e.event_ts, e.event_type, e.contact_state,
           e.status_type, e.status_name, e.activity
    FROM unnest(p_agents, p_last) AS g(agent_arn, last)
    JOIN agent_event e ON e.agent_arn = g.agent_arn AND e.event_ts = g.last
    ORDER BY e.agent_arn, e.event_id DESC
    ON CONFLICT (agent_arn) DO UPDATE SET
        event_id = EXCLUDED.event_id, event_ts = EXCLUDED.event_ts, event_type = EXCLUDED.event_type,
        contact_state = EXCLUDED.contact_state, status_type = EXCLUDED.status_type,
        status_name = EXCLUDED.status_name, activity = EXCLUDED.activity
    WHERE (EXCLUDED.event_ts, EXCLUDED.event_id) > (t.event_ts, t.event_id);
$$;

--
-- Name: FUNCTION agent_latest_apply(p_agents text[], p_last timestamp with time zone[]); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.agent_latest_apply(p_agents text[], p_last timestamp with time zone[]) IS 'Moves each agent''s latest event forward to its events at p_last (the latest time of the events the ingest just inserted for it). Called by the ingest writer with rollup_apply_agents.';

--
-- Name: agent_latest_rebuild(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.agent_latest_rebuild() RETURNS void
    LANGUAGE sql
    AS $$
    DELETE FROM agent_latest_event;
    INSERT INTO agent_latest_event
    SELECT DISTINCT ON (agent_arn) agent_arn, event_id, event_ts, event_type, contact_state, status_type,
           status_name, activity
    FROM agent_event
    ORDER BY agent_arn, event_ts DESC, event_id DESC;
$$;

--
-- Name: agent_status_interval_from_raw(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.agent_status_interval_from_raw() RETURNS SETOF public.agent_status_interval
    LANGUAGE sql STABLE
    AS $$
SELECT s.agent_arn,
       max(s.username) AS username,
       i.interval_start,
       s.activity,
       s.status_name,
       s.status_type,
       round(sum(extract(epoch FROM least(s.end_ts, i.interval_start + interval '15 minutes')
                                  - greatest(s.start_ts, i.interval_start)))::numeric, 3) AS seconds
FROM agent_activity_segment s
CROSS JOIN LATERAL generate_series(
    to_timestamp(floor(extract(epoch FROM s.start_ts) / 900) * 900),
    s.end_ts - interval '1 microsecond',
    interval '15 minutes'
) AS i(interval_start)
WHERE s.end_ts > s.start_ts
GROUP BY s.agent_arn, i.interval_start, s.activity, s.status_name, s.status_type
$$;

--
-- Name: FUNCTION agent_status_interval_from_raw(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.agent_status_interval_from_raw() IS 'agent_status_interval computed from the raw tables, as the view read them before the rollups served it: what `switchboard rollup check` compares the view with.';

--
-- Name: analyst_attribute_keys(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.analyst_attribute_keys() RETURNS text[]
    LANGUAGE sql STABLE
    AS $$
    SELECT coalesce(
        (SELECT array_remove(string_to_array(regexp_replace(value, '[[:space:]]', '', 'g'), ','), '')
         FROM public.analytics_setting WHERE key = 'analyst_attribute_keys'),
        ARRAY[]::text[])
$$;

--
-- Name: analyst_attributes(jsonb); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.analyst_attributes(attributes jsonb) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $$
    SELECT coalesce(
        jsonb_object_agg(a.key, CASE WHEN public.looks_like_phone(a.value)
                                     THEN public.mask_phone(public.phone_text(a.value)) ELSE a.value END),
        '{}'::jsonb)
    FROM jsonb_each_text(CASE WHEN jsonb_typeof(attributes) = 'object' THEN attributes ELSE '{}' END)
         AS a(key, value)
    WHERE a.key = ANY (public.analyst_attribute_keys())
$$;

--
-- Name: FUNCTION analyst_attributes(attributes jsonb); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.analyst_attributes(attributes jsonb) IS 'The allowed contact attributes (analyst_attribute_keys()), phone-like values (looks_like_phone) masked after phone_text: a masked value shows its digits as ASCII.';

--
-- Name: analytics_setting_rollup_sync(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.analytics_setting_rollup_sync() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM rollup_sync_definitions();
    RETURN NULL;
END
$$;

--
-- Name: analytics_threshold_seconds(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.analytics_threshold_seconds() RETURNS integer
    LANGUAGE sql STABLE
    AS $$ SELECT coalesce((SELECT value::integer FROM public.analytics_setting WHERE key = 'service_level_threshold_seconds'), 20) $$;

--
-- Name: analytics_time_zone(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.analytics_time_zone() RETURNS text
    LANGUAGE sql STABLE
    AS $$ SELECT coalesce((SELECT value FROM public.analytics_setting WHERE key = 'business_time_zone'), 'Asia/Tokyo') $$;

--
-- Name: contact_record_stash_replaced(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.contact_record_stash_replaced() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM rollup_ensure_stash();
    -- The first replaced version of a contact in a transaction is the committed one.
    INSERT INTO pg_temp.rollup_replaced_contact
    SELECT contact_id, initial_contact_id, next_contact_id, initiation_method, initiation_ts, disconnect_ts, disconnect_reason, store_id, queue_arn, queue_name, enqueue_ts, dequeue_ts, queue_duration_s, connected_to_agent_ts, agent_interaction_s, customer_hold_s, acw_s, agent_connection_attempts, transfer_completed_ts FROM replaced r
    WHERE NOT EXISTS (SELECT 1 FROM pg_temp.rollup_replaced_contact p WHERE p.contact_id = r.contact_id);
    RETURN NULL;
END
$$;

--
-- Name: day_type(date); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.day_type(d date) RETURNS text
    LANGUAGE sql STABLE
    AS $$
    SELECT CASE
        WHEN EXISTS (SELECT 1 FROM public.calendar_day WHERE day = d) THEN 'holiday'
        WHEN EXISTS (SELECT 1 FROM public.calendar_day WHERE day = d + 1) THEN 'pre_holiday'
        WHEN extract(isodow FROM d) IN (6, 7) THEN 'weekend'
        ELSE 'weekday' END
$$;

--
-- Name: ingest_write_begin(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ingest_write_begin() RETURNS timestamp with time zone
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM pg_advisory_xact_lock_shared(1398227528);
    PERFORM rollup_ensure_stash();
    RETURN (SELECT horizon FROM raw_retention);
END
$$;

--
-- Name: FUNCTION ingest_write_begin(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.ingest_write_begin() IS 'Called first in every ingest transaction: holds the retention horizon''s lock shared until commit, readies the rollups'' stashes of replaced and written contacts (the ingest''s upsert fills the latter itself), and returns the horizon (rows before it are refused).';

--
-- Name: looks_like_phone(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.looks_like_phone(value text) RETURNS boolean
    LANGUAGE sql IMMUTABLE
    AS $_$
    SELECT public.phone_text(value) ~ '[0-9]([ ().-]{0,2}[0-9]){6,}'
       AND public.phone_text(value) !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}([.][0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$'
$_$;

--
-- Name: FUNCTION looks_like_phone(value text); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.looks_like_phone(value text) IS 'Whether a value, read by phone_text (full-width digits and Japanese dashes included), contains a run of 7 or more digits separated by at most two of space, parentheses, dot or hyphen, other than an ISO 8601 date or time.';

--
-- Name: mask_phone(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.mask_phone(number text) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $_$
    SELECT CASE WHEN number IS NULL THEN NULL ELSE coalesce((
        SELECT string_agg(
                   CASE WHEN c.ch ~ '[[:alnum:]]' AND NOT (c.ch ~ '^[0-9]$' AND c.digits > 6 AND c.from_end <= 4)
                        THEN '*' ELSE c.ch END, '' ORDER BY c.pos)
        FROM (
            SELECT t.ch, t.pos,
                   count(*) FILTER (WHERE t.ch ~ '^[0-9]$') OVER (ORDER BY t.pos DESC) AS from_end,
                   count(*) FILTER (WHERE t.ch ~ '^[0-9]$') OVER () AS digits
            FROM regexp_split_to_table(number, '') WITH ORDINALITY AS t(ch, pos)
        ) AS c), '') END
$_$;

--
-- Name: FUNCTION mask_phone(number text); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.mask_phone(number text) IS 'Masks a phone number: every letter and digit becomes *, except the last 4 digits of a number with more than 6 digits (+81312345678 -> +*******5678).';

--
-- Name: phone_text(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.phone_text(value text) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $$
    SELECT translate(normalize(value, NFKC), 'ー‐‒–—―−', '-------')
$$;

--
-- Name: FUNCTION phone_text(value text); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.phone_text(value text) IS 'A value as the phone test reads it: NFKC-normalised (full-width digits, parentheses, spaces and hyphens become ASCII), and the dashes NFKC keeps (ー U+30FC, ‐ U+2010, ‒ U+2012, – U+2013, — U+2014, ― U+2015, − U+2212) read as hyphens. Needs a UTF8 database.';

--
-- Name: queue_interval_rollup; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.queue_interval_rollup (
    queue text NOT NULL,
    interval_start timestamp with time zone NOT NULL,
    queue_name text,
    queued bigint DEFAULT 0 NOT NULL,
    answered bigint DEFAULT 0 NOT NULL,
    abandoned bigint DEFAULT 0 NOT NULL,
    callbacks_requested bigint DEFAULT 0 NOT NULL,
    transferred_out bigint DEFAULT 0 NOT NULL,
    transferred_out_queue bigint DEFAULT 0 NOT NULL,
    transferred_out_external bigint DEFAULT 0 NOT NULL,
    answered_within_threshold bigint DEFAULT 0 NOT NULL,
    abandoned_within_threshold bigint DEFAULT 0 NOT NULL,
    removed_within_threshold bigint DEFAULT 0 NOT NULL,
    answered_queue_s bigint DEFAULT 0 NOT NULL,
    answered_queue_s_n bigint DEFAULT 0 NOT NULL,
    abandoned_queue_s bigint DEFAULT 0 NOT NULL,
    abandoned_queue_s_n bigint DEFAULT 0 NOT NULL,
    answered_handle_s bigint DEFAULT 0 NOT NULL,
    answered_handle_s_n bigint DEFAULT 0 NOT NULL,
    answered_acw_s bigint DEFAULT 0 NOT NULL,
    answered_acw_s_n bigint DEFAULT 0 NOT NULL,
    agent_connection_attempts bigint DEFAULT 0 NOT NULL,
    max_queued_s integer,
    max_stale boolean DEFAULT false NOT NULL,
    transferred_out_by_agent bigint DEFAULT 0 NOT NULL,
    answered_hold_s bigint DEFAULT 0 NOT NULL,
    answered_held bigint DEFAULT 0 NOT NULL,
    answered_interaction_s bigint DEFAULT 0 NOT NULL,
    answered_interaction_s_n bigint DEFAULT 0 NOT NULL,
    agent_non_response bigint DEFAULT 0 NOT NULL
)
WITH (fillfactor='40');

--
-- Name: TABLE queue_interval_rollup; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.queue_interval_rollup IS 'contact_outcome of queued contacts summed per queue and 15-minute interval of enqueue_ts: counts, sums of seconds (*_s) and how many values each sum has (*_s_n). queue_interval_metrics reads it. Kept by the ingest in the transaction of the rows; switchboard rollup rebuild recomputes it.';

--
-- Name: COLUMN queue_interval_rollup.answered_held; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.queue_interval_rollup.answered_held IS 'Answered contacts put on hold (CustomerHoldDuration > 0): the denominator of "Average customer hold time".';

--
-- Name: COLUMN queue_interval_rollup.agent_non_response; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.queue_interval_rollup.agent_non_response IS 'Offers of the contacts to an agent that were not answered: AgentConnectionAttempts minus the one that connected.';

--
-- Name: queue_interval_metrics; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.queue_interval_metrics AS
 SELECT queue_interval_rollup.queue,
    queue_interval_rollup.queue_name,
    queue_interval_rollup.interval_start,
    (queue_interval_rollup.interval_start + '00:15:00'::interval) AS interval_end,
    queue_interval_rollup.queued,
    queue_interval_rollup.answered,
    queue_interval_rollup.abandoned,
    queue_interval_rollup.callbacks_requested,
    queue_interval_rollup.transferred_out,
    queue_interval_rollup.transferred_out_queue,
    queue_interval_rollup.transferred_out_external,
    queue_interval_rollup.answered_within_threshold,
    queue_interval_rollup.abandoned_within_threshold,
    queue_interval_rollup.removed_within_threshold,
    round(((queue_interval_rollup.removed_within_threshold)::numeric / (queue_interval_rollup.queued)::numeric), 4) AS connect_service_level,
    round(((queue_interval_rollup.answered_within_threshold)::numeric / (queue_interval_rollup.queued)::numeric), 4) AS answered_service_level,
    round(((queue_interval_rollup.answered_queue_s)::numeric / (NULLIF(queue_interval_rollup.answered_queue_s_n, 0))::numeric), 2) AS average_speed_of_answer_s,
    round(((queue_interval_rollup.abandoned_queue_s)::numeric / (NULLIF(queue_interval_rollup.abandoned_queue_s_n, 0))::numeric), 2) AS average_queue_abandon_time_s,
    round(((queue_interval_rollup.answered_handle_s)::numeric / (NULLIF(queue_interval_rollup.answered_handle_s_n, 0))::numeric), 2) AS average_handle_time_s,
    round(((queue_interval_rollup.answered_acw_s)::numeric / (NULLIF(queue_interval_rollup.answered_acw_s_n, 0))::numeric), 2) AS average_after_contact_work_s,
    round(((queue_interval_rollup.abandoned)::numeric / (queue_interval_rollup.queued)::numeric), 4) AS abandonment_rate,
    queue_interval_rollup.max_queued_s,
    queue_interval_rollup.agent_connection_attempts,
    queue_interval_rollup.answered AS contacts_handled,
    queue_interval_rollup.transferred_out_by_agent,
    round(((queue_interval_rollup.answered_hold_s)::numeric / (NULLIF(queue_interval_rollup.answered_held, 0))::numeric), 2) AS average_customer_hold_time_s,
    round(((queue_interval_rollup.answered_hold_s)::numeric / (NULLIF(queue_interval_rollup.answered, 0))::numeric), 2) AS average_customer_hold_time_all_contacts_s,
    round(((queue_interval_rollup.answered_interaction_s)::numeric / (NULLIF(queue_interval_rollup.answered_interaction_s_n, 0))::numeric), 2) AS average_interaction_time_s,
    queue_interval_rollup.agent_non_response
   FROM public.queue_interval_rollup
  WHERE (queue_interval_rollup.queued > 0);

--
-- Name: VIEW queue_interval_metrics; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON VIEW public.queue_interval_metrics IS 'Queued contacts per queue and 15-minute interval of enqueue_ts (docs/analysts.md), from queue_interval_rollup.';

--
-- Name: queue_interval_metrics_from_raw(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.queue_interval_metrics_from_raw() RETURNS SETOF public.queue_interval_metrics
    LANGUAGE sql STABLE
    AS $$
    SELECT queue,
           max(queue_name) AS queue_name,
           interval_start,
           interval_start + interval '15 minutes' AS interval_end,
           count(*) AS queued,
           count(*) FILTER (WHERE answered) AS answered,
           count(*) FILTER (WHERE abandoned) AS abandoned,
           count(*) FILTER (WHERE callback_requested) AS callbacks_requested,
           count(*) FILTER (WHERE transferred_out) AS transferred_out,
           count(*) FILTER (WHERE transferred_out_queue) AS transferred_out_queue,
           count(*) FILTER (WHERE transferred_out_external) AS transferred_out_external,
           count(*) FILTER (WHERE answered_within_threshold) AS answered_within_threshold,
           count(*) FILTER (WHERE abandoned_within_threshold) AS abandoned_within_threshold,
           count(*) FILTER (WHERE removed_within_threshold) AS removed_within_threshold,
           round(count(*) FILTER (WHERE removed_within_threshold)::numeric / count(*), 4) AS connect_service_level,
           round(count(*) FILTER (WHERE answered_within_threshold)::numeric / count(*), 4) AS answered_service_level,
           round(avg(queue_s) FILTER (WHERE answered), 2) AS average_speed_of_answer_s,
           round(avg(queue_s) FILTER (WHERE abandoned), 2) AS average_queue_abandon_time_s,
           round(avg(handle_s) FILTER (WHERE answered), 2) AS average_handle_time_s,
           round(avg(acw_s) FILTER (WHERE answered), 2) AS average_after_contact_work_s,
           round(count(*) FILTER (WHERE abandoned)::numeric / count(*), 4) AS abandonment_rate,
           max(queue_s) AS max_queued_s,
           coalesce(sum(agent_connection_attempts), 0) AS agent_connection_attempts,
           count(*) FILTER (WHERE handled) AS contacts_handled,
           count(*) FILTER (WHERE transferred_out_by_agent) AS transferred_out_by_agent,
           round(avg(customer_hold_s) FILTER (WHERE answered AND customer_hold_s > 0), 2)
               AS average_customer_hold_time_s,
           round(avg(coalesce(customer_hold_s, 0)) FILTER (WHERE answered), 2)
               AS average_customer_hold_time_all_contacts_s,
           round(avg(agent_interaction_s) FILTER (WHERE answered), 2) AS average_interaction_time_s,
           coalesce(sum(agent_non_response), 0) AS agent_non_response
    FROM contact_outcome
    WHERE queued
    GROUP BY queue, interval_start
$$;

--
-- Name: FUNCTION queue_interval_metrics_from_raw(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.queue_interval_metrics_from_raw() IS 'queue_interval_metrics computed from the raw contact records (contact_outcome) instead of the rollup: what switchboard rollup check compares the view with. Reads the whole history.';

--
-- Name: raw_horizon(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.raw_horizon() RETURNS timestamp with time zone
    LANGUAGE sql STABLE
    AS $$ SELECT horizon FROM raw_retention $$;

--
-- Name: raw_partition_create(text, text, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.raw_partition_create(p_table text, p_key text, p_month timestamp with time zone) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $_$
DECLARE
    v_from timestamptz := date_trunc('month', p_month, 'UTC');
    v_to timestamptz := date_trunc('month', p_month, 'UTC') + interval '1 month';
    v_name text := p_table || to_char(date_trunc('month', p_month, 'UTC') AT TIME ZONE 'UTC', '"_y"YYYY"m"MM');
BEGIN
    IF to_regclass(v_name) IS NOT NULL OR v_to <= raw_horizon() THEN
        RETURN false;
    END IF;
    -- Created apart and attached: ATTACH takes a lock writers do not conflict with.
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING COMPRESSION INCLUDING STORAGE)',
                   v_name, p_table);
    EXECUTE format('WITH moved AS (DELETE FROM %1$I WHERE %2$I >= $1 AND %2$I < $2 RETURNING *) '
                   'INSERT INTO %3$I SELECT * FROM moved', p_table || '_default', p_key, v_name)
    USING v_from, v_to;
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
                   p_table, v_name, v_from, v_to);
    RETURN true;
END
$_$;

--
-- Name: raw_partitioned_tables(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.raw_partitioned_tables() RETURNS TABLE(table_name text, key_column text)
    LANGUAGE sql IMMUTABLE
    AS $$ VALUES ('contact_record', 'initiation_month'), ('agent_event', 'event_ts'), ('contact_event', 'event_ts') $$;

--
-- Name: raw_partitions_ensure(timestamp with time zone[], integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.raw_partitions_ensure(p_months timestamp with time zone[] DEFAULT '{}'::timestamp with time zone[], p_ahead integer DEFAULT 2) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
DECLARE
    t record;
    m timestamptz;
    v_created integer := 0;
BEGIN
    -- 0x53574250, "SWBP" in ASCII: one creator at a time.
    PERFORM pg_advisory_xact_lock(1398227536);
    FOR t IN SELECT * FROM raw_partitioned_tables() LOOP
        -- Months from 10 years back to 12 ahead only: whatever the writer passes (or a record's
        -- timestamp says), a table never gets more than about 130 partitions; rows of other
        -- months stay in its default partition.
        FOR m IN EXECUTE format(
            'SELECT month FROM (
                 SELECT DISTINCT date_trunc(''month'', %1$I, ''UTC'') FROM %2$I
                 WHERE %1$I > ''-infinity'' AND %1$I < ''infinity''
                 UNION SELECT date_trunc(''month'', m, ''UTC'') FROM unnest($1) AS u(m) WHERE m IS NOT NULL
                 UNION SELECT generate_series(date_trunc(''month'', now(), ''UTC''),
                                              now() + make_interval(months => least(greatest($2, 0), 12)), interval ''1 month'')
             ) AS wanted(month)
             WHERE month >= date_trunc(''month'', now(), ''UTC'') - interval ''10 years''
               AND month <= date_trunc(''month'', now(), ''UTC'') + interval ''12 months''
             ORDER BY 1', t.key_column, t.table_name || '_default')
        USING p_months, p_ahead
        LOOP
            IF raw_partition_create(t.table_name, t.key_column, m) THEN
                v_created := v_created + 1;
            END IF;
        END LOOP;
    END LOOP;
    RETURN v_created;
END
$_$;

--
-- Name: FUNCTION raw_partitions_ensure(p_months timestamp with time zone[], p_ahead integer); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.raw_partitions_ensure(p_months timestamp with time zone[], p_ahead integer) IS 'Creates the monthly partitions of the raw tables for the given months, the current month and p_ahead months after it (0 to 12: the writer may call it, so a larger number creates no more), and every month with rows in a default partition (moved into it). Only months from 10 years before the current one to 12 after it: rows of other months stay in the default partition. Returns how many it created. Never at or before the retention horizon.';

--
-- Name: raw_retention_apply(integer, boolean); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.raw_retention_apply(p_keep_months integer, p_dry_run boolean DEFAULT false) RETURNS TABLE(partition_name text, range_end timestamp with time zone)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    AS $_$
DECLARE
    v_horizon timestamptz;
    t record;
    p record;
BEGIN
    IF p_keep_months IS NULL OR p_keep_months < 1 THEN
        RAISE EXCEPTION 'retention must keep at least 1 month (asked: %)', p_keep_months;
    END IF;
    -- Exclusive: waits for the writes that read the horizon, holds later ones back.
    PERFORM pg_advisory_xact_lock(1398227528);
    -- The horizon never moves back: what it dropped is gone.
    SELECT greatest(horizon, date_trunc('month', now(), 'UTC') - make_interval(months => p_keep_months))
    INTO v_horizon FROM raw_retention;
    FOR t IN SELECT * FROM raw_partitioned_tables() LOOP
        FOR p IN
            SELECT c.relname, b.upper
            FROM pg_inherits i
            JOIN pg_class c ON c.oid = i.inhrelid
            CROSS JOIN LATERAL (
                SELECT substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \(''([^'']+)''\)')::timestamptz
            ) AS b(upper)
            WHERE i.inhparent = t.table_name::regclass AND b.upper <= v_horizon
            ORDER BY b.upper
        LOOP
            partition_name := p.relname;
            range_end := p.upper;
            RETURN NEXT;
            IF NOT p_dry_run THEN
                EXECUTE format('DROP TABLE %I', p.relname);
            END IF;
        END LOOP;
        IF NOT p_dry_run THEN
            EXECUTE format('DELETE FROM %I WHERE %I < $1', t.table_name || '_default', t.key_column)
            USING v_horizon;
        END IF;
    END LOOP;
    IF NOT p_dry_run THEN
        UPDATE raw_retention SET horizon = v_horizon, keep_months = p_keep_months, applied_at = now();
    END IF;
END
$_$;

--
-- Name: FUNCTION raw_retention_apply(p_keep_months integer, p_dry_run boolean); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.raw_retention_apply(p_keep_months integer, p_dry_run boolean) IS 'Moves the retention horizon to the start of the UTC month p_keep_months before the current one and drops the raw partitions that end at or before it (p_dry_run: only lists them). Rollups are kept.';

--
-- Name: rollup_apply_agents(text[], timestamp with time zone[], timestamp with time zone[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.rollup_apply_agents(p_agents text[], p_first timestamp with time zone[], p_last timestamp with time zone[]) RETURNS void
    LANGUAGE plpgsql
    SET jit TO 'off'
    AS $$
DECLARE
    v_agents text[];
    v_lo timestamptz[];
    v_hi timestamptz[];
BEGIN
    PERFORM rollup_lock();
    SELECT array_agg(a), array_agg(rollup_interval(f)), array_agg(rollup_interval(l + interval '10 minutes'))
    INTO v_agents, v_lo, v_hi
    FROM unnest(p_agents, p_first, p_last) AS u(a, f, l);
    IF v_agents IS NULL THEN
        RETURN;
    END IF;
    -- The rows to delete found by each agent's index, then deleted by row id.
    DELETE FROM agent_status_rollup s WHERE s.ctid = ANY (ARRAY(
        SELECT x.ctid FROM unnest(v_agents, v_lo, v_hi) AS g(agent_arn, lo, hi)
        CROSS JOIN LATERAL (
            SELECT r.ctid FROM agent_status_rollup r
            WHERE r.agent_arn = g.agent_arn AND r.interval_start BETWEEN g.lo AND g.hi OFFSET 0
        ) AS x));
    DELETE FROM agent_interval_rollup s WHERE s.ctid = ANY (ARRAY(
        SELECT x.ctid FROM unnest(v_agents, v_lo, v_hi) AS g(agent_arn, lo, hi)
        CROSS JOIN LATERAL (
            SELECT r.ctid FROM agent_interval_rollup r
            WHERE r.agent_arn = g.agent_arn AND r.interval_start BETWEEN g.lo AND g.hi OFFSET 0
        ) AS x));
    PERFORM rollup_insert_agents_by_key(v_agents, v_lo, v_hi);
END
$$;

--
-- Name: FUNCTION rollup_apply_agents(p_agents text[], p_first timestamp with time zone[], p_last timestamp with time zone[]); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.rollup_apply_agents(p_agents text[], p_first timestamp with time zone[], p_last timestamp with time zone[]) IS 'Recomputes the agent rollups of each agent from the interval of its first new event (p_first) to 10 minutes after its last (p_last). Called by the ingest writer after inserting events.';

--
-- Name: rollup_apply_written(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.rollup_apply_written() RETURNS void
    LANGUAGE plpgsql
    SET plan_cache_mode TO 'force_generic_plan'
    SET jit TO 'off'
    SET enable_mergejoin TO 'off'
    AS $$
DECLARE
    -- Read once: a SQL function with a subquery runs per row, not inlined.
    v_threshold integer := analytics_threshold_seconds();
    v_time_zone text := analytics_time_zone();
BEGIN
    PERFORM rollup_lock();
    PERFORM rollup_ensure_stash();
    WITH batch AS MATERIALIZED (
        SELECT DISTINCT contact_id FROM pg_temp.rollup_written_contact
    ), pre AS MATERIALIZED (
        SELECT p.* FROM pg_temp.rollup_replaced_contact p JOIN batch b USING (contact_id)
    ), previous AS MATERIALIZED (
        -- Contacts outside the batch whose next contact is in it: only that contact's
        -- initiation method (callback, transfer) matters to them.
        SELECT r.contact_id, r.initial_contact_id, r.next_contact_id, r.initiation_method, r.initiation_ts, r.disconnect_ts, r.disconnect_reason, r.store_id, r.queue_arn, r.queue_name, r.enqueue_ts, r.dequeue_ts, r.queue_duration_s, r.connected_to_agent_ts, r.agent_interaction_s, r.customer_hold_s, r.acw_s, r.agent_connection_attempts, r.transfer_completed_ts,
               o.initiation_method AS old_next_method, n.initiation_method AS new_next_method
        -- One scan of each partition's next_contact_id index for all the batch's ids,
        -- not one probe of every partition per batch contact.
        FROM contact_record r
        CROSS JOIN LATERAL (
            -- r's next contact, in the batch: read only for the contacts found.
            SELECT x.initiation_method FROM contact_record x WHERE x.contact_id = r.next_contact_id OFFSET 0
        ) AS n
        LEFT JOIN pre o ON o.contact_id = r.next_contact_id
        -- Only a written contact whose new or replaced version is a callback or a
        -- transfer can change the outcome of a contact that names it as next.
        WHERE r.next_contact_id = ANY (ARRAY(
                  SELECT w.contact_id FROM pg_temp.rollup_written_contact w
                  WHERE w.initiation_method IN ('CALLBACK', 'QUEUE_TRANSFER', 'TRANSFER')
                  UNION ALL
                  SELECT p.contact_id FROM pre p WHERE p.initiation_method IN ('CALLBACK', 'QUEUE_TRANSFER', 'TRANSFER')))
          AND NOT EXISTS (SELECT 1 FROM batch b WHERE b.contact_id = r.contact_id)
    ), side AS (
        SELECT 1 AS sign, r.contact_id, r.initial_contact_id, r.next_contact_id, r.initiation_method, r.initiation_ts, r.disconnect_ts, r.disconnect_reason, r.store_id, r.queue_arn, r.queue_name, r.enqueue_ts, r.dequeue_ts, r.queue_duration_s, r.connected_to_agent_ts, r.agent_interaction_s, r.customer_hold_s, r.acw_s, r.agent_connection_attempts, r.transfer_completed_ts,
               n.initiation_method AS next_initiation_method
        FROM pg_temp.rollup_written_contact r
        LEFT JOIN LATERAL (
            SELECT x.initiation_method FROM contact_record x
            WHERE r.next_contact_id IS NOT NULL AND x.contact_id = r.next_contact_id OFFSET 0
        ) AS n ON true
        UNION ALL
        SELECT -1, p.contact_id, p.initial_contact_id, p.next_contact_id, p.initiation_method, p.initiation_ts, p.disconnect_ts, p.disconnect_reason, p.store_id, p.queue_arn, p.queue_name, p.enqueue_ts, p.dequeue_ts, p.queue_duration_s, p.connected_to_agent_ts, p.agent_interaction_s, p.customer_hold_s, p.acw_s, p.agent_connection_attempts, p.transfer_completed_ts,
               CASE WHEN nb.contact_id IS NULL THEN n.initiation_method ELSE np.initiation_method END
        FROM pre p
        LEFT JOIN batch nb ON nb.contact_id = p.next_contact_id
        LEFT JOIN pre np ON np.contact_id = p.next_contact_id
        LEFT JOIN LATERAL (
            SELECT x.initiation_method FROM contact_record x
            WHERE p.next_contact_id IS NOT NULL AND x.contact_id = p.next_contact_id OFFSET 0
        ) AS n ON true
        UNION ALL
        SELECT s.sign, d.contact_id, d.initial_contact_id, d.next_contact_id, d.initiation_method, d.initiation_ts, d.disconnect_ts, d.disconnect_reason, d.store_id, d.queue_arn, d.queue_name, d.enqueue_ts, d.dequeue_ts, d.queue_duration_s, d.connected_to_agent_ts, d.agent_interaction_s, d.customer_hold_s, d.acw_s, d.agent_connection_attempts, d.transfer_completed_ts,
               CASE WHEN s.sign > 0 THEN d.new_next_method ELSE d.old_next_method END
        FROM previous d CROSS JOIN (VALUES (1), (-1)) AS s(sign)
        WHERE d.old_next_method IS DISTINCT FROM d.new_next_method
    ), base AS (
    SELECT side.*,
           coalesce(queue_arn, queue_name) AS queue,
           enqueue_ts IS NOT NULL AND coalesce(queue_arn, queue_name) IS NOT NULL AS queued,
           connected_to_agent_ts IS NOT NULL AS handled,
           CASE WHEN enqueue_ts IS NOT NULL THEN coalesce(
               queue_duration_s,
               greatest(0, floor(extract(epoch FROM
                   coalesce(dequeue_ts, connected_to_agent_ts, disconnect_ts) - enqueue_ts)))::integer)
           END AS queue_s
    FROM side
), classified AS (
    SELECT base.*,
           queued AND handled AS answered,
           queued AND NOT handled AND next_contact_id IS NULL AND transfer_completed_ts IS NULL
               AND coalesce(disconnect_reason = 'CUSTOMER_DISCONNECT', false) AS abandoned,
           queued AND NOT handled AND coalesce(next_initiation_method = 'CALLBACK', false)
               AS callback_requested,
           coalesce(next_initiation_method = 'QUEUE_TRANSFER', false) AS transferred_out_queue,
           -- Connect's "Contacts transferred out by agent": to a queue or an agent (the next leg is a
           -- TRANSFER) or to an external number (transfer completed); a contact that is both, once.
           handled AND (coalesce(next_initiation_method = 'TRANSFER', false) OR transfer_completed_ts IS NOT NULL)
               AS transferred_out_by_agent,
           transfer_completed_ts IS NOT NULL AS transferred_out_external
    FROM base
), outcome AS MATERIALIZED (
    SELECT sign, store_id, initiation_ts, initiation_method, queue, queue_name, next_contact_id,
           rollup_interval(enqueue_ts) AS interval_start,
           initial_contact_id IS NULL OR initial_contact_id = contact_id AS first_contact,
           queue_s, queued, handled, answered, abandoned, callback_requested,
           transferred_out_queue OR transferred_out_by_agent OR transferred_out_external AS transferred_out,
           transferred_out_queue, transferred_out_external, transferred_out_by_agent,
           answered AND queue_s <= v_threshold AS answered_within_threshold,
           abandoned AND queue_s <= v_threshold AS abandoned_within_threshold,
           (answered OR abandoned OR callback_requested) AND queue_s <= v_threshold
               AS removed_within_threshold,
           CASE WHEN handled THEN
               coalesce(agent_interaction_s, 0) + coalesce(customer_hold_s, 0) + coalesce(acw_s, 0)
           END AS handle_s,
           acw_s, agent_connection_attempts, customer_hold_s, agent_interaction_s,
           greatest(coalesce(agent_connection_attempts, 0) - CASE WHEN handled THEN 1 ELSE 0 END, 0)
               AS agent_non_response
    FROM classified
    ), queue_delta AS MATERIALIZED (
        SELECT queue, interval_start,
               max(queue_name) FILTER (WHERE sign > 0) AS added_name,
               max(queue_name) FILTER (WHERE sign < 0) AS removed_name,
               max(queue_s) FILTER (WHERE sign > 0) AS added_max,
               max(queue_s) FILTER (WHERE sign < 0) AS removed_max,
               coalesce(sum(sign) FILTER (WHERE true), 0) AS queued,
    coalesce(sum(sign) FILTER (WHERE answered), 0) AS answered,
    coalesce(sum(sign) FILTER (WHERE abandoned), 0) AS abandoned,
    coalesce(sum(sign) FILTER (WHERE callback_requested), 0) AS callbacks_requested,
    coalesce(sum(sign) FILTER (WHERE transferred_out), 0) AS transferred_out,
    coalesce(sum(sign) FILTER (WHERE transferred_out_queue), 0) AS transferred_out_queue,
    coalesce(sum(sign) FILTER (WHERE transferred_out_external), 0) AS transferred_out_external,
    coalesce(sum(sign) FILTER (WHERE answered_within_threshold), 0) AS answered_within_threshold,
    coalesce(sum(sign) FILTER (WHERE abandoned_within_threshold), 0) AS abandoned_within_threshold,
    coalesce(sum(sign) FILTER (WHERE removed_within_threshold), 0) AS removed_within_threshold,
    coalesce(sum(sign * queue_s) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s,
    coalesce(sum(sign) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s_n,
    coalesce(sum(sign * queue_s) FILTER (WHERE abandoned AND queue_s IS NOT NULL), 0) AS abandoned_queue_s,
    coalesce(sum(sign) FILTER (WHERE abandoned AND queue_s IS NOT NULL), 0) AS abandoned_queue_s_n,
    coalesce(sum(sign * handle_s) FILTER (WHERE answered AND handle_s IS NOT NULL), 0) AS answered_handle_s,
    coalesce(sum(sign) FILTER (WHERE answered AND handle_s IS NOT NULL), 0) AS answered_handle_s_n,
    coalesce(sum(sign * acw_s) FILTER (WHERE answered AND acw_s IS NOT NULL), 0) AS answered_acw_s,
    coalesce(sum(sign) FILTER (WHERE answered AND acw_s IS NOT NULL), 0) AS answered_acw_s_n,
    coalesce(sum(sign * agent_connection_attempts), 0) AS agent_connection_attempts,
    coalesce(sum(sign) FILTER (WHERE transferred_out_by_agent), 0) AS transferred_out_by_agent,
    coalesce(sum(sign * coalesce(customer_hold_s, 0)) FILTER (WHERE answered), 0) AS answered_hold_s,
    coalesce(sum(sign) FILTER (WHERE answered AND customer_hold_s > 0), 0) AS answered_held,
    coalesce(sum(sign * agent_interaction_s) FILTER (WHERE answered AND agent_interaction_s IS NOT NULL), 0) AS answered_interaction_s,
    coalesce(sum(sign) FILTER (WHERE answered AND agent_interaction_s IS NOT NULL), 0) AS answered_interaction_s_n,
    coalesce(sum(sign * agent_non_response), 0) AS agent_non_response
        FROM outcome
        WHERE queued
        GROUP BY queue, interval_start
    ), queue_write AS (
        INSERT INTO queue_interval_rollup AS t (queue, interval_start, queue_name, max_queued_s, max_stale,
            queued, answered, abandoned, callbacks_requested, transferred_out, transferred_out_queue, transferred_out_external, answered_within_threshold, abandoned_within_threshold, removed_within_threshold, answered_queue_s, answered_queue_s_n, abandoned_queue_s, abandoned_queue_s_n, answered_handle_s, answered_handle_s_n, answered_acw_s, answered_acw_s_n, agent_connection_attempts, transferred_out_by_agent, answered_hold_s, answered_held, answered_interaction_s, answered_interaction_s_n, agent_non_response)
        SELECT d.queue, d.interval_start, d.added_name, d.added_max,
               -- A removal no addition covers may have been the bucket's maximum (or greatest name).
               CASE WHEN u.max_s IS NULL AND u.name IS NULL THEN false
                    WHEN e.present IS NULL THEN true
                    ELSE coalesce(u.max_s >= e.max_queued_s, false) OR coalesce(u.name >= e.queue_name, false)
               END,
               d.queued, d.answered, d.abandoned, d.callbacks_requested, d.transferred_out, d.transferred_out_queue, d.transferred_out_external, d.answered_within_threshold, d.abandoned_within_threshold, d.removed_within_threshold, d.answered_queue_s, d.answered_queue_s_n, d.abandoned_queue_s, d.abandoned_queue_s_n, d.answered_handle_s, d.answered_handle_s_n, d.answered_acw_s, d.answered_acw_s_n, d.agent_connection_attempts,
               d.transferred_out_by_agent, d.answered_hold_s, d.answered_held, d.answered_interaction_s,
               d.answered_interaction_s_n, d.agent_non_response
        FROM queue_delta d
        CROSS JOIN LATERAL (
            SELECT CASE WHEN d.added_max >= d.removed_max THEN NULL ELSE d.removed_max END AS max_s,
                   CASE WHEN d.added_name >= d.removed_name THEN NULL ELSE d.removed_name END AS name
        ) AS u
        LEFT JOIN LATERAL (
            -- Read only for uncovered removals: a one-time filter skips the probe.
            SELECT true AS present, x.max_queued_s, x.queue_name FROM queue_interval_rollup x
            WHERE (u.max_s IS NOT NULL OR u.name IS NOT NULL)
              AND x.queue = d.queue AND x.interval_start = d.interval_start OFFSET 0
        ) AS e ON true
        ON CONFLICT (queue, interval_start) DO UPDATE SET
            queued = t.queued + EXCLUDED.queued,
    answered = t.answered + EXCLUDED.answered,
    abandoned = t.abandoned + EXCLUDED.abandoned,
    callbacks_requested = t.callbacks_requested + EXCLUDED.callbacks_requested,
    transferred_out = t.transferred_out + EXCLUDED.transferred_out,
    transferred_out_queue = t.transferred_out_queue + EXCLUDED.transferred_out_queue,
    transferred_out_external = t.transferred_out_external + EXCLUDED.transferred_out_external,
    answered_within_threshold = t.answered_within_threshold + EXCLUDED.answered_within_threshold,
    abandoned_within_threshold = t.abandoned_within_threshold + EXCLUDED.abandoned_within_threshold,
    removed_within_threshold = t.removed_within_threshold + EXCLUDED.removed_within_threshold,
    answered_queue_s = t.answered_queue_s + EXCLUDED.answered_queue_s,
    answered_queue_s_n = t.answered_queue_s_n + EXCLUDED.answered_queue_s_n,
    abandoned_queue_s = t.abandoned_queue_s + EXCLUDED.abandoned_queue_s,
    abandoned_queue_s_n = t.abandoned_queue_s_n + EXCLUDED.abandoned_queue_s_n,
    answered_handle_s = t.answered_handle_s + EXCLUDED.answered_handle_s,
    answered_handle_s_n = t.answered_handle_s_n + EXCLUDED.answered_handle_s_n,
    answered_acw_s = t.answered_acw_s + EXCLUDED.answered_acw_s,
    answered_acw_s_n = t.answered_acw_s_n + EXCLUDED.answered_acw_s_n,
    agent_connection_attempts = t.agent_connection_attempts + EXCLUDED.agent_connection_attempts,
    transferred_out_by_agent = t.transferred_out_by_agent + EXCLUDED.transferred_out_by_agent,
    answered_hold_s = t.answered_hold_s + EXCLUDED.answered_hold_s,
    answered_held = t.answered_held + EXCLUDED.answered_held,
    answered_interaction_s = t.answered_interaction_s + EXCLUDED.answered_interaction_s,
    answered_interaction_s_n = t.answered_interaction_s_n + EXCLUDED.answered_interaction_s_n,
    agent_non_response = t.agent_non_response + EXCLUDED.agent_non_response,
            queue_name = greatest(t.queue_name, EXCLUDED.queue_name),
            max_queued_s = greatest(t.max_queued_s, EXCLUDED.max_queued_s),
            max_stale = t.max_stale OR EXCLUDED.max_stale
        RETURNING 1
    ), located AS MATERIALIZED (
        SELECT o.*, o.store_id IS NULL AS no_store,
               (o.initiation_ts AT TIME ZONE coalesce(s.time_zone, v_time_zone))::date AS local_date
        FROM outcome o
        LEFT JOIN store s ON s.store_id = o.store_id
        WHERE o.initiation_ts IS NOT NULL
    ), day_key AS MATERIALIZED (
        -- store_business_day_at and day_type once per (store, local date) of the batch: a
        -- contact before its store's previous business day closed belongs to that day.
        SELECT k.store_id, k.no_store, k.local_date,
               (SELECT p.closes_at FROM store_business_day p
                WHERE p.store_id = k.store_id AND p.business_date = k.local_date - 1) AS previous_closes_at,
               coalesce(
                   (SELECT d.day_type FROM store_business_day d
                    WHERE d.store_id = k.store_id AND d.business_date = k.local_date),
                   -- Scalar subqueries, not EXISTS: a hashed EXISTS reads the whole calendar.
                   CASE WHEN (SELECT true FROM calendar_day h WHERE h.day = k.local_date) THEN 'holiday'
                        WHEN (SELECT true FROM calendar_day h WHERE h.day = k.local_date + 1) THEN 'pre_holiday'
                        WHEN extract(isodow FROM k.local_date) IN (6, 7) THEN 'weekend'
                        ELSE 'weekday' END) AS day_type,
               coalesce(
                   (SELECT d.day_type FROM store_business_day d
                    WHERE d.store_id = k.store_id AND d.business_date = k.local_date - 1),
                   -- Scalar subqueries, not EXISTS: a hashed EXISTS reads the whole calendar.
                   CASE WHEN (SELECT true FROM calendar_day h WHERE h.day = k.local_date - 1) THEN 'holiday'
                        WHEN (SELECT true FROM calendar_day h WHERE h.day = k.local_date - 1 + 1) THEN 'pre_holiday'
                        WHEN extract(isodow FROM k.local_date - 1) IN (6, 7) THEN 'weekend'
                        ELSE 'weekday' END) AS previous_day_type
        FROM (SELECT DISTINCT store_id, no_store, local_date FROM located) AS k
    ), store_delta AS (
        SELECT coalesce(l.store_id, '(unknown)') AS store_id, b.business_date, b.day_type,
               coalesce(sum(l.sign) FILTER (WHERE first_contact), 0) AS contacts,
    coalesce(sum(l.sign) FILTER (WHERE true), 0) AS contact_records,
    coalesce(sum(l.sign) FILTER (WHERE first_contact AND NOT queued AND NOT handled AND next_contact_id IS NULL), 0) AS ended_in_flow,
    coalesce(sum(l.sign) FILTER (WHERE queued), 0) AS queued,
    coalesce(sum(l.sign) FILTER (WHERE answered), 0) AS answered,
    coalesce(sum(l.sign) FILTER (WHERE abandoned), 0) AS abandoned,
    coalesce(sum(l.sign) FILTER (WHERE callback_requested), 0) AS callbacks_requested,
    coalesce(sum(l.sign) FILTER (WHERE handled), 0) AS contacts_handled,
    coalesce(sum(l.sign) FILTER (WHERE handled AND initiation_method IN ('INBOUND', 'TRANSFER', 'QUEUE_TRANSFER')), 0) AS contacts_handled_incoming,
    coalesce(sum(l.sign) FILTER (WHERE handled AND initiation_method = 'OUTBOUND'), 0) AS contacts_handled_outbound,
    coalesce(sum(l.sign) FILTER (WHERE handled AND initiation_method = 'CALLBACK'), 0) AS callback_contacts_handled,
    coalesce(sum(l.sign) FILTER (WHERE transferred_out), 0) AS transferred_out,
    coalesce(sum(l.sign) FILTER (WHERE transferred_out_external), 0) AS transferred_out_external,
    coalesce(sum(l.sign) FILTER (WHERE removed_within_threshold), 0) AS removed_within_threshold,
    coalesce(sum(l.sign) FILTER (WHERE answered_within_threshold), 0) AS answered_within_threshold,
    coalesce(sum(l.sign * queue_s) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s,
    coalesce(sum(l.sign) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s_n,
    coalesce(sum(l.sign * handle_s) FILTER (WHERE handled AND handle_s IS NOT NULL), 0) AS handled_handle_s,
    coalesce(sum(l.sign) FILTER (WHERE handled AND handle_s IS NOT NULL), 0) AS handled_handle_s_n,
    coalesce(sum(l.sign * acw_s) FILTER (WHERE handled AND acw_s IS NOT NULL), 0) AS handled_acw_s,
    coalesce(sum(l.sign) FILTER (WHERE handled AND acw_s IS NOT NULL), 0) AS handled_acw_s_n,
    coalesce(sum(l.sign * agent_connection_attempts), 0) AS agent_connection_attempts
        FROM located l
        JOIN day_key k ON k.no_store = l.no_store AND coalesce(k.store_id, '') = coalesce(l.store_id, '')
            AND k.local_date = l.local_date
        CROSS JOIN LATERAL (
            SELECT CASE WHEN l.initiation_ts < k.previous_closes_at THEN l.local_date - 1
                        ELSE l.local_date END AS business_date,
                   CASE WHEN l.initiation_ts < k.previous_closes_at THEN k.previous_day_type
                        ELSE k.day_type END AS day_type
        ) AS b
        GROUP BY 1, 2, 3
    )
    INSERT INTO store_day_rollup AS t (store_id, business_date, day_type,
        contacts, contact_records, ended_in_flow, queued, answered, abandoned, callbacks_requested, contacts_handled, contacts_handled_incoming, contacts_handled_outbound, callback_contacts_handled, transferred_out, transferred_out_external, removed_within_threshold, answered_within_threshold, answered_queue_s, answered_queue_s_n, handled_handle_s, handled_handle_s_n, handled_acw_s, handled_acw_s_n, agent_connection_attempts)
    SELECT store_id, business_date, day_type,
           contacts, contact_records, ended_in_flow, queued, answered, abandoned, callbacks_requested, contacts_handled, contacts_handled_incoming, contacts_handled_outbound, callback_contacts_handled, transferred_out, transferred_out_external, removed_within_threshold, answered_within_threshold, answered_queue_s, answered_queue_s_n, handled_handle_s, handled_handle_s_n, handled_acw_s, handled_acw_s_n, agent_connection_attempts
    FROM store_delta
    ON CONFLICT (store_id, business_date, day_type) DO UPDATE SET
        contacts = t.contacts + EXCLUDED.contacts,
    contact_records = t.contact_records + EXCLUDED.contact_records,
    ended_in_flow = t.ended_in_flow + EXCLUDED.ended_in_flow,
    queued = t.queued + EXCLUDED.queued,
    answered = t.answered + EXCLUDED.answered,
    abandoned = t.abandoned + EXCLUDED.abandoned,
    callbacks_requested = t.callbacks_requested + EXCLUDED.callbacks_requested,
    contacts_handled = t.contacts_handled + EXCLUDED.contacts_handled,
    contacts_handled_incoming = t.contacts_handled_incoming + EXCLUDED.contacts_handled_incoming,
    contacts_handled_outbound = t.contacts_handled_outbound + EXCLUDED.contacts_handled_outbound,
    callback_contacts_handled = t.callback_contacts_handled + EXCLUDED.callback_contacts_handled,
    transferred_out = t.transferred_out + EXCLUDED.transferred_out,
    transferred_out_external = t.transferred_out_external + EXCLUDED.transferred_out_external,
    removed_within_threshold = t.removed_within_threshold + EXCLUDED.removed_within_threshold,
    answered_within_threshold = t.answered_within_threshold + EXCLUDED.answered_within_threshold,
    answered_queue_s = t.answered_queue_s + EXCLUDED.answered_queue_s,
    answered_queue_s_n = t.answered_queue_s_n + EXCLUDED.answered_queue_s_n,
    handled_handle_s = t.handled_handle_s + EXCLUDED.handled_handle_s,
    handled_handle_s_n = t.handled_handle_s_n + EXCLUDED.handled_handle_s_n,
    handled_acw_s = t.handled_acw_s + EXCLUDED.handled_acw_s,
    handled_acw_s_n = t.handled_acw_s_n + EXCLUDED.handled_acw_s_n,
    agent_connection_attempts = t.agent_connection_attempts + EXCLUDED.agent_connection_attempts;

    -- A removed value may have been its bucket's maximum: recompute those from the raw rows.
    IF EXISTS (SELECT 1 FROM queue_interval_rollup WHERE max_stale) THEN
    UPDATE queue_interval_rollup t
    SET max_queued_s = m.max_queued_s, queue_name = m.queue_name, max_stale = false
    FROM (
        SELECT s.queue, s.interval_start, x.max_queued_s, x.queue_name
        FROM queue_interval_rollup s
        CROSS JOIN LATERAL (
            SELECT max(o.queue_s) AS max_queued_s, max(o.queue_name) AS queue_name
            FROM contact_outcome o
            WHERE o.queued AND o.queue = s.queue
              AND o.enqueue_ts >= s.interval_start AND o.enqueue_ts < s.interval_start + interval '15 minutes'
        ) AS x
        WHERE s.max_stale
    ) AS m
    WHERE t.max_stale AND t.queue = m.queue AND t.interval_start = m.interval_start;
    END IF;

    DELETE FROM pg_temp.rollup_replaced_contact;
    DELETE FROM pg_temp.rollup_written_contact;
END
$$;

--
-- Name: FUNCTION rollup_apply_written(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.rollup_apply_written() IS 'Applies the contacts this transaction wrote (stashed by the ingest''s upsert, and the versions it replaced by the trigger on contact_record) to queue_interval_rollup and store_day_rollup. Called by the ingest writer after its upsert.';

--
-- Name: rollup_definitions_fingerprint(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.rollup_definitions_fingerprint() RETURNS text
    LANGUAGE sql STABLE
    AS $$
    SELECT md5(concat_ws('|',
        analytics_threshold_seconds()::text,
        analytics_time_zone(),
        (SELECT string_agg(concat_ws(',', store_id, time_zone), ';' ORDER BY store_id) FROM store),
        (SELECT string_agg(day::text, ';' ORDER BY day) FROM calendar_day)))
$$;

--
-- Name: rollup_ensure_stash(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.rollup_ensure_stash() RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF to_regclass('pg_temp.rollup_replaced_contact') IS NULL THEN
        CREATE TEMP TABLE rollup_replaced_contact (
            contact_id text, initial_contact_id text, next_contact_id text,
            initiation_method text, initiation_ts timestamptz, disconnect_ts timestamptz,
            disconnect_reason text, store_id text, queue_arn text, queue_name text, enqueue_ts timestamptz,
            dequeue_ts timestamptz, queue_duration_s integer, connected_to_agent_ts timestamptz,
            agent_interaction_s integer, customer_hold_s integer, acw_s integer,
            agent_connection_attempts integer, transfer_completed_ts timestamptz
        ) ON COMMIT DELETE ROWS;
    END IF;
    IF to_regclass('pg_temp.rollup_written_contact') IS NULL THEN
        CREATE TEMP TABLE rollup_written_contact (LIKE pg_temp.rollup_replaced_contact) ON COMMIT DELETE ROWS;
    END IF;
END
$$;

--
-- Name: rollup_insert_agents(text[], timestamp with time zone[], timestamp with time zone[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.rollup_insert_agents(p_agents text[], p_lo timestamp with time zone[], p_hi timestamp with time zone[]) RETURNS void
    LANGUAGE plpgsql
    SET plan_cache_mode TO 'force_custom_plan'
    SET jit TO 'off'
    AS $$
BEGIN
    WITH g AS (
        SELECT * FROM unnest(p_agents, p_lo, p_hi) AS g(agent_arn, lo, hi)
    ), segment AS (
        SELECT g.lo, g.hi, e.agent_arn, e.username,
               agent_event_activity(e.event_type, e.contact_state, e.status_type) AS activity,
               coalesce(e.status_name, e.status_type, e.activity) AS status_name,
               e.status_type,
               e.event_ts AS start_ts,
               least(coalesce(lead(e.event_ts) OVER w, e.event_ts + interval '10 minutes'),
                     e.event_ts + interval '10 minutes') AS end_ts
        FROM g
        JOIN agent_event e ON e.agent_arn = g.agent_arn
            AND e.event_ts >= g.lo - interval '10 minutes' AND e.event_ts < g.hi + interval '25 minutes'
        WINDOW w AS (PARTITION BY e.agent_arn, g.lo ORDER BY e.event_ts, e.event_id)
    ), piece AS (
        SELECT s.agent_arn, s.username, i.interval_start, s.activity, s.status_name, s.status_type,
               extract(epoch FROM least(s.end_ts, i.interval_start + interval '15 minutes')
                                - greatest(s.start_ts, i.interval_start)) AS seconds
        FROM segment s
        CROSS JOIN LATERAL generate_series(
            rollup_interval(s.start_ts), s.end_ts - interval '1 microsecond', interval '15 minutes'
        ) AS i(interval_start)
        WHERE s.end_ts > s.start_ts AND i.interval_start BETWEEN s.lo AND s.hi
    ), narrow AS (
        INSERT INTO agent_status_rollup (agent_arn, interval_start, activity, status_name, status_type,
            username, seconds)
        SELECT agent_arn, interval_start, activity, status_name, status_type, max(username), sum(seconds)
        FROM piece
        GROUP BY agent_arn, interval_start, activity, status_name, status_type
        -- In time order, as the ingest writes them: a day's rows share pages.
        ORDER BY interval_start, agent_arn
        RETURNING *
    )
    -- The wide rows from the narrow ones just written, each status's seconds rounded first.
    INSERT INTO agent_interval_rollup (agent_arn, interval_start, username, available_s, connecting_s,
        on_contact_s, after_contact_work_s, error_s, custom_status_s, offline_s, agent_on_contact_s,
        agent_idle_s)
    SELECT s.agent_arn, s.interval_start, max(s.username),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'available'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'connecting'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'onContact'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'afterContactWork'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'error'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'customStatus'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'offline'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (
               WHERE s.activity IN ('onContact', 'afterContactWork') AND s.status_type = 'ROUTABLE'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (
               WHERE s.activity IN ('available', 'error') AND s.status_type = 'ROUTABLE'), 0)
    FROM narrow s
    GROUP BY s.agent_arn, s.interval_start
    ORDER BY s.interval_start, s.agent_arn;
END
$$;

--
-- Name: rollup_insert_agents_by_key(text[], timestamp with time zone[], timestamp with time zone[]); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.rollup_insert_agents_by_key(p_agents text[], p_lo timestamp with time zone[], p_hi timestamp with time zone[]) RETURNS void
    LANGUAGE plpgsql
    SET plan_cache_mode TO 'force_custom_plan'
    SET jit TO 'off'
    AS $$
BEGIN
    WITH g AS (
        SELECT * FROM unnest(p_agents, p_lo, p_hi) AS g(agent_arn, lo, hi)
    ), segment AS (
        SELECT g.lo, g.hi, e.agent_arn, e.username,
               agent_event_activity(e.event_type, e.contact_state, e.status_type) AS activity,
               coalesce(e.status_name, e.status_type, e.activity) AS status_name,
               e.status_type,
               e.event_ts AS start_ts,
               least(coalesce(lead(e.event_ts) OVER w, e.event_ts + interval '10 minutes'),
                     e.event_ts + interval '10 minutes') AS end_ts
        FROM g
        -- OFFSET 0 keeps it one index range scan per agent: joined, the planner hashed
        -- the agents against every event. Only the columns read: not the raw JSON.
        CROSS JOIN LATERAL (
            SELECT x.agent_arn, x.event_id, x.event_ts, x.event_type, x.username, x.status_name,
                   x.status_type, x.activity, x.contact_state
            FROM agent_event x
            WHERE x.agent_arn = g.agent_arn
              AND x.event_ts >= g.lo - interval '10 minutes' AND x.event_ts < g.hi + interval '25 minutes'
            OFFSET 0
        ) AS e
        WINDOW w AS (PARTITION BY e.agent_arn, g.lo ORDER BY e.event_ts, e.event_id)
    ), piece AS (
        SELECT s.agent_arn, s.username, i.interval_start, s.activity, s.status_name, s.status_type,
               extract(epoch FROM least(s.end_ts, i.interval_start + interval '15 minutes')
                                - greatest(s.start_ts, i.interval_start)) AS seconds
        FROM segment s
        CROSS JOIN LATERAL generate_series(
            rollup_interval(s.start_ts), s.end_ts - interval '1 microsecond', interval '15 minutes'
        ) AS i(interval_start)
        WHERE s.end_ts > s.start_ts AND i.interval_start BETWEEN s.lo AND s.hi
    ), narrow AS (
        INSERT INTO agent_status_rollup (agent_arn, interval_start, activity, status_name, status_type,
            username, seconds)
        SELECT agent_arn, interval_start, activity, status_name, status_type, max(username), sum(seconds)
        FROM piece
        GROUP BY agent_arn, interval_start, activity, status_name, status_type
        -- In time order, as the ingest writes them: a day's rows share pages.
        ORDER BY interval_start, agent_arn
        RETURNING *
    )
    -- The wide rows from the narrow ones just written, each status's seconds rounded first.
    INSERT INTO agent_interval_rollup (agent_arn, interval_start, username, available_s, connecting_s,
        on_contact_s, after_contact_work_s, error_s, custom_status_s, offline_s, agent_on_contact_s,
        agent_idle_s)
    SELECT s.agent_arn, s.interval_start, max(s.username),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'available'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'connecting'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'onContact'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'afterContactWork'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'error'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'customStatus'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (WHERE s.activity = 'offline'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (
               WHERE s.activity IN ('onContact', 'afterContactWork') AND s.status_type = 'ROUTABLE'), 0),
           coalesce(sum(round(s.seconds, 3)) FILTER (
               WHERE s.activity IN ('available', 'error') AND s.status_type = 'ROUTABLE'), 0)
    FROM narrow s
    GROUP BY s.agent_arn, s.interval_start
    ORDER BY s.interval_start, s.agent_arn;
END
$$;

--
-- Name: FUNCTION rollup_insert_agents_by_key(p_agents text[], p_lo timestamp with time zone[], p_hi timestamp with time zone[]); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.rollup_insert_agents_by_key(p_agents text[], p_lo timestamp with time zone[], p_hi timestamp with time zone[]) IS 'rollup_insert_agents reading each agent''s events by its index: the ingest''s upkeep (rollup_apply_agents), whose batches are small next to the history. The rebuild reads whole ranges with rollup_insert_agents.';

--
-- Name: rollup_instant(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.rollup_instant(p_value text) RETURNS timestamp with time zone
    LANGUAGE sql STABLE
    AS $_$
    SELECT CASE WHEN p_value ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
                THEN p_value::date::timestamp AT TIME ZONE analytics_time_zone()
                ELSE p_value::timestamptz END
$_$;

--
-- Name: FUNCTION rollup_instant(p_value text); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.rollup_instant(p_value text) IS 'A date (its midnight in analytics_time_zone()) or a timestamptz, as switchboard rollup rebuild --from/--to take them.';

--
-- Name: rollup_lock(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.rollup_lock() RETURNS void
    LANGUAGE sql
    AS $$ SELECT pg_advisory_xact_lock(1398227538) $$;

--
-- Name: rollup_rebuild(timestamp with time zone, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.rollup_rebuild(p_from timestamp with time zone, p_to timestamp with time zone) RETURNS void
    LANGUAGE plpgsql
    SET jit TO 'off'
    AS $$
DECLARE
    v_lo timestamptz := coalesce(rollup_interval(p_from), '-infinity');
    v_hi timestamptz := coalesce(rollup_interval(p_to - interval '1 microsecond') + interval '15 minutes',
                                 'infinity');
    v_agents text[];
    v_first timestamptz[];
    v_last timestamptz[];
BEGIN
    PERFORM rollup_lock();
    PERFORM rollup_rebuild_contacts(p_from, p_to);
    DELETE FROM agent_status_rollup WHERE interval_start >= v_lo AND interval_start < v_hi;
    DELETE FROM agent_interval_rollup WHERE interval_start >= v_lo AND interval_start < v_hi;
    SELECT array_agg(agent_arn), array_agg(greatest(lo, v_lo)),
           array_agg(least(hi, v_hi - interval '15 minutes'))
    INTO v_agents, v_first, v_last
    FROM (
        SELECT agent_arn, rollup_interval(min(event_ts)) AS lo,
               rollup_interval(max(event_ts) + interval '10 minutes') AS hi
        FROM agent_event
        WHERE event_ts >= v_lo - interval '10 minutes' AND event_ts < v_hi
        GROUP BY agent_arn
    ) AS a;
    IF v_agents IS NOT NULL THEN
        PERFORM rollup_insert_agents(v_agents, v_first, v_last);
    END IF;
END
$$;

--
-- Name: FUNCTION rollup_rebuild(p_from timestamp with time zone, p_to timestamp with time zone); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.rollup_rebuild(p_from timestamp with time zone, p_to timestamp with time zone) IS 'Recomputes every rollup from the raw tables for [p_from, p_to) (NULL: unbounded), widened to whole intervals; store days for the business dates (in analytics_time_zone()) of that range. Raw rows dropped by retention are gone: rebuild only ranges whose raw rows are kept.';

--
-- Name: rollup_rebuild_contacts(timestamp with time zone, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.rollup_rebuild_contacts(p_from timestamp with time zone, p_to timestamp with time zone) RETURNS void
    LANGUAGE plpgsql
    SET jit TO 'off'
    AS $$
DECLARE
    v_lo timestamptz := coalesce(rollup_interval(p_from), '-infinity');
    v_hi timestamptz := coalesce(rollup_interval(p_to - interval '1 microsecond') + interval '15 minutes',
                                 'infinity');
    v_first date := (p_from AT TIME ZONE analytics_time_zone())::date;
    v_last date := ((p_to - interval '1 microsecond') AT TIME ZONE analytics_time_zone())::date;
    v_threshold integer := analytics_threshold_seconds();
    v_time_zone text := analytics_time_zone();
BEGIN
    PERFORM rollup_lock();
    DELETE FROM queue_interval_rollup WHERE interval_start >= v_lo AND interval_start < v_hi;
    WITH side AS (
        SELECT 1 AS sign, r.contact_id, r.initial_contact_id, r.next_contact_id, r.initiation_method, r.initiation_ts, r.disconnect_ts, r.disconnect_reason, r.store_id, r.queue_arn, r.queue_name, r.enqueue_ts, r.dequeue_ts, r.queue_duration_s, r.connected_to_agent_ts, r.agent_interaction_s, r.customer_hold_s, r.acw_s, r.agent_connection_attempts, r.transfer_completed_ts, n.initiation_method AS next_initiation_method
        FROM contact_record r
        LEFT JOIN contact_record n ON n.contact_id = r.next_contact_id
        WHERE r.enqueue_ts >= v_lo AND r.enqueue_ts < v_hi
    ), base AS (
    SELECT side.*,
           coalesce(queue_arn, queue_name) AS queue,
           enqueue_ts IS NOT NULL AND coalesce(queue_arn, queue_name) IS NOT NULL AS queued,
           connected_to_agent_ts IS NOT NULL AS handled,
           CASE WHEN enqueue_ts IS NOT NULL THEN coalesce(
               queue_duration_s,
               greatest(0, floor(extract(epoch FROM
                   coalesce(dequeue_ts, connected_to_agent_ts, disconnect_ts) - enqueue_ts)))::integer)
           END AS queue_s
    FROM side
), classified AS (
    SELECT base.*,
           queued AND handled AS answered,
           queued AND NOT handled AND next_contact_id IS NULL AND transfer_completed_ts IS NULL
               AND coalesce(disconnect_reason = 'CUSTOMER_DISCONNECT', false) AS abandoned,
           queued AND NOT handled AND coalesce(next_initiation_method = 'CALLBACK', false)
               AS callback_requested,
           coalesce(next_initiation_method = 'QUEUE_TRANSFER', false) AS transferred_out_queue,
           -- Connect's "Contacts transferred out by agent": to a queue or an agent (the next leg is a
           -- TRANSFER) or to an external number (transfer completed); a contact that is both, once.
           handled AND (coalesce(next_initiation_method = 'TRANSFER', false) OR transfer_completed_ts IS NOT NULL)
               AS transferred_out_by_agent,
           transfer_completed_ts IS NOT NULL AS transferred_out_external
    FROM base
), outcome AS (
    SELECT sign, store_id, initiation_ts, initiation_method, queue, queue_name, next_contact_id,
           rollup_interval(enqueue_ts) AS interval_start,
           initial_contact_id IS NULL OR initial_contact_id = contact_id AS first_contact,
           queue_s, queued, handled, answered, abandoned, callback_requested,
           transferred_out_queue OR transferred_out_by_agent OR transferred_out_external AS transferred_out,
           transferred_out_queue, transferred_out_external, transferred_out_by_agent,
           answered AND queue_s <= v_threshold AS answered_within_threshold,
           abandoned AND queue_s <= v_threshold AS abandoned_within_threshold,
           (answered OR abandoned OR callback_requested) AND queue_s <= v_threshold
               AS removed_within_threshold,
           CASE WHEN handled THEN
               coalesce(agent_interaction_s, 0) + coalesce(customer_hold_s, 0) + coalesce(acw_s, 0)
           END AS handle_s,
           acw_s, agent_connection_attempts, customer_hold_s, agent_interaction_s,
           greatest(coalesce(agent_connection_attempts, 0) - CASE WHEN handled THEN 1 ELSE 0 END, 0)
               AS agent_non_response
    FROM classified
    )
    INSERT INTO queue_interval_rollup (queue, interval_start, queue_name, max_queued_s,
        queued, answered, abandoned, callbacks_requested, transferred_out, transferred_out_queue, transferred_out_external, answered_within_threshold, abandoned_within_threshold, removed_within_threshold, answered_queue_s, answered_queue_s_n, abandoned_queue_s, abandoned_queue_s_n, answered_handle_s, answered_handle_s_n, answered_acw_s, answered_acw_s_n, agent_connection_attempts, transferred_out_by_agent, answered_hold_s, answered_held, answered_interaction_s, answered_interaction_s_n, agent_non_response)
    SELECT queue, interval_start, max(queue_name), max(queue_s),
           coalesce(sum(sign) FILTER (WHERE true), 0) AS queued,
    coalesce(sum(sign) FILTER (WHERE answered), 0) AS answered,
    coalesce(sum(sign) FILTER (WHERE abandoned), 0) AS abandoned,
    coalesce(sum(sign) FILTER (WHERE callback_requested), 0) AS callbacks_requested,
    coalesce(sum(sign) FILTER (WHERE transferred_out), 0) AS transferred_out,
    coalesce(sum(sign) FILTER (WHERE transferred_out_queue), 0) AS transferred_out_queue,
    coalesce(sum(sign) FILTER (WHERE transferred_out_external), 0) AS transferred_out_external,
    coalesce(sum(sign) FILTER (WHERE answered_within_threshold), 0) AS answered_within_threshold,
    coalesce(sum(sign) FILTER (WHERE abandoned_within_threshold), 0) AS abandoned_within_threshold,
    coalesce(sum(sign) FILTER (WHERE removed_within_threshold), 0) AS removed_within_threshold,
    coalesce(sum(sign * queue_s) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s,
    coalesce(sum(sign) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s_n,
    coalesce(sum(sign * queue_s) FILTER (WHERE abandoned AND queue_s IS NOT NULL), 0) AS abandoned_queue_s,
    coalesce(sum(sign) FILTER (WHERE abandoned AND queue_s IS NOT NULL), 0) AS abandoned_queue_s_n,
    coalesce(sum(sign * handle_s) FILTER (WHERE answered AND handle_s IS NOT NULL), 0) AS answered_handle_s,
    coalesce(sum(sign) FILTER (WHERE answered AND handle_s IS NOT NULL), 0) AS answered_handle_s_n,
    coalesce(sum(sign * acw_s) FILTER (WHERE answered AND acw_s IS NOT NULL), 0) AS answered_acw_s,
    coalesce(sum(sign) FILTER (WHERE answered AND acw_s IS NOT NULL), 0) AS answered_acw_s_n,
    coalesce(sum(sign * agent_connection_attempts), 0) AS agent_connection_attempts,
    coalesce(sum(sign) FILTER (WHERE transferred_out_by_agent), 0) AS transferred_out_by_agent,
    coalesce(sum(sign * coalesce(customer_hold_s, 0)) FILTER (WHERE answered), 0) AS answered_hold_s,
    coalesce(sum(sign) FILTER (WHERE answered AND customer_hold_s > 0), 0) AS answered_held,
    coalesce(sum(sign * agent_interaction_s) FILTER (WHERE answered AND agent_interaction_s IS NOT NULL), 0) AS answered_interaction_s,
    coalesce(sum(sign) FILTER (WHERE answered AND agent_interaction_s IS NOT NULL), 0) AS answered_interaction_s_n,
    coalesce(sum(sign * agent_non_response), 0) AS agent_non_response
    FROM outcome
    WHERE queued
    GROUP BY queue, interval_start
    -- In time order, as the ingest writes them: a day's rows share pages.
    ORDER BY interval_start, queue;

    DELETE FROM store_day_rollup
    WHERE (v_first IS NULL OR business_date >= v_first) AND (v_last IS NULL OR business_date <= v_last);
    WITH side AS (
        SELECT 1 AS sign, r.contact_id, r.initial_contact_id, r.next_contact_id, r.initiation_method, r.initiation_ts, r.disconnect_ts, r.disconnect_reason, r.store_id, r.queue_arn, r.queue_name, r.enqueue_ts, r.dequeue_ts, r.queue_duration_s, r.connected_to_agent_ts, r.agent_interaction_s, r.customer_hold_s, r.acw_s, r.agent_connection_attempts, r.transfer_completed_ts, n.initiation_method AS next_initiation_method
        FROM contact_record r
        LEFT JOIN contact_record n ON n.contact_id = r.next_contact_id
        WHERE r.initiation_ts IS NOT NULL
          -- A business date is the local date or the one before, in any time zone (±14 h).
          AND (v_first IS NULL OR r.initiation_ts >= v_first - 3)
          AND (v_last IS NULL OR r.initiation_ts < v_last + 4)
    ), base AS (
    SELECT side.*,
           coalesce(queue_arn, queue_name) AS queue,
           enqueue_ts IS NOT NULL AND coalesce(queue_arn, queue_name) IS NOT NULL AS queued,
           connected_to_agent_ts IS NOT NULL AS handled,
           CASE WHEN enqueue_ts IS NOT NULL THEN coalesce(
               queue_duration_s,
               greatest(0, floor(extract(epoch FROM
                   coalesce(dequeue_ts, connected_to_agent_ts, disconnect_ts) - enqueue_ts)))::integer)
           END AS queue_s
    FROM side
), classified AS (
    SELECT base.*,
           queued AND handled AS answered,
           queued AND NOT handled AND next_contact_id IS NULL AND transfer_completed_ts IS NULL
               AND coalesce(disconnect_reason = 'CUSTOMER_DISCONNECT', false) AS abandoned,
           queued AND NOT handled AND coalesce(next_initiation_method = 'CALLBACK', false)
               AS callback_requested,
           coalesce(next_initiation_method = 'QUEUE_TRANSFER', false) AS transferred_out_queue,
           -- Connect's "Contacts transferred out by agent": to a queue or an agent (the next leg is a
           -- TRANSFER) or to an external number (transfer completed); a contact that is both, once.
           handled AND (coalesce(next_initiation_method = 'TRANSFER', false) OR transfer_completed_ts IS NOT NULL)
               AS transferred_out_by_agent,
           transfer_completed_ts IS NOT NULL AS transferred_out_external
    FROM base
), outcome AS (
    SELECT sign, store_id, initiation_ts, initiation_method, queue, queue_name, next_contact_id,
           rollup_interval(enqueue_ts) AS interval_start,
           initial_contact_id IS NULL OR initial_contact_id = contact_id AS first_contact,
           queue_s, queued, handled, answered, abandoned, callback_requested,
           transferred_out_queue OR transferred_out_by_agent OR transferred_out_external AS transferred_out,
           transferred_out_queue, transferred_out_external, transferred_out_by_agent,
           answered AND queue_s <= v_threshold AS answered_within_threshold,
           abandoned AND queue_s <= v_threshold AS abandoned_within_threshold,
           (answered OR abandoned OR callback_requested) AND queue_s <= v_threshold
               AS removed_within_threshold,
           CASE WHEN handled THEN
               coalesce(agent_interaction_s, 0) + coalesce(customer_hold_s, 0) + coalesce(acw_s, 0)
           END AS handle_s,
           acw_s, agent_connection_attempts, customer_hold_s, agent_interaction_s,
           greatest(coalesce(agent_connection_attempts, 0) - CASE WHEN handled THEN 1 ELSE 0 END, 0)
               AS agent_non_response
    FROM classified
    ), store_delta AS (
    -- store_business_day_at(store_id, initiation_ts) and day_type(date), as joins.
    SELECT coalesce(o.store_id, '(unknown)') AS store_id, b.business_date,
           coalesce(d.day_type, CASE
               WHEN h0.day IS NOT NULL THEN 'holiday'
               WHEN h1.day IS NOT NULL THEN 'pre_holiday'
               WHEN extract(isodow FROM b.business_date) IN (6, 7) THEN 'weekend'
               ELSE 'weekday' END) AS day_type,
           coalesce(sum(o.sign) FILTER (WHERE first_contact), 0) AS contacts,
    coalesce(sum(o.sign) FILTER (WHERE true), 0) AS contact_records,
    coalesce(sum(o.sign) FILTER (WHERE first_contact AND NOT queued AND NOT handled AND next_contact_id IS NULL), 0) AS ended_in_flow,
    coalesce(sum(o.sign) FILTER (WHERE queued), 0) AS queued,
    coalesce(sum(o.sign) FILTER (WHERE answered), 0) AS answered,
    coalesce(sum(o.sign) FILTER (WHERE abandoned), 0) AS abandoned,
    coalesce(sum(o.sign) FILTER (WHERE callback_requested), 0) AS callbacks_requested,
    coalesce(sum(o.sign) FILTER (WHERE handled), 0) AS contacts_handled,
    coalesce(sum(o.sign) FILTER (WHERE handled AND initiation_method IN ('INBOUND', 'TRANSFER', 'QUEUE_TRANSFER')), 0) AS contacts_handled_incoming,
    coalesce(sum(o.sign) FILTER (WHERE handled AND initiation_method = 'OUTBOUND'), 0) AS contacts_handled_outbound,
    coalesce(sum(o.sign) FILTER (WHERE handled AND initiation_method = 'CALLBACK'), 0) AS callback_contacts_handled,
    coalesce(sum(o.sign) FILTER (WHERE transferred_out), 0) AS transferred_out,
    coalesce(sum(o.sign) FILTER (WHERE transferred_out_external), 0) AS transferred_out_external,
    coalesce(sum(o.sign) FILTER (WHERE removed_within_threshold), 0) AS removed_within_threshold,
    coalesce(sum(o.sign) FILTER (WHERE answered_within_threshold), 0) AS answered_within_threshold,
    coalesce(sum(o.sign * queue_s) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s,
    coalesce(sum(o.sign) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s_n,
    coalesce(sum(o.sign * handle_s) FILTER (WHERE handled AND handle_s IS NOT NULL), 0) AS handled_handle_s,
    coalesce(sum(o.sign) FILTER (WHERE handled AND handle_s IS NOT NULL), 0) AS handled_handle_s_n,
    coalesce(sum(o.sign * acw_s) FILTER (WHERE handled AND acw_s IS NOT NULL), 0) AS handled_acw_s,
    coalesce(sum(o.sign) FILTER (WHERE handled AND acw_s IS NOT NULL), 0) AS handled_acw_s_n,
    coalesce(sum(o.sign * agent_connection_attempts), 0) AS agent_connection_attempts
    FROM outcome o
    LEFT JOIN store s ON s.store_id = o.store_id
    CROSS JOIN LATERAL (
        SELECT (o.initiation_ts AT TIME ZONE coalesce(s.time_zone, v_time_zone))::date AS local_date
    ) AS l
    LEFT JOIN store_business_day p
        ON p.store_id = o.store_id AND p.business_date = l.local_date - 1 AND o.initiation_ts < p.closes_at
    CROSS JOIN LATERAL (
        SELECT CASE WHEN p.store_id IS NULL THEN l.local_date ELSE l.local_date - 1 END AS business_date
    ) AS b
    LEFT JOIN store_business_day d ON d.store_id = o.store_id AND d.business_date = b.business_date
    LEFT JOIN calendar_day h0 ON h0.day = b.business_date
    LEFT JOIN calendar_day h1 ON h1.day = b.business_date + 1
    WHERE o.initiation_ts IS NOT NULL
    GROUP BY 1, 2, 3
)
    INSERT INTO store_day_rollup (store_id, business_date, day_type,
        contacts, contact_records, ended_in_flow, queued, answered, abandoned, callbacks_requested, contacts_handled, contacts_handled_incoming, contacts_handled_outbound, callback_contacts_handled, transferred_out, transferred_out_external, removed_within_threshold, answered_within_threshold, answered_queue_s, answered_queue_s_n, handled_handle_s, handled_handle_s_n, handled_acw_s, handled_acw_s_n, agent_connection_attempts)
    SELECT store_id, business_date, day_type,
           contacts, contact_records, ended_in_flow, queued, answered, abandoned, callbacks_requested, contacts_handled, contacts_handled_incoming, contacts_handled_outbound, callback_contacts_handled, transferred_out, transferred_out_external, removed_within_threshold, answered_within_threshold, answered_queue_s, answered_queue_s_n, handled_handle_s, handled_handle_s_n, handled_acw_s, handled_acw_s_n, agent_connection_attempts
    FROM store_delta
    WHERE (v_first IS NULL OR business_date >= v_first) AND (v_last IS NULL OR business_date <= v_last)
    ORDER BY business_date, store_id;

    IF p_from IS NULL AND p_to IS NULL THEN
        PERFORM rollup_record_definitions();
    END IF;
END
$$;

--
-- Name: rollup_record_definitions(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.rollup_record_definitions() RETURNS void
    LANGUAGE sql
    AS $$
    UPDATE rollup_state SET definitions_fingerprint = rollup_definitions_fingerprint();
    DELETE FROM rollup_business_day_snapshot;
    INSERT INTO rollup_business_day_snapshot (store_id, business_date, day_type, closes_at)
    SELECT store_id, business_date, day_type, closes_at FROM store_business_day;
$$;

--
-- Name: FUNCTION rollup_record_definitions(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.rollup_record_definitions() IS 'Records the settings, store time zones, holidays and business days the contact rollups were computed with (a whole rebuild''s last step; switchboard rollup rebuild calls it after rebuilding month by month).';

--
-- Name: rollup_sync_definitions(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.rollup_sync_definitions() RETURNS boolean
    LANGUAGE plpgsql
    SET jit TO 'off'
    AS $$
DECLARE
    v_stores text[];
    v_dates date[];
    v_threshold integer := analytics_threshold_seconds();
    v_time_zone text := analytics_time_zone();
BEGIN
    PERFORM rollup_lock();
    IF (SELECT definitions_fingerprint FROM rollup_state) IS DISTINCT FROM rollup_definitions_fingerprint() THEN
        PERFORM rollup_rebuild_contacts(NULL, NULL);
        RETURN true;
    END IF;
    -- The business days that changed since the rollups were computed.
    SELECT array_agg(coalesce(c.store_id, s.store_id)), array_agg(coalesce(c.business_date, s.business_date))
    INTO v_stores, v_dates
    FROM store_business_day c
    FULL JOIN rollup_business_day_snapshot s ON s.store_id = c.store_id AND s.business_date = c.business_date
    WHERE c.store_id IS NULL OR s.store_id IS NULL OR c.day_type IS DISTINCT FROM s.day_type
       OR c.closes_at IS DISTINCT FROM s.closes_at;
    IF v_stores IS NULL THEN
        RETURN false;
    END IF;
    -- A day's closing time moves contacts between it and the next day: recompute the store
    -- days around each changed one from the contacts that may belong to them.
    CREATE TEMP TABLE IF NOT EXISTS rollup_changed_day (store_id text, business_date date) ON COMMIT DROP;
    INSERT INTO rollup_changed_day
    SELECT DISTINCT k.store_id, k.business_date + d
    FROM unnest(v_stores, v_dates) AS k(store_id, business_date), generate_series(-1, 1) AS d;
    DELETE FROM store_day_rollup t USING rollup_changed_day k
    WHERE t.store_id = k.store_id AND t.business_date = k.business_date;
    WITH side AS (
        SELECT 1 AS sign, r.contact_id, r.initial_contact_id, r.next_contact_id, r.initiation_method, r.initiation_ts, r.disconnect_ts, r.disconnect_reason, r.store_id, r.queue_arn, r.queue_name, r.enqueue_ts, r.dequeue_ts, r.queue_duration_s, r.connected_to_agent_ts, r.agent_interaction_s, r.customer_hold_s, r.acw_s, r.agent_connection_attempts, r.transfer_completed_ts, n.initiation_method AS next_initiation_method
        FROM contact_record r
        LEFT JOIN contact_record n ON n.contact_id = r.next_contact_id
        WHERE r.contact_id IN (
            SELECT c.contact_id
            FROM unnest(v_stores, v_dates) AS k(store_id, business_date)
            JOIN contact_record c ON c.store_id = k.store_id
                AND c.initiation_ts >= k.business_date - 3 AND c.initiation_ts < k.business_date + 4)
    ), base AS (
    SELECT side.*,
           coalesce(queue_arn, queue_name) AS queue,
           enqueue_ts IS NOT NULL AND coalesce(queue_arn, queue_name) IS NOT NULL AS queued,
           connected_to_agent_ts IS NOT NULL AS handled,
           CASE WHEN enqueue_ts IS NOT NULL THEN coalesce(
               queue_duration_s,
               greatest(0, floor(extract(epoch FROM
                   coalesce(dequeue_ts, connected_to_agent_ts, disconnect_ts) - enqueue_ts)))::integer)
           END AS queue_s
    FROM side
), classified AS (
    SELECT base.*,
           queued AND handled AS answered,
           queued AND NOT handled AND next_contact_id IS NULL AND transfer_completed_ts IS NULL
               AND coalesce(disconnect_reason = 'CUSTOMER_DISCONNECT', false) AS abandoned,
           queued AND NOT handled AND coalesce(next_initiation_method = 'CALLBACK', false)
               AS callback_requested,
           coalesce(next_initiation_method = 'QUEUE_TRANSFER', false) AS transferred_out_queue,
           handled AND coalesce(next_initiation_method = 'TRANSFER', false) AS transferred_out_by_agent,
           transfer_completed_ts IS NOT NULL AS transferred_out_external
    FROM base
), outcome AS (
    SELECT sign, store_id, initiation_ts, initiation_method, queue, queue_name, next_contact_id,
           rollup_interval(enqueue_ts) AS interval_start,
           initial_contact_id IS NULL OR initial_contact_id = contact_id AS first_contact,
           queue_s, queued, handled, answered, abandoned, callback_requested,
           transferred_out_queue OR transferred_out_by_agent OR transferred_out_external AS transferred_out,
           transferred_out_queue, transferred_out_external,
           answered AND queue_s <= v_threshold AS answered_within_threshold,
           abandoned AND queue_s <= v_threshold AS abandoned_within_threshold,
           (answered OR abandoned OR callback_requested) AND queue_s <= v_threshold
               AS removed_within_threshold,
           CASE WHEN handled THEN
               coalesce(agent_interaction_s, 0) + coalesce(customer_hold_s, 0) + coalesce(acw_s, 0)
           END AS handle_s,
           acw_s, agent_connection_attempts
    FROM classified
    ), store_delta AS (
    -- store_business_day_at(store_id, initiation_ts) and day_type(date), as joins.
    SELECT coalesce(o.store_id, '(unknown)') AS store_id, b.business_date,
           coalesce(d.day_type, CASE
               WHEN h0.day IS NOT NULL THEN 'holiday'
               WHEN h1.day IS NOT NULL THEN 'pre_holiday'
               WHEN extract(isodow FROM b.business_date) IN (6, 7) THEN 'weekend'
               ELSE 'weekday' END) AS day_type,
           coalesce(sum(o.sign) FILTER (WHERE first_contact), 0) AS contacts,
    coalesce(sum(o.sign) FILTER (WHERE true), 0) AS contact_records,
    coalesce(sum(o.sign) FILTER (WHERE first_contact AND NOT queued AND NOT handled AND next_contact_id IS NULL), 0) AS ended_in_flow,
    coalesce(sum(o.sign) FILTER (WHERE queued), 0) AS queued,
    coalesce(sum(o.sign) FILTER (WHERE answered), 0) AS answered,
    coalesce(sum(o.sign) FILTER (WHERE abandoned), 0) AS abandoned,
    coalesce(sum(o.sign) FILTER (WHERE callback_requested), 0) AS callbacks_requested,
    coalesce(sum(o.sign) FILTER (WHERE handled), 0) AS contacts_handled,
    coalesce(sum(o.sign) FILTER (WHERE handled AND initiation_method IN ('INBOUND', 'TRANSFER', 'QUEUE_TRANSFER')), 0) AS contacts_handled_incoming,
    coalesce(sum(o.sign) FILTER (WHERE handled AND initiation_method = 'OUTBOUND'), 0) AS contacts_handled_outbound,
    coalesce(sum(o.sign) FILTER (WHERE handled AND initiation_method = 'CALLBACK'), 0) AS callback_contacts_handled,
    coalesce(sum(o.sign) FILTER (WHERE transferred_out), 0) AS transferred_out,
    coalesce(sum(o.sign) FILTER (WHERE transferred_out_external), 0) AS transferred_out_external,
    coalesce(sum(o.sign) FILTER (WHERE removed_within_threshold), 0) AS removed_within_threshold,
    coalesce(sum(o.sign) FILTER (WHERE answered_within_threshold), 0) AS answered_within_threshold,
    coalesce(sum(o.sign * queue_s) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s,
    coalesce(sum(o.sign) FILTER (WHERE answered AND queue_s IS NOT NULL), 0) AS answered_queue_s_n,
    coalesce(sum(o.sign * handle_s) FILTER (WHERE handled AND handle_s IS NOT NULL), 0) AS handled_handle_s,
    coalesce(sum(o.sign) FILTER (WHERE handled AND handle_s IS NOT NULL), 0) AS handled_handle_s_n,
    coalesce(sum(o.sign * acw_s) FILTER (WHERE handled AND acw_s IS NOT NULL), 0) AS handled_acw_s,
    coalesce(sum(o.sign) FILTER (WHERE handled AND acw_s IS NOT NULL), 0) AS handled_acw_s_n,
    coalesce(sum(o.sign * agent_connection_attempts), 0) AS agent_connection_attempts
    FROM outcome o
    LEFT JOIN store s ON s.store_id = o.store_id
    CROSS JOIN LATERAL (
        SELECT (o.initiation_ts AT TIME ZONE coalesce(s.time_zone, v_time_zone))::date AS local_date
    ) AS l
    LEFT JOIN store_business_day p
        ON p.store_id = o.store_id AND p.business_date = l.local_date - 1 AND o.initiation_ts < p.closes_at
    CROSS JOIN LATERAL (
        SELECT CASE WHEN p.store_id IS NULL THEN l.local_date ELSE l.local_date - 1 END AS business_date
    ) AS b
    LEFT JOIN store_business_day d ON d.store_id = o.store_id AND d.business_date = b.business_date
    LEFT JOIN calendar_day h0 ON h0.day = b.business_date
    LEFT JOIN calendar_day h1 ON h1.day = b.business_date + 1
    WHERE o.initiation_ts IS NOT NULL
    GROUP BY 1, 2, 3
)
    INSERT INTO store_day_rollup (store_id, business_date, day_type,
        contacts, contact_records, ended_in_flow, queued, answered, abandoned, callbacks_requested, contacts_handled, contacts_handled_incoming, contacts_handled_outbound, callback_contacts_handled, transferred_out, transferred_out_external, removed_within_threshold, answered_within_threshold, answered_queue_s, answered_queue_s_n, handled_handle_s, handled_handle_s_n, handled_acw_s, handled_acw_s_n, agent_connection_attempts)
    SELECT d.store_id, d.business_date, d.day_type,
           d.contacts, d.contact_records, d.ended_in_flow, d.queued, d.answered, d.abandoned, d.callbacks_requested, d.contacts_handled, d.contacts_handled_incoming, d.contacts_handled_outbound, d.callback_contacts_handled, d.transferred_out, d.transferred_out_external, d.removed_within_threshold, d.answered_within_threshold, d.answered_queue_s, d.answered_queue_s_n, d.handled_handle_s, d.handled_handle_s_n, d.handled_acw_s, d.handled_acw_s_n, d.agent_connection_attempts
    FROM store_delta d
    JOIN rollup_changed_day k ON k.store_id = d.store_id AND k.business_date = d.business_date;
    DELETE FROM rollup_business_day_snapshot s USING unnest(v_stores, v_dates) AS k(store_id, business_date)
    WHERE s.store_id = k.store_id AND s.business_date = k.business_date;
    INSERT INTO rollup_business_day_snapshot (store_id, business_date, day_type, closes_at)
    SELECT c.store_id, c.business_date, c.day_type, c.closes_at
    FROM store_business_day c
    JOIN unnest(v_stores, v_dates) AS k(store_id, business_date)
        ON c.store_id = k.store_id AND c.business_date = k.business_date;
    DROP TABLE rollup_changed_day;
    RETURN true;
END
$$;

--
-- Name: FUNCTION rollup_sync_definitions(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.rollup_sync_definitions() IS 'Rebuilds queue_interval_rollup and store_day_rollup when the settings, stores, business days or holidays they were computed with changed; returns whether it did. Called in the transaction that changes them.';

--
-- Name: staffing_day_types(date, date); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.staffing_day_types(p_from date, p_to date) RETURNS TABLE(store_id text, business_date date, day_type text)
    LANGUAGE sql STABLE
    AS $$
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

--
-- Name: FUNCTION staffing_day_types(p_from date, p_to date); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.staffing_day_types(p_from date, p_to date) IS 'The day type of every store of staffing_source on every date of p_from..p_to: store_business_day''s (the IVR hook''s), else the national calendar''s (holiday, pre_holiday, weekend, weekday).';

--
-- Name: staffing_history_refresh(date, date); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.staffing_history_refresh(p_from date, p_to date) RETURNS bigint
    LANGUAGE plpgsql
    SET jit TO 'off'
    SET work_mem TO '64MB'
    AS $$
DECLARE
    v_time_zone text := analytics_time_zone();
    v_rows bigint;
BEGIN
    -- One refresh at a time: two that delete and insert the same days at once would collide on
    -- the primary key. The next one waits, then recomputes from what the first committed.
    PERFORM pg_advisory_xact_lock(hashtext('switchboard.staffing_history_refresh'));
    DELETE FROM staffing_history WHERE business_date BETWEEN p_from AND p_to;
    INSERT INTO staffing_history (queue, queue_name, store_id, business_date, slot, queued, offered, answered,
                                  abandoned, callbacks_requested, handle_s, handle_n, queue_s)
    SELECT o.queue, max(o.queue_name), coalesce(o.store_id, '(unknown)'), b.business_date,
           floor(extract(epoch FROM o.enqueue_ts - (b.business_date::timestamp AT TIME ZONE z.tz)) / 900)::smallint,
           count(*), count(*) FILTER (WHERE o.answered OR o.abandoned OR o.callback_requested),
           count(*) FILTER (WHERE o.answered), count(*) FILTER (WHERE o.abandoned),
           count(*) FILTER (WHERE o.callback_requested),
           coalesce(sum(o.handle_s) FILTER (WHERE o.answered AND o.handle_s IS NOT NULL), 0),
           count(*) FILTER (WHERE o.answered AND o.handle_s IS NOT NULL),
           coalesce(sum(o.queue_s), 0)
    FROM contact_outcome o
    LEFT JOIN store s ON s.store_id = o.store_id
    CROSS JOIN LATERAL (SELECT coalesce(s.time_zone, v_time_zone) AS tz) AS z
    CROSS JOIN LATERAL (SELECT (o.enqueue_ts AT TIME ZONE z.tz)::date AS local_date) AS l
    LEFT JOIN store_business_day p
        ON p.store_id = o.store_id AND p.business_date = l.local_date - 1 AND o.enqueue_ts < p.closes_at
    CROSS JOIN LATERAL (
        SELECT CASE WHEN p.store_id IS NULL THEN l.local_date ELSE l.local_date - 1 END AS business_date
    ) AS b
    WHERE o.queued
      AND o.enqueue_ts >= (p_from::timestamp AT TIME ZONE v_time_zone) - interval '2 days'
      AND o.enqueue_ts < ((p_to + 2)::timestamp AT TIME ZONE v_time_zone)
      AND b.business_date BETWEEN p_from AND p_to
    GROUP BY o.queue, coalesce(o.store_id, '(unknown)'), b.business_date, 5;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    DELETE FROM staffing_history_day WHERE business_date BETWEEN p_from AND p_to;
    INSERT INTO staffing_history_day (queue, store_id, business_date, queue_name, offered, abandoned, handle_s,
                                      handle_n, queue_s, slots, offered_by_slot, handle_s_by_slot, handle_n_by_slot)
    SELECT queue, store_id, business_date, max(queue_name), sum(offered), sum(abandoned), sum(handle_s),
           sum(handle_n), sum(queue_s), array_agg(slot ORDER BY slot), array_agg(offered ORDER BY slot),
           array_agg(handle_s ORDER BY slot), array_agg(handle_n ORDER BY slot)
    FROM staffing_history WHERE business_date BETWEEN p_from AND p_to
    GROUP BY queue, store_id, business_date;
    INSERT INTO staffing_source AS t (queue, store_id, first_date, last_date)
    SELECT queue, store_id, min(business_date), max(business_date)
    FROM staffing_history_day WHERE business_date BETWEEN p_from AND p_to
    GROUP BY queue, store_id
    ON CONFLICT (queue, store_id) DO UPDATE
        SET first_date = least(t.first_date, EXCLUDED.first_date), last_date = greatest(t.last_date, EXCLUDED.last_date);
    -- When the refresh ended, not when its transaction began: a long first refresh counts from its end.
    INSERT INTO staffing_refresh AS r (refreshed_at, through_date) VALUES (clock_timestamp(), p_to)
    ON CONFLICT (singleton) DO UPDATE SET refreshed_at = EXCLUDED.refreshed_at, through_date = EXCLUDED.through_date;
    RETURN v_rows;
END
$$;

--
-- Name: FUNCTION staffing_history_refresh(p_from date, p_to date); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.staffing_history_refresh(p_from date, p_to date) IS 'Recomputes staffing_history and staffing_history_day for the business days p_from..p_to from contact_outcome (raw rows: only days still within retention), widens staffing_source and records the refresh in staffing_refresh; returns the rows written. One refresh runs at a time (an advisory lock); JIT is off for it.';

--
-- Name: staffing_intraday_actuals(date, timestamp with time zone, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.staffing_intraday_actuals(p_date date, p_before timestamp with time zone, p_queue text) RETURNS TABLE(queue text, store_id text, slot integer, offered bigint, answered bigint, abandoned bigint, handle_s bigint, handle_n bigint)
    LANGUAGE plpgsql STABLE
    SET plan_cache_mode TO 'force_generic_plan'
    SET jit TO 'off'
    AS $$
DECLARE
    v_time_zone text := analytics_time_zone();
    v_from timestamptz;
    v_to timestamptz;
BEGIN
    -- A contact of business day p_date entered its queue on that local date, or on the next
    -- while the day's business hours ran on: between the earliest local midnight of p_date among
    -- the stores' time zones (and the analytics one, for contacts of no known store) and the
    -- latest local midnight of the day after next.
    SELECT min(p_date::timestamp AT TIME ZONE z.tz), max((p_date + 2)::timestamp AT TIME ZONE z.tz)
    INTO v_from, v_to
    FROM (SELECT s.time_zone FROM store s WHERE s.time_zone IS NOT NULL UNION SELECT v_time_zone) AS z(tz);
    IF p_before IS NOT NULL AND p_before < v_to THEN
        v_to := p_before;
    END IF;
    RETURN QUERY
    SELECT o.queue, coalesce(o.store_id, '(unknown)'),
           floor(extract(epoch FROM o.enqueue_ts - (b.business_date::timestamp AT TIME ZONE z.tz)) / 900)::integer,
           count(*) FILTER (WHERE o.answered OR o.abandoned OR o.callback_requested),
           count(*) FILTER (WHERE o.answered), count(*) FILTER (WHERE o.abandoned),
           coalesce(sum(o.handle_s) FILTER (WHERE o.answered AND o.handle_s IS NOT NULL), 0)::bigint,
           count(*) FILTER (WHERE o.answered AND o.handle_s IS NOT NULL)
    FROM contact_outcome o
    LEFT JOIN store s ON s.store_id = o.store_id
    CROSS JOIN LATERAL (SELECT coalesce(s.time_zone, v_time_zone) AS tz) AS z
    CROSS JOIN LATERAL (SELECT (o.enqueue_ts AT TIME ZONE z.tz)::date AS local_date) AS l
    LEFT JOIN store_business_day p
        ON p.store_id = o.store_id AND p.business_date = l.local_date - 1 AND o.enqueue_ts < p.closes_at
       AND p.business_date BETWEEN p_date - 1 AND p_date
    CROSS JOIN LATERAL (
        SELECT CASE WHEN p.store_id IS NULL THEN l.local_date ELSE l.local_date - 1 END AS business_date
    ) AS b
    WHERE o.queued
      AND o.enqueue_ts >= v_from AND o.enqueue_ts < v_to
      AND b.business_date = p_date
      AND (p_queue IS NULL OR o.queue = p_queue)
    GROUP BY 1, 2, 3;
END
$$;

--
-- Name: FUNCTION staffing_intraday_actuals(p_date date, p_before timestamp with time zone, p_queue text); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.staffing_intraday_actuals(p_date date, p_before timestamp with time zone, p_queue text) IS 'Contacts of business day p_date per queue, store and 15-minute slot from its midnight, as staffing_history files them (offered = answered + abandoned + callbacks; handle_s summed over handle_n answered contacts), counting only those that entered their queue before p_before (NULL: every one so far), of queue p_queue (NULL: every queue). Read from contact_outcome by the contacts'' timestamps, so a past day replays as it stood at any instant. The intraday reforecast''s read; its plan is kept per session and JIT is off.';

--
-- Name: staffing_plan_deleted(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.staffing_plan_deleted() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    DELETE FROM staffing_plan_interval i USING deleted d WHERE i.plan_id = d.plan_id;
    RETURN NULL;
END
$$;

--
-- Name: store_business_day_at(text, timestamp with time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.store_business_day_at(p_store_id text, p_at timestamp with time zone) RETURNS TABLE(business_date date, day_type text, hours_reason text)
    LANGUAGE sql STABLE
    AS $$
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

--
-- Name: FUNCTION store_business_day_at(p_store_id text, p_at timestamp with time zone); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.store_business_day_at(p_store_id text, p_at timestamp with time zone) IS 'The business date, day type and hours reason of a store at an instant, as the IVR hook decides them. Stores not in flows/ (or dates not generated) fall back to the local date in analytics_time_zone() and day_type(date).';

--
-- Name: store_day_rollup; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.store_day_rollup (
    store_id text NOT NULL,
    business_date date NOT NULL,
    day_type text NOT NULL,
    contacts bigint DEFAULT 0 NOT NULL,
    contact_records bigint DEFAULT 0 NOT NULL,
    ended_in_flow bigint DEFAULT 0 NOT NULL,
    queued bigint DEFAULT 0 NOT NULL,
    answered bigint DEFAULT 0 NOT NULL,
    abandoned bigint DEFAULT 0 NOT NULL,
    callbacks_requested bigint DEFAULT 0 NOT NULL,
    contacts_handled bigint DEFAULT 0 NOT NULL,
    contacts_handled_incoming bigint DEFAULT 0 NOT NULL,
    contacts_handled_outbound bigint DEFAULT 0 NOT NULL,
    callback_contacts_handled bigint DEFAULT 0 NOT NULL,
    transferred_out bigint DEFAULT 0 NOT NULL,
    transferred_out_external bigint DEFAULT 0 NOT NULL,
    removed_within_threshold bigint DEFAULT 0 NOT NULL,
    answered_within_threshold bigint DEFAULT 0 NOT NULL,
    answered_queue_s bigint DEFAULT 0 NOT NULL,
    answered_queue_s_n bigint DEFAULT 0 NOT NULL,
    handled_handle_s bigint DEFAULT 0 NOT NULL,
    handled_handle_s_n bigint DEFAULT 0 NOT NULL,
    handled_acw_s bigint DEFAULT 0 NOT NULL,
    handled_acw_s_n bigint DEFAULT 0 NOT NULL,
    agent_connection_attempts bigint DEFAULT 0 NOT NULL
)
WITH (fillfactor='40');

--
-- Name: TABLE store_day_rollup; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.store_day_rollup IS 'contact_outcome summed per store, business day and day type (store_business_day_at of initiation_ts). store_day_metrics reads it. Rebuilt automatically when the stores, business days, holidays or analytics settings change.';

--
-- Name: store_day_metrics; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.store_day_metrics AS
 SELECT store_day_rollup.store_id,
    store_day_rollup.business_date,
    store_day_rollup.day_type,
    store_day_rollup.contacts,
    store_day_rollup.contact_records,
    store_day_rollup.ended_in_flow,
    store_day_rollup.queued,
    store_day_rollup.answered,
    store_day_rollup.abandoned,
    store_day_rollup.callbacks_requested,
    store_day_rollup.contacts_handled,
    store_day_rollup.contacts_handled_incoming,
    store_day_rollup.contacts_handled_outbound,
    store_day_rollup.callback_contacts_handled,
    store_day_rollup.transferred_out,
    store_day_rollup.transferred_out_external,
    round(((store_day_rollup.removed_within_threshold)::numeric / (NULLIF(store_day_rollup.queued, 0))::numeric), 4) AS connect_service_level,
    round(((store_day_rollup.answered_within_threshold)::numeric / (NULLIF(store_day_rollup.queued, 0))::numeric), 4) AS answered_service_level,
    round(((store_day_rollup.answered_queue_s)::numeric / (NULLIF(store_day_rollup.answered_queue_s_n, 0))::numeric), 2) AS average_speed_of_answer_s,
    round(((store_day_rollup.handled_handle_s)::numeric / (NULLIF(store_day_rollup.handled_handle_s_n, 0))::numeric), 2) AS average_handle_time_s,
    round(((store_day_rollup.handled_acw_s)::numeric / (NULLIF(store_day_rollup.handled_acw_s_n, 0))::numeric), 2) AS average_after_contact_work_s,
    round(((store_day_rollup.abandoned)::numeric / (NULLIF(store_day_rollup.queued, 0))::numeric), 4) AS abandonment_rate,
    store_day_rollup.agent_connection_attempts
   FROM public.store_day_rollup
  WHERE (store_day_rollup.contact_records > 0);

--
-- Name: VIEW store_day_metrics; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON VIEW public.store_day_metrics IS 'Contacts per store, business day and day type (docs/analysts.md), from store_day_rollup.';

--
-- Name: store_day_metrics_from_raw(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.store_day_metrics_from_raw() RETURNS SETOF public.store_day_metrics
    LANGUAGE sql STABLE
    AS $$
SELECT coalesce(o.store_id, '(unknown)') AS store_id,
       b.business_date,
       b.day_type,
       count(*) FILTER (WHERE o.first_contact) AS contacts,
       count(*) AS contact_records,
       count(*) FILTER (WHERE o.first_contact AND NOT o.queued AND NOT o.handled AND o.next_contact_id IS NULL)
           AS ended_in_flow,
       count(*) FILTER (WHERE o.queued) AS queued,
       count(*) FILTER (WHERE o.answered) AS answered,
       count(*) FILTER (WHERE o.abandoned) AS abandoned,
       count(*) FILTER (WHERE o.callback_requested) AS callbacks_requested,
       count(*) FILTER (WHERE o.handled) AS contacts_handled,
       count(*) FILTER (WHERE o.handled AND o.initiation_method IN ('INBOUND', 'TRANSFER', 'QUEUE_TRANSFER'))
           AS contacts_handled_incoming,
       count(*) FILTER (WHERE o.handled AND o.initiation_method = 'OUTBOUND') AS contacts_handled_outbound,
       count(*) FILTER (WHERE o.handled AND o.initiation_method = 'CALLBACK') AS callback_contacts_handled,
       count(*) FILTER (WHERE o.transferred_out) AS transferred_out,
       count(*) FILTER (WHERE o.transferred_out_external) AS transferred_out_external,
       round(count(*) FILTER (WHERE o.removed_within_threshold)::numeric
             / nullif(count(*) FILTER (WHERE o.queued), 0), 4) AS connect_service_level,
       round(count(*) FILTER (WHERE o.answered_within_threshold)::numeric
             / nullif(count(*) FILTER (WHERE o.queued), 0), 4) AS answered_service_level,
       round(avg(o.queue_s) FILTER (WHERE o.answered), 2) AS average_speed_of_answer_s,
       round(avg(o.handle_s) FILTER (WHERE o.handled), 2) AS average_handle_time_s,
       round(avg(o.acw_s) FILTER (WHERE o.handled), 2) AS average_after_contact_work_s,
       round(count(*) FILTER (WHERE o.abandoned)::numeric / nullif(count(*) FILTER (WHERE o.queued), 0), 4)
           AS abandonment_rate,
       coalesce(sum(o.agent_connection_attempts), 0) AS agent_connection_attempts
FROM contact_outcome o
CROSS JOIN LATERAL store_business_day_at(o.store_id, o.initiation_ts) AS b
WHERE o.initiation_ts IS NOT NULL
GROUP BY coalesce(o.store_id, '(unknown)'), b.business_date, b.day_type
$$;

--
-- Name: FUNCTION store_day_metrics_from_raw(); Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON FUNCTION public.store_day_metrics_from_raw() IS 'store_day_metrics computed from the raw tables, as the view read them before the rollups served it: what `switchboard rollup check` compares the view with.';

--
-- Name: agent_event; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.agent_event (
    event_id text NOT NULL,
    agent_arn text NOT NULL,
    event_type text NOT NULL,
    event_ts timestamp with time zone NOT NULL,
    username text,
    status_name text,
    status_type text,
    status_start_ts timestamp with time zone,
    activity text NOT NULL,
    contact_count integer DEFAULT 0 NOT NULL,
    routing_profile text,
    raw jsonb NOT NULL,
    source_partition integer NOT NULL,
    source_offset bigint NOT NULL,
    ingested_at timestamp with time zone DEFAULT now() NOT NULL,
    contact_state text
)
PARTITION BY RANGE (event_ts);
ALTER TABLE ONLY public.agent_event ALTER COLUMN raw SET COMPRESSION lz4;

--
-- Name: COLUMN agent_event.activity; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.agent_event.activity IS 'Connect''s Agent Activity as the console shows it: available | connecting | onContact | afterContactWork | error | customStatus | offline (contacts first, by contact_state''s precedence, then the status; offline for LOGOUT). Events ingested before migration 14 hold the console''s older five (no connecting, no error).';

--
-- Name: COLUMN agent_event.contact_state; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.agent_event.contact_state IS 'The contact state that decides Amazon Connect''s Agent Activity, by its precedence over the snapshot''s contacts: ERROR, MISSED, REJECTED, CONNECTED (incl. on hold), ENDED (after-contact work), CONNECTING (incoming, pending, connecting); NULL without contacts or on LOGOUT.';

--
-- Name: agent_activity_segment; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.agent_activity_segment AS
 SELECT agent_event.agent_arn,
    agent_event.username,
        CASE
            WHEN (agent_event.event_type = 'LOGOUT'::text) THEN 'offline'::text
            WHEN (agent_event.contact_state = ANY (ARRAY['ERROR'::text, 'MISSED'::text, 'REJECTED'::text])) THEN 'error'::text
            WHEN (agent_event.contact_state = 'CONNECTED'::text) THEN 'onContact'::text
            WHEN (agent_event.contact_state = 'ENDED'::text) THEN 'afterContactWork'::text
            WHEN (agent_event.contact_state = 'CONNECTING'::text) THEN 'connecting'::text
            WHEN (agent_event.status_type = 'ROUTABLE'::text) THEN 'available'::text
            WHEN ((agent_event.status_type IS NULL) OR (agent_event.status_type = 'OFFLINE'::text)) THEN 'offline'::text
            ELSE 'customStatus'::text
        END AS activity,
    COALESCE(agent_event.status_name, agent_event.status_type, agent_event.activity) AS status_name,
    agent_event.status_type,
    agent_event.event_ts AS start_ts,
    LEAST(COALESCE(lead(agent_event.event_ts) OVER w, now()), (agent_event.event_ts + '00:10:00'::interval)) AS end_ts
   FROM public.agent_event
  WINDOW w AS (PARTITION BY agent_event.agent_arn ORDER BY agent_event.event_ts, agent_event.event_id);

--
-- Name: VIEW agent_activity_segment; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON VIEW public.agent_activity_segment IS 'One row per agent event: the agent''s activity (Connect''s Agent Activity: error covers error, missed and rejected contacts; connecting covers incoming and connecting) and status from the event until the next one, at most 10 minutes.';

--
-- Name: contact_record; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.contact_record (
    contact_id text NOT NULL,
    initial_contact_id text,
    previous_contact_id text,
    next_contact_id text,
    channel text,
    initiation_method text,
    initiation_ts timestamp with time zone,
    connected_to_system_ts timestamp with time zone,
    disconnect_ts timestamp with time zone,
    disconnect_reason text,
    queue_name text,
    queue_arn text,
    enqueue_ts timestamp with time zone,
    dequeue_ts timestamp with time zone,
    queue_duration_s integer,
    agent_username text,
    agent_arn text,
    connected_to_agent_ts timestamp with time zone,
    agent_interaction_s integer,
    customer_hold_s integer,
    acw_start_ts timestamp with time zone,
    acw_end_ts timestamp with time zone,
    acw_s integer,
    number_of_holds integer,
    longest_hold_s integer,
    routing_profile text,
    dialed_number text,
    customer_number text,
    store_id text,
    attributes jsonb DEFAULT '{}'::jsonb NOT NULL,
    raw jsonb NOT NULL,
    last_update_ts timestamp with time zone NOT NULL,
    source_partition integer NOT NULL,
    source_offset bigint NOT NULL,
    versions_seen integer DEFAULT 1 NOT NULL,
    ingested_at timestamp with time zone DEFAULT now() NOT NULL,
    transfer_completed_ts timestamp with time zone,
    transferred_to_endpoint text,
    agent_connection_attempts integer,
    agent_hierarchy_level1 text,
    agent_hierarchy_level2 text,
    agent_hierarchy_level3 text,
    agent_hierarchy_level4 text,
    agent_hierarchy_level5 text,
    initiation_month timestamp with time zone NOT NULL
)
PARTITION BY RANGE (initiation_month);
ALTER TABLE ONLY public.contact_record ALTER COLUMN attributes SET COMPRESSION lz4;
ALTER TABLE ONLY public.contact_record ALTER COLUMN raw SET COMPRESSION lz4;

--
-- Name: TABLE contact_record; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.contact_record IS 'One row per Amazon Connect ContactId: the copy with the greatest LastUpdateTimestamp (ties: later partition/offset). raw keeps every field.';

--
-- Name: COLUMN contact_record.transferred_to_endpoint; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.contact_record.transferred_to_endpoint IS 'TransferredToEndpoint.Address: an external phone number. Analysts see it through mask_phone only.';

--
-- Name: COLUMN contact_record.agent_connection_attempts; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.contact_record.agent_connection_attempts IS 'AgentConnectionAttempts: how many times Amazon Connect tried to connect the contact to an agent.';

--
-- Name: COLUMN contact_record.initiation_month; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON COLUMN public.contact_record.initiation_month IS 'The partition key: the UTC month of initiation_ts (of last_update_ts when the record has no InitiationTimestamp). With contact_id, the key of the row.';

--
-- Name: contact_outcome; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.contact_outcome AS
 WITH base AS (
         SELECT r.contact_id,
            r.initial_contact_id,
            r.previous_contact_id,
            r.next_contact_id,
            r.channel,
            r.initiation_method,
            r.initiation_ts,
            r.disconnect_ts,
            r.disconnect_reason,
            r.store_id,
            COALESCE(r.queue_arn, r.queue_name) AS queue,
            r.queue_name,
            r.enqueue_ts,
            r.connected_to_agent_ts,
            r.agent_arn,
            r.agent_username,
            r.routing_profile,
            r.agent_hierarchy_level1,
            r.agent_hierarchy_level2,
            r.agent_hierarchy_level3,
            r.agent_hierarchy_level4,
            r.agent_hierarchy_level5,
            r.agent_interaction_s,
            r.customer_hold_s,
            r.acw_s,
            r.agent_connection_attempts,
            r.transfer_completed_ts,
            r.transferred_to_endpoint,
                CASE
                    WHEN (r.next_contact_id IS NOT NULL) THEN ( SELECT n.initiation_method
                       FROM public.contact_record n
                      WHERE (n.contact_id = r.next_contact_id)
                     LIMIT 1)
                    ELSE NULL::text
                END AS next_initiation_method,
            ((r.enqueue_ts IS NOT NULL) AND (COALESCE(r.queue_arn, r.queue_name) IS NOT NULL)) AS queued,
            (r.connected_to_agent_ts IS NOT NULL) AS handled,
                CASE
                    WHEN (r.enqueue_ts IS NOT NULL) THEN COALESCE(r.queue_duration_s, (GREATEST((0)::numeric, floor(EXTRACT(epoch FROM (COALESCE(r.dequeue_ts, r.connected_to_agent_ts, r.disconnect_ts) - r.enqueue_ts)))))::integer)
                    ELSE NULL::integer
                END AS queue_s
           FROM public.contact_record r
        ), classified AS (
         SELECT base.contact_id,
            base.initial_contact_id,
            base.previous_contact_id,
            base.next_contact_id,
            base.channel,
            base.initiation_method,
            base.initiation_ts,
            base.disconnect_ts,
            base.disconnect_reason,
            base.store_id,
            base.queue,
            base.queue_name,
            base.enqueue_ts,
            base.connected_to_agent_ts,
            base.agent_arn,
            base.agent_username,
            base.routing_profile,
            base.agent_hierarchy_level1,
            base.agent_hierarchy_level2,
            base.agent_hierarchy_level3,
            base.agent_hierarchy_level4,
            base.agent_hierarchy_level5,
            base.agent_interaction_s,
            base.customer_hold_s,
            base.acw_s,
            base.agent_connection_attempts,
            base.transfer_completed_ts,
            base.transferred_to_endpoint,
            base.next_initiation_method,
            base.queued,
            base.handled,
            base.queue_s,
            (base.queued AND base.handled) AS answered,
            (base.queued AND (NOT base.handled) AND (base.next_contact_id IS NULL) AND (base.transfer_completed_ts IS NULL) AND COALESCE((base.disconnect_reason = 'CUSTOMER_DISCONNECT'::text), false)) AS abandoned,
            (base.queued AND (NOT base.handled) AND COALESCE((base.next_initiation_method = 'CALLBACK'::text), false)) AS callback_requested,
            COALESCE((base.next_initiation_method = 'QUEUE_TRANSFER'::text), false) AS transferred_out_queue,
            (base.handled AND (COALESCE((base.next_initiation_method = 'TRANSFER'::text), false) OR (base.transfer_completed_ts IS NOT NULL))) AS transferred_out_by_agent,
            (base.transfer_completed_ts IS NOT NULL) AS transferred_out_external
           FROM base
        )
 SELECT classified.contact_id,
    COALESCE(classified.initial_contact_id, classified.contact_id) AS initial_contact_id,
    ((classified.initial_contact_id IS NULL) OR (classified.initial_contact_id = classified.contact_id)) AS first_contact,
    classified.previous_contact_id,
    classified.next_contact_id,
    classified.channel,
    classified.initiation_method,
    classified.initiation_ts,
    classified.disconnect_ts,
    classified.disconnect_reason,
    classified.store_id,
    classified.queue,
    classified.queue_name,
    classified.enqueue_ts,
    to_timestamp(((floor((EXTRACT(epoch FROM classified.enqueue_ts) / (900)::numeric)) * (900)::numeric))::double precision) AS interval_start,
    classified.queue_s,
    classified.connected_to_agent_ts,
    classified.agent_arn,
    classified.agent_username,
    classified.routing_profile,
    classified.agent_hierarchy_level1,
    classified.agent_hierarchy_level2,
    classified.agent_hierarchy_level3,
    classified.agent_hierarchy_level4,
    classified.agent_hierarchy_level5,
    classified.queued,
    classified.handled,
    classified.answered,
    classified.abandoned,
    classified.callback_requested,
    (classified.transferred_out_queue OR classified.transferred_out_by_agent OR classified.transferred_out_external) AS transferred_out,
    classified.transferred_out_queue,
    classified.transferred_out_by_agent,
    classified.transferred_out_external,
    (classified.answered AND (classified.queue_s <= public.analytics_threshold_seconds())) AS answered_within_threshold,
    (classified.abandoned AND (classified.queue_s <= public.analytics_threshold_seconds())) AS abandoned_within_threshold,
    ((classified.answered OR classified.abandoned OR classified.callback_requested) AND (classified.queue_s <= public.analytics_threshold_seconds())) AS removed_within_threshold,
        CASE
            WHEN classified.handled THEN ((COALESCE(classified.agent_interaction_s, 0) + COALESCE(classified.customer_hold_s, 0)) + COALESCE(classified.acw_s, 0))
            ELSE NULL::integer
        END AS handle_s,
    classified.acw_s,
    classified.agent_connection_attempts,
    classified.transfer_completed_ts,
    public.mask_phone(classified.transferred_to_endpoint) AS transferred_to_endpoint,
    classified.customer_hold_s,
    classified.agent_interaction_s,
    GREATEST((COALESCE(classified.agent_connection_attempts, 0) -
        CASE
            WHEN classified.handled THEN 1
            ELSE 0
        END), 0) AS agent_non_response
   FROM classified;

--
-- Name: VIEW contact_outcome; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON VIEW public.contact_outcome IS 'One row per contact record, classified by Amazon Connect''s definitions (docs/analysts.md): queued, handled (connected to an agent), answered (queued and handled), abandoned (customer disconnected in queue; callbacks and transfers excluded), callback_requested, transfers out, within-threshold flags (analytics_threshold_seconds()), hold and interaction seconds, agent_non_response (offers to an agent not answered).';

--
-- Name: agent_contact_interval_metrics; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.agent_contact_interval_metrics AS
 SELECT contact_outcome.agent_arn,
    contact_outcome.agent_username AS username,
    to_timestamp(((floor((EXTRACT(epoch FROM contact_outcome.connected_to_agent_ts) / (900)::numeric)) * (900)::numeric))::double precision) AS interval_start,
    (to_timestamp(((floor((EXTRACT(epoch FROM contact_outcome.connected_to_agent_ts) / (900)::numeric)) * (900)::numeric))::double precision) + '00:15:00'::interval) AS interval_end,
    max(contact_outcome.agent_hierarchy_level1) AS agent_hierarchy_level1,
    max(contact_outcome.agent_hierarchy_level2) AS agent_hierarchy_level2,
    max(contact_outcome.agent_hierarchy_level3) AS agent_hierarchy_level3,
    max(contact_outcome.agent_hierarchy_level4) AS agent_hierarchy_level4,
    max(contact_outcome.agent_hierarchy_level5) AS agent_hierarchy_level5,
    count(*) AS contacts_handled,
    count(*) FILTER (WHERE (contact_outcome.initiation_method = ANY (ARRAY['INBOUND'::text, 'TRANSFER'::text, 'QUEUE_TRANSFER'::text]))) AS contacts_handled_incoming,
    count(*) FILTER (WHERE (contact_outcome.initiation_method = 'OUTBOUND'::text)) AS contacts_handled_outbound,
    count(*) FILTER (WHERE (contact_outcome.initiation_method = 'CALLBACK'::text)) AS callback_contacts_handled,
    count(*) FILTER (WHERE contact_outcome.transferred_out) AS transferred_out,
    count(*) FILTER (WHERE contact_outcome.transferred_out_external) AS transferred_out_external,
    round(avg(contact_outcome.handle_s), 2) AS average_handle_time_s,
    round(avg(contact_outcome.acw_s), 2) AS average_after_contact_work_s
   FROM public.contact_outcome
  WHERE contact_outcome.handled
  GROUP BY contact_outcome.agent_arn, contact_outcome.agent_username, (to_timestamp(((floor((EXTRACT(epoch FROM contact_outcome.connected_to_agent_ts) / (900)::numeric)) * (900)::numeric))::double precision));

--
-- Name: agent_event_default; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.agent_event_default (
    event_id text NOT NULL,
    agent_arn text NOT NULL,
    event_type text NOT NULL,
    event_ts timestamp with time zone NOT NULL,
    username text,
    status_name text,
    status_type text,
    status_start_ts timestamp with time zone,
    activity text NOT NULL,
    contact_count integer DEFAULT 0 NOT NULL,
    routing_profile text,
    raw jsonb NOT NULL,
    source_partition integer NOT NULL,
    source_offset bigint NOT NULL,
    ingested_at timestamp with time zone DEFAULT now() NOT NULL,
    contact_state text
);
ALTER TABLE ONLY public.agent_event_default ALTER COLUMN raw SET COMPRESSION lz4;

--
-- Name: analytics_setting; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.analytics_setting (
    key text NOT NULL,
    value text NOT NULL,
    description text NOT NULL
);

--
-- Name: calendar_day; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.calendar_day (
    day date NOT NULL,
    name_ja text NOT NULL,
    name_en text NOT NULL,
    kind text NOT NULL
);

--
-- Name: TABLE calendar_day; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.calendar_day IS 'The holidays of the calendar japan as flows/ adjusts it (computed by law in Swift), for its whole range 1948-07-20 to 2150, rewritten on migrate.';

--
-- Name: consumer_offset; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.consumer_offset (
    consumer_group text NOT NULL,
    topic text NOT NULL,
    partition integer NOT NULL,
    next_offset bigint DEFAULT '-1'::integer NOT NULL,
    owner_epoch bigint DEFAULT 0 NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: TABLE consumer_offset; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.consumer_offset IS 'Next offset to read per consumer group and partition, written in the same transaction as the rows. owner_epoch fences zombie workers; next_offset -1 means none stored yet.';

--
-- Name: contact_event; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.contact_event (
    event_id text NOT NULL,
    contact_id text NOT NULL,
    event_type text NOT NULL,
    event_ts timestamp with time zone NOT NULL,
    channel text,
    initiation_method text,
    queue_arn text,
    agent_arn text,
    raw jsonb NOT NULL,
    source_partition integer NOT NULL,
    source_offset bigint NOT NULL,
    ingested_at timestamp with time zone DEFAULT now() NOT NULL
)
PARTITION BY RANGE (event_ts);
ALTER TABLE ONLY public.contact_event ALTER COLUMN raw SET COMPRESSION lz4;

--
-- Name: contact_event_default; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.contact_event_default (
    event_id text NOT NULL,
    contact_id text NOT NULL,
    event_type text NOT NULL,
    event_ts timestamp with time zone NOT NULL,
    channel text,
    initiation_method text,
    queue_arn text,
    agent_arn text,
    raw jsonb NOT NULL,
    source_partition integer NOT NULL,
    source_offset bigint NOT NULL,
    ingested_at timestamp with time zone DEFAULT now() NOT NULL
);
ALTER TABLE ONLY public.contact_event_default ALTER COLUMN raw SET COMPRESSION lz4;

--
-- Name: contact_record_analyst; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.contact_record_analyst AS
 SELECT contact_record.contact_id,
    contact_record.initial_contact_id,
    contact_record.previous_contact_id,
    contact_record.next_contact_id,
    contact_record.channel,
    contact_record.initiation_method,
    contact_record.initiation_ts,
    contact_record.connected_to_system_ts,
    contact_record.disconnect_ts,
    contact_record.disconnect_reason,
    contact_record.queue_name,
    contact_record.queue_arn,
    contact_record.enqueue_ts,
    contact_record.dequeue_ts,
    contact_record.queue_duration_s,
    contact_record.agent_username,
    contact_record.agent_arn,
    contact_record.connected_to_agent_ts,
    contact_record.agent_interaction_s,
    contact_record.customer_hold_s,
    contact_record.acw_start_ts,
    contact_record.acw_end_ts,
    contact_record.acw_s,
    contact_record.number_of_holds,
    contact_record.longest_hold_s,
    contact_record.routing_profile,
    contact_record.dialed_number,
    public.mask_phone(contact_record.customer_number) AS customer_number,
    contact_record.store_id,
    public.analyst_attributes(contact_record.attributes) AS attributes,
    contact_record.last_update_ts,
    contact_record.versions_seen,
    contact_record.agent_connection_attempts,
    contact_record.transfer_completed_ts,
    public.mask_phone(contact_record.transferred_to_endpoint) AS transferred_to_endpoint,
    contact_record.agent_hierarchy_level1,
    contact_record.agent_hierarchy_level2,
    contact_record.agent_hierarchy_level3,
    contact_record.agent_hierarchy_level4,
    contact_record.agent_hierarchy_level5
   FROM public.contact_record;

--
-- Name: contact_record_default; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.contact_record_default (
    contact_id text NOT NULL,
    initial_contact_id text,
    previous_contact_id text,
    next_contact_id text,
    channel text,
    initiation_method text,
    initiation_ts timestamp with time zone,
    connected_to_system_ts timestamp with time zone,
    disconnect_ts timestamp with time zone,
    disconnect_reason text,
    queue_name text,
    queue_arn text,
    enqueue_ts timestamp with time zone,
    dequeue_ts timestamp with time zone,
    queue_duration_s integer,
    agent_username text,
    agent_arn text,
    connected_to_agent_ts timestamp with time zone,
    agent_interaction_s integer,
    customer_hold_s integer,
    acw_start_ts timestamp with time zone,
    acw_end_ts timestamp with time zone,
    acw_s integer,
    number_of_holds integer,
    longest_hold_s integer,
    routing_profile text,
    dialed_number text,
    customer_number text,
    store_id text,
    attributes jsonb DEFAULT '{}'::jsonb NOT NULL,
    raw jsonb NOT NULL,
    last_update_ts timestamp with time zone NOT NULL,
    source_partition integer NOT NULL,
    source_offset bigint NOT NULL,
    versions_seen integer DEFAULT 1 NOT NULL,
    ingested_at timestamp with time zone DEFAULT now() NOT NULL,
    transfer_completed_ts timestamp with time zone,
    transferred_to_endpoint text,
    agent_connection_attempts integer,
    agent_hierarchy_level1 text,
    agent_hierarchy_level2 text,
    agent_hierarchy_level3 text,
    agent_hierarchy_level4 text,
    agent_hierarchy_level5 text,
    initiation_month timestamp with time zone NOT NULL
);
ALTER TABLE ONLY public.contact_record_default ALTER COLUMN attributes SET COMPRESSION lz4;
ALTER TABLE ONLY public.contact_record_default ALTER COLUMN raw SET COMPRESSION lz4;

--
-- Name: dead_letter; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.dead_letter (
    id bigint NOT NULL,
    topic text NOT NULL,
    partition integer NOT NULL,
    "offset" bigint NOT NULL,
    key bytea,
    value bytea,
    error text NOT NULL,
    first_seen timestamp with time zone DEFAULT now() NOT NULL,
    replayed_at timestamp with time zone
);

--
-- Name: TABLE dead_letter; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.dead_letter IS 'Records that could not be decoded or validated, with their raw bytes. switchboard dlq replay re-validates them.';

--
-- Name: dead_letter_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.dead_letter_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: dead_letter_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.dead_letter_id_seq OWNED BY public.dead_letter.id;

--
-- Name: raw_retention; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.raw_retention (
    only_row boolean DEFAULT true NOT NULL,
    horizon timestamp with time zone DEFAULT '-infinity'::timestamp with time zone NOT NULL,
    keep_months integer,
    applied_at timestamp with time zone,
    CONSTRAINT raw_retention_only_row_check CHECK (only_row)
);

--
-- Name: TABLE raw_retention; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.raw_retention IS 'The retention horizon: raw rows before it were dropped (switchboard retention), and the ingest refuses rows before it (dead_letter). Rollups keep every period.';

--
-- Name: rollup_business_day_snapshot; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rollup_business_day_snapshot (
    store_id text NOT NULL,
    business_date date NOT NULL,
    day_type text NOT NULL,
    closes_at timestamp with time zone
);

--
-- Name: TABLE rollup_business_day_snapshot; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.rollup_business_day_snapshot IS 'The store_business_day rows store_day_rollup was computed with; rollup_sync_definitions() recomputes the store days around the rows that differ.';

--
-- Name: rollup_state; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rollup_state (
    singleton boolean DEFAULT true NOT NULL,
    definitions_fingerprint text,
    CONSTRAINT rollup_state_singleton_check CHECK (singleton)
);

--
-- Name: TABLE rollup_state; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.rollup_state IS 'The fingerprint of the settings, store time zones and holidays the contact rollups were computed with; rollup_sync_definitions() rebuilds them when it changes.';

--
-- Name: schema_migration; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_migration (
    version integer NOT NULL,
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL,
    checksum text
);

--
-- Name: schema_object; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_object (
    path text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

--
-- Name: staffing_history; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.staffing_history (
    queue text NOT NULL,
    queue_name text,
    store_id text NOT NULL,
    business_date date NOT NULL,
    slot smallint NOT NULL,
    queued integer NOT NULL,
    offered integer NOT NULL,
    answered integer NOT NULL,
    abandoned integer NOT NULL,
    callbacks_requested integer NOT NULL,
    handle_s bigint NOT NULL,
    handle_n integer NOT NULL,
    queue_s bigint NOT NULL
);

--
-- Name: TABLE staffing_history; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.staffing_history IS 'Queued contacts per queue, store, business day (store_business_day_at of enqueue_ts) and 15-minute slot from the business day''s midnight (slot 100 is 25:00 of an overnight day): queued (all), offered (answered + abandoned + callbacks requested: the volume the forecast predicts), handle_s/handle_n (talk + hold + after-contact work of answered contacts, and how many), queue_s (seconds in queue of all queued contacts: the patience estimate''s exposure). staffing_history_refresh(from, to) recomputes a range; switchboard staffing plan refreshes the days since the last refresh. Kept beyond raw retention: holidays forecast from the last three years.';

--
-- Name: staffing_history_day; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.staffing_history_day (
    queue text NOT NULL,
    store_id text NOT NULL,
    business_date date NOT NULL,
    queue_name text,
    offered integer NOT NULL,
    abandoned integer NOT NULL,
    handle_s bigint NOT NULL,
    handle_n integer NOT NULL,
    queue_s bigint NOT NULL,
    slots smallint[] NOT NULL,
    offered_by_slot integer[] NOT NULL,
    handle_s_by_slot bigint[] NOT NULL,
    handle_n_by_slot integer[] NOT NULL
);

--
-- Name: TABLE staffing_history_day; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.staffing_history_day IS 'staffing_history summed per queue, store and business day (offered, abandoned, handle_s, handle_n, queue_s), with the day''s slots that had queued contacts and, in the same order, their offered, handle_s and handle_n: what the forecast reads. Written by staffing_history_refresh with staffing_history.';

--
-- Name: staffing_plan; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.staffing_plan (
    plan_id bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    from_date date NOT NULL,
    to_date date NOT NULL,
    queue_filter text,
    model text NOT NULL,
    service_level_target double precision NOT NULL,
    threshold_s double precision NOT NULL,
    max_occupancy double precision,
    shrinkage double precision NOT NULL,
    forecast_method text NOT NULL,
    notes text[] DEFAULT '{}'::text[] NOT NULL
);

--
-- Name: TABLE staffing_plan; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.staffing_plan IS 'One row per switchboard staffing plan run: the date range and queue asked for, the model (erlang-a, erlang-c), the target (service_level_target answered within threshold_s over offered), max_occupancy, shrinkage, the forecast method and its parameters, and the notes printed (fallbacks to another day type, queues without abandons). Its intervals are staffing_plan_interval.';

--
-- Name: staffing_plan_interval; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.staffing_plan_interval (
    plan_id bigint NOT NULL,
    queue text NOT NULL,
    queue_name text,
    interval_start timestamp with time zone NOT NULL,
    day_types text NOT NULL,
    forecast_offered double precision NOT NULL,
    forecast_aht_s double precision,
    patience_s double precision,
    offered_load double precision NOT NULL,
    agents integer NOT NULL,
    fractional_agents double precision NOT NULL,
    scheduled_agents integer NOT NULL,
    scheduled_fractional_agents double precision NOT NULL,
    service_level double precision NOT NULL,
    connect_service_level double precision NOT NULL,
    probability_of_waiting double precision NOT NULL,
    average_speed_of_answer_s double precision,
    occupancy double precision NOT NULL,
    probability_of_abandoning double precision
);

--
-- Name: TABLE staffing_plan_interval; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.staffing_plan_interval IS 'The plan per queue and 15-minute interval: day_types of the stores feeding the queue that day, the forecast (offered contacts, AHT), the patience used (Erlang A), agents needed on the queue (whole, and fractional: sum those, then round), scheduled agents (agents / (1 - shrinkage)) and the predicted service_level (answered within X over offered), connect_service_level (removed from the queue within X over queued), ASA of answered contacts, occupancy, probability of abandoning. Join with queue_interval_metrics on (queue, interval_start) to compare with what happened. Written with its staffing_plan row in one transaction, deleted with it (a trigger on staffing_plan).';

--
-- Name: staffing_plan_plan_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.staffing_plan ALTER COLUMN plan_id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.staffing_plan_plan_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: staffing_refresh; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.staffing_refresh (
    singleton boolean DEFAULT true NOT NULL,
    refreshed_at timestamp with time zone NOT NULL,
    through_date date NOT NULL,
    CONSTRAINT staffing_refresh_singleton_check CHECK (singleton)
);

--
-- Name: TABLE staffing_refresh; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.staffing_refresh IS 'When staffing_history_refresh last ran, and the last business day it covered: a plan skips the refresh when the history was brought up to date through yesterday a few minutes ago.';

--
-- Name: staffing_source; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.staffing_source (
    queue text NOT NULL,
    store_id text NOT NULL,
    first_date date NOT NULL,
    last_date date NOT NULL
);

--
-- Name: TABLE staffing_source; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.staffing_source IS 'Which stores feed which queue, and the business days of staffing_history between which they did: a store''s days before first_date are not zeros of that queue.';

--
-- Name: store; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.store (
    store_id text NOT NULL,
    name text NOT NULL,
    time_zone text NOT NULL,
    calendar_id text NOT NULL,
    hours_profile text NOT NULL,
    attributes jsonb DEFAULT '{}'::jsonb NOT NULL
);

--
-- Name: TABLE store; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.store IS 'The stores declared in flows/, rewritten on migrate, import and flows reload.';

--
-- Name: store_business_day; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.store_business_day (
    store_id text NOT NULL,
    business_date date NOT NULL,
    day_type text NOT NULL,
    hours_reason text,
    holiday_name text,
    opens_at timestamp with time zone,
    closes_at timestamp with time zone
);

--
-- Name: TABLE store_business_day; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TABLE public.store_business_day IS 'One row per store and business day, computed by the IVR hook''s evaluator from flows/ for every year with contacts and the coming year. day_type: weekday, weekend, holiday, pre_holiday, closure, override. hours_reason: the closure, override or holiday that set the hours (NULL for weekly hours). opens_at/closes_at: the first opening and the last closing of the day (NULL when closed all day; closes_at is past midnight for overnight hours).';

--
-- Name: agent_event_default; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_event ATTACH PARTITION public.agent_event_default DEFAULT;

--
-- Name: contact_event_default; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.contact_event ATTACH PARTITION public.contact_event_default DEFAULT;

--
-- Name: contact_record_default; Type: TABLE ATTACH; Schema: public; Owner: -
--

ALTER TABLE ONLY public.contact_record ATTACH PARTITION public.contact_record_default DEFAULT;

--
-- Name: dead_letter id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dead_letter ALTER COLUMN id SET DEFAULT nextval('public.dead_letter_id_seq'::regclass);

--
-- Name: agent_event agent_event_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_event
    ADD CONSTRAINT agent_event_pkey PRIMARY KEY (event_id, event_ts);

--
-- Name: agent_event_default agent_event_default_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_event_default
    ADD CONSTRAINT agent_event_default_pkey PRIMARY KEY (event_id, event_ts);

--
-- Name: agent_interval_rollup agent_interval_rollup_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_interval_rollup
    ADD CONSTRAINT agent_interval_rollup_pkey PRIMARY KEY (agent_arn, interval_start);

--
-- Name: agent_latest_event agent_latest_event_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_latest_event
    ADD CONSTRAINT agent_latest_event_pkey PRIMARY KEY (agent_arn);

--
-- Name: analytics_setting analytics_setting_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.analytics_setting
    ADD CONSTRAINT analytics_setting_pkey PRIMARY KEY (key);

--
-- Name: calendar_day calendar_day_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.calendar_day
    ADD CONSTRAINT calendar_day_pkey PRIMARY KEY (day);

--
-- Name: consumer_offset consumer_offset_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.consumer_offset
    ADD CONSTRAINT consumer_offset_pkey PRIMARY KEY (consumer_group, topic, partition);

--
-- Name: contact_event contact_event_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.contact_event
    ADD CONSTRAINT contact_event_pkey PRIMARY KEY (event_id, event_ts);

--
-- Name: contact_event_default contact_event_default_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.contact_event_default
    ADD CONSTRAINT contact_event_default_pkey PRIMARY KEY (event_id, event_ts);

--
-- Name: contact_record contact_record_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.contact_record
    ADD CONSTRAINT contact_record_pkey PRIMARY KEY (contact_id, initiation_month);

--
-- Name: contact_record_default contact_record_default_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.contact_record_default
    ADD CONSTRAINT contact_record_default_pkey PRIMARY KEY (contact_id, initiation_month);

--
-- Name: dead_letter dead_letter_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dead_letter
    ADD CONSTRAINT dead_letter_pkey PRIMARY KEY (id);

--
-- Name: dead_letter dead_letter_topic_partition_offset_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dead_letter
    ADD CONSTRAINT dead_letter_topic_partition_offset_key UNIQUE (topic, partition, "offset");

--
-- Name: queue_interval_rollup queue_interval_rollup_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.queue_interval_rollup
    ADD CONSTRAINT queue_interval_rollup_pkey PRIMARY KEY (queue, interval_start);

--
-- Name: raw_retention raw_retention_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.raw_retention
    ADD CONSTRAINT raw_retention_pkey PRIMARY KEY (only_row);

--
-- Name: rollup_business_day_snapshot rollup_business_day_snapshot_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rollup_business_day_snapshot
    ADD CONSTRAINT rollup_business_day_snapshot_pkey PRIMARY KEY (store_id, business_date);

--
-- Name: rollup_state rollup_state_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rollup_state
    ADD CONSTRAINT rollup_state_pkey PRIMARY KEY (singleton);

--
-- Name: schema_migration schema_migration_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_migration
    ADD CONSTRAINT schema_migration_pkey PRIMARY KEY (version);

--
-- Name: schema_object schema_object_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_object
    ADD CONSTRAINT schema_object_pkey PRIMARY KEY (path);

--
-- Name: staffing_history_day staffing_history_day_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.staffing_history_day
    ADD CONSTRAINT staffing_history_day_pkey PRIMARY KEY (queue, store_id, business_date);

--
-- Name: staffing_history staffing_history_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.staffing_history
    ADD CONSTRAINT staffing_history_pkey PRIMARY KEY (queue, store_id, business_date, slot);

--
-- Name: staffing_plan_interval staffing_plan_interval_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.staffing_plan_interval
    ADD CONSTRAINT staffing_plan_interval_pkey PRIMARY KEY (plan_id, queue, interval_start);

--
-- Name: staffing_plan staffing_plan_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.staffing_plan
    ADD CONSTRAINT staffing_plan_pkey PRIMARY KEY (plan_id);

--
-- Name: staffing_refresh staffing_refresh_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.staffing_refresh
    ADD CONSTRAINT staffing_refresh_pkey PRIMARY KEY (singleton);

--
-- Name: staffing_source staffing_source_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.staffing_source
    ADD CONSTRAINT staffing_source_pkey PRIMARY KEY (queue, store_id);

--
-- Name: store_business_day store_business_day_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.store_business_day
    ADD CONSTRAINT store_business_day_pkey PRIMARY KEY (store_id, business_date);

--
-- Name: store_day_rollup store_day_rollup_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.store_day_rollup
    ADD CONSTRAINT store_day_rollup_pkey PRIMARY KEY (store_id, business_date, day_type);

--
-- Name: store store_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.store
    ADD CONSTRAINT store_pkey PRIMARY KEY (store_id);

--
-- Name: agent_event_agent_ts; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX agent_event_agent_ts ON ONLY public.agent_event USING btree (agent_arn, event_ts);

--
-- Name: agent_event_default_agent_arn_event_ts_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX agent_event_default_agent_arn_event_ts_idx ON public.agent_event_default USING btree (agent_arn, event_ts);

--
-- Name: agent_event_ts; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX agent_event_ts ON ONLY public.agent_event USING btree (event_ts);

--
-- Name: agent_event_default_event_ts_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX agent_event_default_event_ts_idx ON public.agent_event_default USING btree (event_ts);

--
-- Name: agent_interval_rollup_interval; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX agent_interval_rollup_interval ON public.agent_interval_rollup USING btree (interval_start);

--
-- Name: agent_status_rollup_agent; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX agent_status_rollup_agent ON public.agent_status_rollup USING btree (agent_arn, interval_start);

--
-- Name: agent_status_rollup_interval; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX agent_status_rollup_interval ON public.agent_status_rollup USING btree (interval_start);

--
-- Name: contact_event_contact; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX contact_event_contact ON ONLY public.contact_event USING btree (contact_id, event_ts);

--
-- Name: contact_event_default_contact_id_event_ts_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX contact_event_default_contact_id_event_ts_idx ON public.contact_event_default USING btree (contact_id, event_ts);

--
-- Name: contact_event_ts; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX contact_event_ts ON ONLY public.contact_event USING btree (event_ts);

--
-- Name: contact_event_default_event_ts_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX contact_event_default_event_ts_idx ON public.contact_event_default USING btree (event_ts);

--
-- Name: contact_record_enqueue; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX contact_record_enqueue ON ONLY public.contact_record USING btree (enqueue_ts) WHERE (enqueue_ts IS NOT NULL);

--
-- Name: contact_record_default_enqueue_ts_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX contact_record_default_enqueue_ts_idx ON public.contact_record_default USING btree (enqueue_ts) WHERE (enqueue_ts IS NOT NULL);

--
-- Name: contact_record_initiation; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX contact_record_initiation ON ONLY public.contact_record USING btree (initiation_ts);

--
-- Name: contact_record_default_initiation_ts_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX contact_record_default_initiation_ts_idx ON public.contact_record_default USING btree (initiation_ts);

--
-- Name: contact_record_next; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX contact_record_next ON ONLY public.contact_record USING btree (next_contact_id) WHERE (next_contact_id IS NOT NULL);

--
-- Name: contact_record_default_next_contact_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX contact_record_default_next_contact_id_idx ON public.contact_record_default USING btree (next_contact_id) WHERE (next_contact_id IS NOT NULL);

--
-- Name: contact_record_store; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX contact_record_store ON ONLY public.contact_record USING btree (store_id, initiation_ts);

--
-- Name: contact_record_default_store_id_initiation_ts_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX contact_record_default_store_id_initiation_ts_idx ON public.contact_record_default USING btree (store_id, initiation_ts);

--
-- Name: queue_interval_rollup_interval; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX queue_interval_rollup_interval ON public.queue_interval_rollup USING btree (interval_start);

--
-- Name: queue_interval_rollup_stale; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX queue_interval_rollup_stale ON public.queue_interval_rollup USING btree (queue, interval_start) WHERE max_stale;

--
-- Name: staffing_history_queue_latest; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX staffing_history_queue_latest ON public.staffing_history USING btree (queue, business_date DESC);

--
-- Name: staffing_history_store_date; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX staffing_history_store_date ON public.staffing_history USING btree (store_id, business_date);

--
-- Name: store_business_day_by_date; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX store_business_day_by_date ON public.store_business_day USING btree (business_date, closes_at);

--
-- Name: store_day_rollup_date; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX store_day_rollup_date ON public.store_day_rollup USING btree (business_date);

--
-- Name: agent_event_default_agent_arn_event_ts_idx; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.agent_event_agent_ts ATTACH PARTITION public.agent_event_default_agent_arn_event_ts_idx;

--
-- Name: agent_event_default_event_ts_idx; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.agent_event_ts ATTACH PARTITION public.agent_event_default_event_ts_idx;

--
-- Name: agent_event_default_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.agent_event_pkey ATTACH PARTITION public.agent_event_default_pkey;

--
-- Name: contact_event_default_contact_id_event_ts_idx; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.contact_event_contact ATTACH PARTITION public.contact_event_default_contact_id_event_ts_idx;

--
-- Name: contact_event_default_event_ts_idx; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.contact_event_ts ATTACH PARTITION public.contact_event_default_event_ts_idx;

--
-- Name: contact_event_default_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.contact_event_pkey ATTACH PARTITION public.contact_event_default_pkey;

--
-- Name: contact_record_default_enqueue_ts_idx; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.contact_record_enqueue ATTACH PARTITION public.contact_record_default_enqueue_ts_idx;

--
-- Name: contact_record_default_initiation_ts_idx; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.contact_record_initiation ATTACH PARTITION public.contact_record_default_initiation_ts_idx;

--
-- Name: contact_record_default_next_contact_id_idx; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.contact_record_next ATTACH PARTITION public.contact_record_default_next_contact_id_idx;

--
-- Name: contact_record_default_pkey; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.contact_record_pkey ATTACH PARTITION public.contact_record_default_pkey;

--
-- Name: contact_record_default_store_id_initiation_ts_idx; Type: INDEX ATTACH; Schema: public; Owner: -
--

ALTER INDEX public.contact_record_store ATTACH PARTITION public.contact_record_default_store_id_initiation_ts_idx;

--
-- Name: analytics_setting analytics_setting_rollup_sync; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER analytics_setting_rollup_sync AFTER INSERT OR DELETE OR UPDATE ON public.analytics_setting FOR EACH STATEMENT EXECUTE FUNCTION public.analytics_setting_rollup_sync();

--
-- Name: TRIGGER analytics_setting_rollup_sync ON analytics_setting; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER analytics_setting_rollup_sync ON public.analytics_setting IS 'A changed threshold or business time zone rebuilds the contact rollups in the same transaction.';

--
-- Name: contact_record contact_record_rollup_replaced; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER contact_record_rollup_replaced AFTER UPDATE ON public.contact_record REFERENCING OLD TABLE AS replaced FOR EACH STATEMENT EXECUTE FUNCTION public.contact_record_stash_replaced();

--
-- Name: TRIGGER contact_record_rollup_replaced ON contact_record; Type: COMMENT; Schema: public; Owner: -
--

COMMENT ON TRIGGER contact_record_rollup_replaced ON public.contact_record IS 'Keeps the versions the ingest''s version guard replaced, for rollup_apply_contacts to take their contributions off the rollups.';

--
-- Name: staffing_plan staffing_plan_deleted; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER staffing_plan_deleted AFTER DELETE ON public.staffing_plan REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION public.staffing_plan_deleted();
