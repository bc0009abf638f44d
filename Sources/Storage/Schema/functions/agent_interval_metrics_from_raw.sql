CREATE OR REPLACE FUNCTION agent_interval_metrics_from_raw() RETURNS SETOF agent_interval_metrics LANGUAGE sql STABLE AS $$
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

COMMENT ON FUNCTION agent_interval_metrics_from_raw() IS
'agent_interval_metrics computed from the raw tables, as the view read them before the rollups served it: what `switchboard rollup check` compares the view with.';
