#!/usr/bin/env bash
# The production topology without Docker (`make topology-test`, run by `make test`): the compose
# topology as separate local processes, and the rolling restart a Kubernetes rollout does.
#
#   scripts/topology-test.sh
#
# One embedded broker process (`switchboard broker`), `switchboard migrate`, two `ingest` workers
# of one group, two `serve` replicas behind HAProxy (health check on /ready/hook, as a Kubernetes
# Service uses readiness), and `switchboard simulate` sending its IVR calls through HAProxy.
# PostgreSQL gets the production roles from deploy/postgres-init/roles.psql (trust authentication
# on loopback, so no passwords): migrate runs as switchboard_owner, the ingest workers as
# switchboard_ingest, retention as switchboard_retention_job; serve and simulate get no database
# URL. The checks read the tables as the superuser. Checks, in order:
#   1. rows flow (CTRs, agent events) and the console is live on both serve replicas; every
#      session of the database is an ingest worker's, as switchboard_ingest, which is no
#      superuser and not the schema's owner;
#   2. a rolling SIGTERM of each serve replica (drain, exit, restart, ready) while an open-loop
#      load of hook calls runs through HAProxy: 0 failed hook calls;
#   3. a SIGKILL of one ingest worker mid-stream: afterwards sum(versions_seen) equals the CTR
#      messages in Kafka, every agent and contact event is stored once, and the stored offsets
#      equal the topics' ends (exactly once);
#   4. `switchboard retention --dry-run` runs as switchboard_retention_job.
# Prints the figures (hook calls, failures, time to ready per role, rows) and exits non-zero on
# the first failed check. SWITCHBOARD_BINARY and SWITCHBOARD_BENCH_BINARY: the binaries to run
# (default: debug builds).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

ensure_packages haproxy
if [ -n "${SWITCHBOARD_BINARY:-}" ] && [ -n "${SWITCHBOARD_BENCH_BINARY:-}" ]; then
    binary=$SWITCHBOARD_BINARY
    bench=$SWITCHBOARD_BENCH_BINARY
else
    log "building switchboard and switchboard-bench (debug)"
    swift build --product switchboard
    swift build --product switchboard-bench
    binary="$(swift build --show-bin-path)/switchboard"
    bench="$(swift build --show-bin-path)/switchboard-bench"
fi

work=$(mktemp -d /tmp/switchboard-topology.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    stop_postgres "$work/pg"
    [ -n "${KEEP_TOPOLOGY_WORK:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

fail() {
    log "FAIL: $*"
    for file in "$work"/*.log; do
        echo "---- $(basename "$file") (last 15 lines)" >&2
        tail -n 15 "$file" >&2 || true
    done
    exit 1
}

now_ms() { date +%s%3N; }

# start NAME COMMAND...: a role in the background, its output in $work/NAME.log; sets $started.
start() {
    local name=$1
    shift
    # Appended: a restarted replica's log follows its predecessor's (the drain, the exit).
    "$@" >>"$work/$name.log" 2>&1 &
    started=$!
    pids+=("$started")
}

# ready NAME URL: waits for URL to answer 2xx and prints the time it took.
ready() {
    local name=$1 url=$2 since
    since=$(now_ms)
    wait_ready "$url" 120 || fail "$name never became ready at $url"
    echo "$(($(now_ms) - since))"
}

pg_port=$(free_port)
log "PostgreSQL on 127.0.0.1:$pg_port"
start_postgres "$work/pg" "$pg_port" fast
create_database "$pg_port" switchboard
log "database roles: deploy/postgres-init/roles.psql (no passwords: the cluster trusts loopback)"
env -u POSTGRES_OWNER_PASSWORD -u POSTGRES_INGEST_PASSWORD -u POSTGRES_RETENTION_PASSWORD \
    psql -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -X -v ON_ERROR_STOP=1 -v database=switchboard \
    -f deploy/postgres-init/roles.psql >"$work/roles.log" 2>&1 || fail "deploy/postgres-init/roles.psql failed"
database_url() { echo "postgres://$1@127.0.0.1:$pg_port/switchboard"; }
owner_url=$(database_url switchboard_owner)
writer_url=$(database_url switchboard_ingest)
retention_url=$(database_url switchboard_retention_job)
# Each role gets its own URL below; serve and simulate none.
unset SWITCHBOARD_DATABASE_URL
export SWITCHBOARD_LOG_LEVEL=warning
export SWITCHBOARD_KAFKA_SESSION_TIMEOUT_MS=6000
export SWITCHBOARD_SHUTDOWN_DRAIN_SECONDS=5
export SWITCHBOARD_FLOWS_DIR="$PWD/flows"
psql_value() { psql -h 127.0.0.1 -p "$pg_port" -U postgres -d switchboard -qAt -c "$1"; }
# serve's login carries its own limits (a group's settings would not reach it): what a session of
# it sees, and its connection limit.
serve_limits=$(psql -h 127.0.0.1 -p "$pg_port" -U switchboard_serve -d switchboard -qAt \
    -c "SELECT current_setting('statement_timeout') || ' ' || current_setting('idle_in_transaction_session_timeout')
               || ' ' || rolconnlimit FROM pg_roles WHERE rolname = current_user")
[ "$serve_limits" = "10s 30s 16" ] ||
    fail "switchboard_serve's statement_timeout, idle-in-transaction timeout and connection limit are '$serve_limits', not '10s 30s 16'"

log "broker: switchboard broker (the embedded mock cluster as its own process)"
# 48 partitions: the mock cluster deletes a partition's oldest records beyond ~5 MB, and 12
# agents' events keyed by agent on 6 partitions can put 5 MB in one of them.
start broker "$binary" broker --partitions 48 --bootstrap-file "$work/bootstrap"
for _ in $(seq 1 100); do [ -s "$work/bootstrap" ] && break; sleep 0.1; done
[ -s "$work/bootstrap" ] || fail "the broker did not write its bootstrap address"
bootstrap=$(cat "$work/bootstrap")
export SWITCHBOARD_KAFKA_BOOTSTRAP=$bootstrap
log "broker at $bootstrap"

log "migrate, as switchboard_owner"
SWITCHBOARD_DATABASE_URL=$owner_url "$binary" migrate >"$work/migrate.log" 2>&1 || fail "switchboard migrate failed"

declare -A port time_to_ready
for role in ingest-1 ingest-2 serve-1 serve-2 simulator; do port[$role]=$(free_port); done
for role in ingest-1 ingest-2; do
    start "$role" env SWITCHBOARD_DATABASE_URL="$writer_url" "$binary" ingest --http-port "${port[$role]}"
    eval "pid_${role/-/_}=$started"
done
# serve refuses to start with the hook or the console open; this machine's loopback is the
# private network SWITCHBOARD_ALLOW_OPEN is for (the load tool and curl send no credentials).
serve_start() {
    start "$1" env SWITCHBOARD_ALLOW_OPEN=hook,console "$binary" serve --http-port "${port[$1]}"
    eval "pid_${1/-/_}=$started"
}
serve_start serve-1
serve_start serve-2
for role in ingest-1 ingest-2 serve-1 serve-2; do
    time_to_ready[$role]=$(ready "$role" "http://127.0.0.1:${port[$role]}/ready")
done

haproxy_port=$(free_port)
cat >"$work/haproxy.cfg" <<CFG
global
    maxconn 4096
    log stderr format raw local0 info
defaults
    mode http
    log global
    option httplog
    timeout connect 1s
    timeout check 2s
    # Longer than the load phase: the load tool keeps its connections open and idle between
    # bursts, and HAProxy closing one at its client timeout (408) races the call written on it.
    timeout client 2m
    timeout http-keep-alive 2m
    timeout server 30s
    option http-server-close
frontend hook
    bind 127.0.0.1:$haproxy_port
    default_backend serve
backend serve
    balance roundrobin
    # HTTP/1.1 with a Host: serve, open, answers only a loopback or private Host (HAProxy's
    # default check is HTTP/1.0 without one).
    option httpchk
    http-check send meth GET uri /ready/hook ver HTTP/1.1 hdr Host 127.0.0.1
    default-server inter 200ms fall 3 rise 2
    server serve-1 127.0.0.1:${port[serve-1]} check
    server serve-2 127.0.0.1:${port[serve-2]} check
CFG
start haproxy haproxy -f "$work/haproxy.cfg" -db
wait_ready "http://127.0.0.1:$haproxy_port/ready/hook" 30 || fail "HAProxy did not pass requests"

log "simulate: traffic to Kafka, IVR calls through HAProxy"
# A Friday lunchtime in Japan (--start): the stores are open whatever the wall clock says.
start simulator "$binary" simulate --speed 120 --agents 12 --calls-per-hour 30 --start 2026-11-20T11:30:00+09:00 \
    --hook-url "http://127.0.0.1:$haproxy_port/v1/hooks/main" --http-port "${port[simulator]}"
pid_simulator=$started

log "1. rows flow, the console is live on both replicas"
deadline=$((SECONDS + 120))
until [ "$(psql_value 'SELECT count(*) FROM contact_record' 2>/dev/null || echo 0)" -gt 0 ] &&
    [ "$(psql_value 'SELECT count(*) FROM agent_event' 2>/dev/null || echo 0)" -gt 0 ]; do
    [ "$SECONDS" -lt "$deadline" ] || fail "no CTR or agent event rows after 120 s"
    sleep 1
done
for role in serve-1 serve-2; do
    deadline=$((SECONDS + 60))
    until curl -fsS "http://127.0.0.1:${port[$role]}/v1/floor" | python3 -c \
        'import json,sys; sys.exit(0 if json.load(sys.stdin)["view"]["agents"] else 1)' 2>/dev/null; do
        [ "$SECONDS" -lt "$deadline" ] || fail "$role's console shows no agents"
        sleep 1
    done
done
log "rows flowing; agents live on serve-1 and serve-2"
# Who is connected to the database: only the ingest workers (serve and simulate have no URL,
# migrate has ended), as switchboard_ingest, which is no superuser, does not own the database,
# and is no member of the role that owns the schema's tables.
sessions=$(psql_value "SELECT a.usename || '|' || r.rolsuper || '|' || (d.datdba = r.oid)
        || '|' || pg_has_role(r.oid, (SELECT relowner FROM pg_class WHERE oid = 'public.schema_migration'::regclass), 'MEMBER')
    FROM pg_stat_activity a JOIN pg_roles r ON r.oid = a.usesysid JOIN pg_database d ON d.oid = a.datid
    WHERE a.datname = 'switchboard' AND a.backend_type = 'client backend' AND a.pid <> pg_backend_pid()
    GROUP BY 1")
echo "  database sessions (user|superuser|owns the database|member of the schema's owner): ${sessions//$'\n'/ }"
[ "$sessions" = "switchboard_ingest|false|false|false" ] ||
    fail "the database's sessions are not only switchboard_ingest's, a plain role that does not own the schema: ${sessions//$'\n'/ }"
owners=$(psql_value "SELECT string_agg(DISTINCT pg_get_userbyid(relowner), ',') FROM pg_class
    WHERE relnamespace = 'public'::regnamespace")
[ "$owners" = switchboard_owner ] || fail "the schema's relations are owned by $owners, not switchboard_owner alone"

log "2. rolling SIGTERM of each serve replica under a fixed-rate hook load through HAProxy"
cc -O2 -Wall -o "$work/fixed-rate" scripts/tools/fixed-rate.c -lm
printf '%s' '{"Name":"ContactFlowEvent","Details":{"ContactData":{"Channel":"VOICE","ContactId":"5ca32fbd-8f92-46af-92a5-6b0f970f0efe","SystemEndpoint":{"Address":"+81355500103","Type":"TELEPHONE_NUMBER"},"Attributes":{}},"Parameters":{}}}' >"$work/call.json"
"$work/fixed-rate" -a 127.0.0.1 -p "$haproxy_port" -P /v1/hooks/main -b "$work/call.json" \
    -r 200 -d 40 -w 1 -c 16 >"$work/load.out" 2>"$work/load.log" &
load=$!
sleep 3
for role in serve-1 serve-2; do
    pid_var="pid_${role/-/_}"
    kill -TERM "${!pid_var}"
    wait "${!pid_var}" || fail "$role did not exit 0 after SIGTERM"
    serve_start "$role"
    time_to_ready["$role (restart)"]=$(ready "$role" "http://127.0.0.1:${port[$role]}/ready/hook")
    sleep 2 # HAProxy's rise (2 checks of 200 ms) and some traffic on the new replica
done
wait "$load" || fail "the load generator failed"
load_line=$(tail -n 1 "$work/load.out")
echo "$load_line"
sent=$(sed -n 's/.* sent=\([0-9]*\).*/\1/p' <<<"$load_line")
ok=$(sed -n 's/.* ok=\([0-9]*\).*/\1/p' <<<"$load_line")
non2xx=$(sed -n 's/.* non2xx=\([0-9]*\).*/\1/p' <<<"$load_line")
errors=$(sed -n 's/.* errors=\([0-9]*\).*/\1/p' <<<"$load_line")
[ -n "$sent" ] && [ "$sent" -gt 0 ] || fail "no hook calls were sent"
if [ "$non2xx" -ne 0 ] || [ "$errors" -ne 0 ]; then
    # What answered: the generator's record of each failed call, and HAProxy's log line of every
    # call it did not answer 2xx (server, timers, status, termination state).
    echo "---- fixed-rate's failed calls" >&2
    grep '^fixed-rate:' "$work/load.log" >&2 || true
    echo "---- HAProxy's calls not answered 2xx" >&2
    grep -E ' -?[0-9]+/-?[0-9]+/-?[0-9]+/-?[0-9]+/-?[0-9]+ [013-9][0-9][0-9] ' "$work/haproxy.log" | head -n 20 >&2 || true
    fail "hook calls failed during the rolling restart: $load_line"
fi

log "3. SIGKILL of ingest-1 mid-stream; exactly once afterwards"
kill -KILL "$pid_ingest_1"
wait "$pid_ingest_1" 2>/dev/null || true
sleep 10
kill -INT "$pid_simulator"
wait "$pid_simulator" || true
# Every message in the topics ($work/messages: topic partition offset key), read back from the
# broker through our own binding up to each partition's high watermark.
"$bench" topic-dump --bootstrap "$bootstrap" --topic contact-records --topic agent-events \
    --topic contact-events >"$work/messages" 2>"$work/topic-dump.log" || fail "reading the topics back failed"
count_topic() { awk -v topic="$1" '$1 == topic' "$work/messages" | wc -l; }
ctr_messages=$(count_topic contact-records)
agent_messages=$(count_topic agent-events)
contact_messages=$(count_topic contact-events)
# Kafka does not promise contiguous offsets (transaction markers and compaction leave gaps): the
# stored next offsets must equal each partition's last offset + 1, summed.
total=$(awk '{ key = $1 " " $2; if (!(key in last) || $3 > last[key]) last[key] = $3 }
    END { sum = 0; for (key in last) sum += last[key] + 1; print sum }' "$work/messages")
awk '{ key = $1 "|" $2; if (!(key in last) || $3 > last[key]) last[key] = $3 }
    END { for (key in last) print key "|" last[key] + 1 }' "$work/messages" | sort >"$work/expected"
# Caught up when every partition's stored next offset is its last offset + 1 (partitions without
# messages keep the claim's -1).
stored() {
    psql_value "SELECT topic || '|' || partition || '|' || next_offset FROM consumer_offset WHERE next_offset >= 0" |
        sort >"$work/stored"
}
deadline=$((SECONDS + 120))
until stored && cmp -s "$work/expected" "$work/stored"; do
    if [ "$SECONDS" -ge "$deadline" ]; then
        diff "$work/expected" "$work/stored" >&2 || true
        fail "ingest-2 did not catch up to the topics' ends (< Kafka, > stored)"
    fi
    sleep 1
done
versions=$(psql_value 'SELECT coalesce(sum(versions_seen), 0) FROM contact_record')
dead=$(psql_value 'SELECT count(*) FROM dead_letter')
agent_rows=$(psql_value 'SELECT count(*) FROM agent_event')
contact_rows=$(psql_value 'SELECT count(*) FROM contact_event')
ctr_rows=$(psql_value 'SELECT count(*) FROM contact_record')
[ "$versions" -eq "$ctr_messages" ] || fail "sum(versions_seen) $versions != $ctr_messages CTR messages (lost or twice)"
[ "$dead" -eq 0 ] || fail "$dead dead letters from the simulator's traffic"
if [ "$agent_rows" -ne "$agent_messages" ]; then
    echo "per partition: messages read back, rows" >&2
    for partition in $(awk '$1 == "agent-events" { print $2 }' "$work/messages" | sort -un); do
        echo "  agent-events[$partition]: $(awk -v p="$partition" '$1 == "agent-events" && $2 == p' "$work/messages" | wc -l)" \
            "$(psql_value "SELECT count(*) FROM agent_event WHERE source_partition = $partition")" >&2
    done
    awk '$1 == "agent-events" { print $2 "|" $3 }' "$work/messages" | sort >"$work/agent-read"
    psql_value "SELECT source_partition || '|' || source_offset FROM agent_event" | sort >"$work/agent-stored"
    echo "partition|offset read back (<) or stored (>) only:" >&2
    diff "$work/agent-read" "$work/agent-stored" | head -n 20 >&2 || true
    fail "agent_event rows $agent_rows != $agent_messages messages"
fi
[ "$contact_rows" -eq "$contact_messages" ] || fail "contact_event rows $contact_rows != $contact_messages messages"

log "4. retention as switchboard_retention_job (a dry run: it lists, drops nothing)"
SWITCHBOARD_DATABASE_URL=$retention_url "$binary" retention --keep 1200mo --dry-run >"$work/retention.log" 2>&1 ||
    fail "switchboard retention --dry-run failed as switchboard_retention_job"
grep -q "nothing older than 1200 months" "$work/retention.log" ||
    fail "switchboard retention --dry-run did not report its result: $(tail -n 3 "$work/retention.log")"

log "figures"
for role in "${!time_to_ready[@]}"; do echo "  time to ready: $role ${time_to_ready[$role]} ms"; done | sort
echo "  hook calls through HAProxy during the rolling restart: sent=$sent ok=$ok non2xx=$non2xx errors=$errors"
echo "  rows: contact_record=$ctr_rows (sum versions_seen=$versions of $ctr_messages messages), agent_event=$agent_rows of $agent_messages, contact_event=$contact_rows of $contact_messages"
echo "TOPOLOGY hook_calls=$sent hook_failures=$((non2xx + errors)) ctr_messages=$ctr_messages versions_seen=$versions agent_events=$agent_rows contact_events=$contact_rows"
log "topology test: OK"
