#!/usr/bin/env bash
# Analyst benchmark: a year of a large center generated in SQL (≥ 10,000,000 contact records of
# 24 stores, 20 queues and 300 agents, ≥ 10,000,000 agent events) in a throwaway PostgreSQL,
# `switchboard migrate` and `switchboard rollup rebuild`, then the four dashboard queries through
# the read-only analyst role, best of 3 each. The last line is machine-readable:
#   RESULT ctr_rows=<n> agent_event_rows=<n> q_queue_day_ms=<x> q_store_month_ms=<x> q_daytype_all_ms=<x>
#          q_agent_day_ms=<x> q_staffing_ms=<n> panel_ms_median=<x> panel_ms_max=<x> rebuild_s=<n>
#          ingest_ratio_change=<x>
# (ingest_ratio_change: what the rollups cost the ingest, from a `make bench-ingest` run at the end:
# its stream's rows/s with the rollups' upkeep divided by without it, alternated in the same run.)
#
#   scripts/bench-analyst.sh [--contacts N] [--agent-events N] [--binary PATH]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

contacts=10000000
agent_events=10000000
binary=""
while [ $# -gt 0 ]; do
    case "$1" in
    --contacts) contacts=$2; shift 2 ;;
    --agent-events) agent_events=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    *) echo "usage: $0 [--contacts N] [--agent-events N] [--binary PATH]" >&2; exit 2 ;;
    esac
done

ensure_packages
if [ -z "$binary" ]; then
    log "building switchboard (release)"
    binary=$(release_product switchboard)
fi

bench_postgres switchboard_analyst_bench
psql_admin() { psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d switchboard_analyst_bench "$@"; }

"$binary" migrate
# The raw tables' monthly partitions for the generated year (the ingest creates them as it
# writes; rows of a month without one would land in the default partition).
psql_admin -c "SELECT raw_partitions_ensure(ARRAY(SELECT generate_series(date_trunc('day', now()) - interval '368 days', now(), interval '1 month')))"

# A year ending two days ago (so no agent segment is still open): contacts evenly spread, 24
# stores, 20 queues, 300 agents; 90% queued, 80% answered, 2% asking for a callback (the next
# record), small raw JSON. Generated in chunks of 1,000,000 rows.
log "generating $contacts contact records"
started=$(date +%s)
chunk=1000000
for ((first = 0; first < contacts; first += chunk)); do
    last=$((first + chunk < contacts ? first + chunk : contacts))
    psql_admin <<SQL
INSERT INTO contact_record (contact_id, initial_contact_id, previous_contact_id, next_contact_id, channel,
    initiation_method, initiation_ts, connected_to_system_ts, disconnect_ts, disconnect_reason, queue_name,
    queue_arn, enqueue_ts, dequeue_ts, queue_duration_s, agent_username, agent_arn, connected_to_agent_ts,
    agent_interaction_s, customer_hold_s, acw_s, store_id, attributes, raw, last_update_ts, source_partition,
    source_offset, agent_connection_attempts, initiation_month)
SELECT 'c-' || i,
       CASE WHEN callback_of THEN 'c-' || (i - 1) END,
       CASE WHEN callback_of THEN 'c-' || (i - 1) END,
       CASE WHEN asks_callback THEN 'c-' || (i + 1) END,
       'VOICE',
       CASE WHEN callback_of THEN 'CALLBACK' ELSE 'INBOUND' END,
       t, t + interval '1 second', t + make_interval(secs => 20 + wait + talk),
       CASE WHEN answered THEN 'AGENT_DISCONNECT' ELSE 'CUSTOMER_DISCONNECT' END,
       CASE WHEN queued THEN 'Queue ' || (i % 20) END,
       CASE WHEN queued THEN 'arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/queue/q-' || (i % 20) END,
       CASE WHEN queued THEN t + interval '20 seconds' END,
       CASE WHEN queued THEN t + make_interval(secs => 20 + wait) END,
       CASE WHEN queued THEN wait END,
       CASE WHEN answered THEN 'agent' || (i * 7 % 300) END,
       CASE WHEN answered THEN 'arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/agent/a' || (i * 7 % 300) END,
       CASE WHEN answered THEN t + make_interval(secs => 20 + wait) END,
       CASE WHEN answered THEN talk END,
       CASE WHEN answered THEN (i % 4) * 10 END,
       CASE WHEN answered THEN 15 + i % 45 END,
       'store-' || (i % 24),
       jsonb_build_object('storeId', 'store-' || (i % 24)),
       jsonb_build_object('ContactId', 'c-' || i),
       t + make_interval(secs => 200 + wait + talk),
       0, i, CASE WHEN answered THEN 1 ELSE 0 END, date_trunc('month', t, 'UTC')
FROM (
    SELECT i, t, queued, queued AND i % 10 < 8 AS answered, asks_callback, callback_of,
           (i * 37) % 150 AS wait, 60 + (i * 13) % 400 AS talk
    FROM (
        SELECT i,
               date_trunc('day', now()) - interval '367 days' + make_interval(secs => i * (365.0 * 86400 / $contacts)) AS t,
               i % 10 <> 9 AS queued,
               i % 100 = 41 AS asks_callback,
               i % 100 = 42 AS callback_of
        FROM generate_series($first, $last - 1) AS i
    ) AS s
) AS c
SQL
done
log "generated contacts in $(($(date +%s) - started)) s"

# 300 agents in three 12-hour shifts, an event every few minutes each (state changes and
# heartbeats cycling through available, on contact, after-contact work and a break).
log "generating $agent_events agent events"
started=$(date +%s)
per_day=$(((agent_events + 300 * 365 - 1) / (300 * 365)))
for ((first = 0; first < agent_events; first += chunk)); do
    last=$((first + chunk < agent_events ? first + chunk : agent_events))
    psql_admin <<SQL
INSERT INTO agent_event (event_id, agent_arn, event_type, event_ts, username, status_name, status_type,
    status_start_ts, activity, contact_count, routing_profile, raw, source_partition, source_offset, contact_state)
SELECT 'e-' || k, 'arn:aws:connect:ap-northeast-1:123456789012:instance/i-1/agent/a' || a,
       CASE WHEN k % 4 = 3 THEN 'HEART_BEAT' ELSE 'STATE_CHANGE' END,
       ts, 'agent' || a,
       CASE WHEN phase = 4 THEN 'Break' ELSE 'Available' END,
       CASE WHEN phase = 4 THEN 'CUSTOM' ELSE 'ROUTABLE' END,
       ts,
       CASE phase WHEN 1 THEN 'onContact' WHEN 2 THEN 'afterContactWork' WHEN 4 THEN 'customStatus'
                  ELSE 'available' END,
       CASE WHEN phase IN (1, 2) THEN 1 ELSE 0 END,
       'Basic', jsonb_build_object('EventId', 'e-' || k), 0, k,
       CASE phase WHEN 1 THEN 'CONNECTED' WHEN 2 THEN 'ENDED' END
FROM (
    SELECT k, a, (n % 5) AS phase,
           date_trunc('day', now()) - interval '367 days' + make_interval(days => (n / $per_day)::integer)
               + make_interval(hours => (a % 3) * 4)
               + make_interval(secs => (n % $per_day) * (43200.0 / $per_day) + a % 60) AS ts
    FROM (SELECT k, k % 300 AS a, k / 300 AS n FROM generate_series($first, $last - 1) AS k) AS x
) AS e
SQL
done
log "generated agent events in $(($(date +%s) - started)) s"
psql_admin -c "VACUUM ANALYZE contact_record" -c "VACUUM ANALYZE agent_event"

log "switchboard rollup rebuild"
started=$(date +%s)
"$binary" rollup rebuild
rebuild_s=$(($(date +%s) - started))
psql_admin -c "VACUUM ANALYZE queue_interval_rollup, store_day_rollup, agent_status_rollup, agent_interval_rollup"

ctr_rows=$(psql_admin -At -c "SELECT count(*) FROM contact_record")
agent_rows=$(psql_admin -At -c "SELECT count(*) FROM agent_event")
day=$(psql_admin -At -c "SELECT (date_trunc('day', now()) - interval '150 days')::date")
month=$(psql_admin -At -c "SELECT date_trunc('month', now() - interval '150 days')::date")

# Best of 3, through the analyst role; the query's rows go to /dev/null, psql's \timing to stdout.
best_ms() {
    local sql=$1 best="" t
    for _ in 1 2 3; do
        t=$({ printf '\\timing on\n\\o /dev/null\n%s;\n' "$sql"; } \
            | psql -X -q -h 127.0.0.1 -p "$port" -U switchboard_analyst -d switchboard_analyst_bench \
            | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -n 1)
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" -eq 1 ]; then best=$t; fi
    done
    echo "$best"
}

q_queue=$(best_ms "SELECT * FROM queue_interval_metrics WHERE interval_start >= '$day' AND interval_start < date '$day' + 1")
q_month=$(best_ms "SELECT * FROM store_day_metrics WHERE business_date >= '$month' AND business_date < date '$month' + interval '1 month'")
q_daytype=$(best_ms "SELECT day_type, sum(contacts) AS contacts, sum(queued) AS queued, sum(answered) AS answered,
    round(sum(answered)::numeric / nullif(sum(queued), 0), 4) AS answer_rate FROM store_day_metrics GROUP BY day_type")
q_agent=$(best_ms "SELECT * FROM agent_interval_metrics WHERE interval_start >= '$day' AND interval_start < date '$day' + 1")

# The staffing plan for every queue and four weeks, the whole command (start, migration check,
# history refresh, forecast, Erlang A per slot, stored plan): the first run fills staffing_history
# from the raw rows (staffing_refresh_s), the timed runs (best of 3) refresh only the last days.
plan_args=(staffing plan --from "$(date -u +%F)" --to "$(date -u -d '+27 days' +%F)" --service-level 80/20 --format csv)
started=$(date +%s)
"$binary" "${plan_args[@]}" >/dev/null
staffing_refresh_s=$(($(date +%s) - started))
q_staffing=$(fastest_of_3_ms "$binary" "${plan_args[@]}")

log "queue_interval_metrics, one day ($day): $q_queue ms"
log "store_day_metrics, one month ($month): $q_month ms"
log "store_day_metrics by day type, all history: $q_daytype ms"
log "agent_interval_metrics, one day ($day): $q_agent ms"
log "switchboard staffing plan, all queues, 4 weeks: $q_staffing ms (first run with the history refresh: $staffing_refresh_s s)"
log "the console's staffing panel: GET /v1/staffing on switchboard dev"
read -r panel_median panel_max < <(time_staffing_panel "$binary")
log "GET /v1/staffing: median $panel_median ms, max $panel_max ms"

log "what the rollups cost the ingest: make bench-ingest (its rollup_ratio)"
ingest_log="$workdir/bench-ingest.log"
scripts/bench-ingest.sh >"$ingest_log" 2>&1 || { tail -n 30 "$ingest_log" >&2; exit 1; }
grep -E "^(ingest|switchboard import|the same import|imports with|ratio)" "$ingest_log" || true
# The stream's ` rollup_ratio=`, not `import_rollup_ratio=` (which the same pattern would also match).
ingest_ratio=$(grep '^RESULT' "$ingest_log" | grep -o ' rollup_ratio=[0-9.]*' | cut -d= -f2)
[ -n "$ingest_ratio" ] || { echo "bench-ingest printed no rollup_ratio" >&2; exit 1; }

echo "RESULT ctr_rows=$ctr_rows agent_event_rows=$agent_rows q_queue_day_ms=$q_queue q_store_month_ms=$q_month" \
    "q_daytype_all_ms=$q_daytype q_agent_day_ms=$q_agent q_staffing_ms=$q_staffing panel_ms_median=$panel_median" \
    "panel_ms_max=$panel_max rebuild_s=$rebuild_s ingest_ratio_change=$ingest_ratio"
