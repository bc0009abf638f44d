#!/usr/bin/env bash
# Smoke test of `switchboard dev` (what `scripts/run.sh` starts), with its traffic simulator:
#
#   scripts/dev-smoke.sh
#
# Starts scripts/run.sh on a free HTTP port with a throwaway PostgreSQL (own port and data
# folder), waits for /ready, then checks that ingested CTR rows grow (delivered by the simulator
# through the receiver, as Firehose delivers them), that the SSE floor stream
# delivers a delta, and that the IVR hook answers. Then it stops the run uncleanly, as a closed
# terminal's lost shell, `kill -9` or a crash does: SIGKILL to its whole process group, which leaves
# PostgreSQL (started by pg_ctl in a session of its own) running on the data folder. It runs again
# on the same data folder, as the next `make run` does (a new embedded broker, the database kept),
# checks that the run says in one line that it reuses the server left running, and that rows grow
# again; then sends SIGINT (Ctrl-C) and checks exit status 0, that no process of the run is left
# and that PostgreSQL is stopped. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

http_port=$(free_port)
pg_port=$(free_port)
work=$(mktemp -d /tmp/switchboard-smoke.XXXXXX)
chmod 755 "$work"
output="$work/run.log"
export SWITCHBOARD_HTTP_PORT=$http_port
export SWITCHBOARD_DEV_PG_PORT=$pg_port
export SWITCHBOARD_DEV_DATA_DIR="$work/postgres"
export SWITCHBOARD_DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/switchboard"
export SWITCHBOARD_SIMULATOR=on
export SWITCHBOARD_SIMULATOR_SPEED="${SWITCHBOARD_SIMULATOR_SPEED:-120}"
# A Friday lunchtime in Japan: the simulated stores follow their hours, so a run started at night
# (JST) would see every store closed, no call answered and no agent change on the floor for minutes.
export SWITCHBOARD_SIMULATOR_START="${SWITCHBOARD_SIMULATOR_START:-2026-11-20T11:30:00+09:00}"
base="http://127.0.0.1:$http_port"

fail() {
    log "FAIL: $*"
    tail -n 40 "$output" >&2 || true
    exit 1
}

# setsid: the run gets its own process group, so leftovers are easy to find and to clean up.
start_run() {
    setsid scripts/run.sh >"$output" 2>&1 &
    runner=$!
}
start_run
cleanup() {
    kill -INT -- "-$runner" 2>/dev/null || true
    sleep 2
    kill -KILL -- "-$runner" 2>/dev/null || true
    stop_postgres "$work/postgres"
    rm -rf "$work"
}
trap cleanup EXIT

await_ready() {
    log "waiting for $base/ready (building first if needed)"
    if ! wait_ready "$base/ready" 900 "$runner"; then
        kill -0 "$runner" 2>/dev/null || fail "scripts/run.sh exited before ready"
        fail "/ready never answered 200"
    fi
}

count_rows() {
    psql -h 127.0.0.1 -p "$pg_port" -U postgres -d switchboard -qAt -c "SELECT count(*) FROM contact_record"
}
await_growth() {
    local first now grown=0
    first=$(count_rows)
    log "contact_record rows: $first; waiting for more"
    for _ in $(seq 1 90); do
        sleep 1
        now=$(count_rows)
        if [ "$now" -gt "$first" ]; then grown=1; break; fi
    done
    [ "$grown" -eq 1 ] || fail "contact_record did not grow (still $first rows)"
    log "contact_record rows grew to $now"
}

# The processes of the run's group that are left, but zombies (dead, waiting for init to reap them).
left_over() {
    ps -e -o pgid=,stat=,pid=,args= | awk -v group="$runner" '$1 == group && $2 !~ /^Z/'
}

# Like Ctrl-C in a terminal: SIGINT to the whole process group. (A background job of a script
# starts with SIGINT ignored, so run.sh alone could not trap it; switchboard installs its own handler.)
stop_run() {
    kill -INT -- "-$runner"
    local status=0
    wait "$runner" || status=$?
    [ "$status" -eq 0 ] || fail "scripts/run.sh exited with $status after SIGINT"
    sleep 1
    if left_over | grep -q .; then
        left_over >&2
        fail "processes of the run are left over"
    fi
    if postgres_processes "$SWITCHBOARD_DEV_DATA_DIR" | grep -q .; then
        fail "PostgreSQL is still running after Ctrl-C"
    fi
}

# An unclean stop: SIGKILL to the whole process group (scripts/run.sh and switchboard), so nothing
# of the run cleans up. PostgreSQL is in a session of its own (pg_ctl's) and keeps running.
kill_run() {
    kill -KILL -- "-$runner"
    wait "$runner" 2>/dev/null || true
    sleep 1
    if left_over | grep -q .; then
        left_over >&2
        fail "processes of the run survived SIGKILL"
    fi
    postgres_pid "$SWITCHBOARD_DEV_DATA_DIR" >/dev/null || fail "PostgreSQL did not survive the run's SIGKILL"
}

await_ready
await_growth
sql() { psql -h 127.0.0.1 -p "$pg_port" -U postgres -d switchboard -qAt -c "$1"; }
dead=$(sql "SELECT count(*) FROM dead_letter")
[ "$dead" -eq 0 ] || fail "$dead simulated messages went to dead_letter: $(sql 'SELECT reason FROM dead_letter LIMIT 3')"
agents=$(sql "SELECT count(*) FROM agent_event")
[ "$agents" -gt 0 ] || fail "no agent_event rows"

events=$(curl -sN --max-time 20 "$base/v1/floor/events" || true)
grep -q '"type":"delta"' <<<"$events" || fail "/v1/floor/events delivered no delta in 20 s"
log "floor stream delivered a delta"

answer=$(curl -fsS -X POST "$base/v1/hooks/main" -H 'content-type: application/json' \
    -d '{"storeId": "shibuya-trattoria"}') || fail "hook call failed"
grep -q '"result"' <<<"$answer" || fail "hook answer has no result: $answer"
log "hook answered: $answer"
# dev runs open on loopback: only its own pages may use it (a DNS-rebinding Host, a form's
# content type, another site's Origin on the floor's streams are refused).
status_of() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$@"; }
[ "$(status_of -H 'Host: attacker.example' "$base/v1/floor")" = 403 ] || fail "a foreign Host was not refused"
[ "$(status_of -X POST "$base/v1/hooks/main" -H 'content-type: text/plain' -d '{"storeId": "x"}')" = 415 ] ||
    fail "a POST that is not JSON was not refused"
[ "$(status_of -H 'Origin: http://attacker.example' "$base/v1/floor")" = 403 ] ||
    fail "another site's Origin on the floor was not refused"
[ "$(status_of -H 'Origin: http://attacker.example' -H 'Connection: Upgrade' -H 'Upgrade: websocket' \
    -H 'Sec-WebSocket-Version: 13' -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' "$base/v1/floor/stream")" = 403 ] ||
    fail "another site's Origin on the WebSocket was not refused"
[ "$(status_of -H "Origin: $base" "$base/v1/floor")" = 200 ] || fail "the console's own Origin was refused"
log "open dev refuses a foreign Host (403), a non-JSON POST (415) and a foreign Origin on the floor (403)"
id=$(curl -fsS -o /dev/null -D - -H 'X-Request-ID: smoke-1' "$base/health" | tr -d '\r' | awk -F': ' 'tolower($1)=="x-request-id"{print $2}')
[ "$id" = "smoke-1" ] || fail "X-Request-ID not echoed (got '$id')"

metrics=$(curl -fsS "$base/metrics") || fail "/metrics failed"
for name in switchboard_ingest_rows_total switchboard_hook_requests_total switchboard_simulator_calls_total \
    switchboard_simulator_hook_calls_total; do
    grep -q "^$name" <<<"$metrics" || fail "/metrics has no $name"
done
# The simulator delivers through the receiver, as Amazon Data Firehose does: the rows above came
# Connect-shaped through /v1/firehose, Kafka and the ingest.
grep -q '^switchboard_receiver_requests_total{route="firehose",stream="contact-records",status="200"}' <<<"$metrics" ||
    fail "the simulator's CTRs did not come through the receiver"
log "metrics of ingest, hook, simulator and receiver present (CTRs came through /v1/firehose); request id echoed"

kill_run
log "run killed (SIGKILL to its process group); PostgreSQL left running on its data folder"

# A second run on the kept database, after the unclean stop: it reuses the PostgreSQL left
# running, and says so in one line. Its embedded broker is new, so the offsets the first run
# stored are forgotten and the ingest reads the new topics from their start. It simulates a week
# later, so the simulated contacts are new ones (equal seeds and starts give equal contact ids).
export SWITCHBOARD_SIMULATOR_START=$(date -u -d "$SWITCHBOARD_SIMULATOR_START + 7 days" +%Y-%m-%dT%H:%M:%SZ)
log "second run on the same database, simulating from $SWITCHBOARD_SIMULATOR_START"
start_run
await_ready
said=$(grep -c "PostgreSQL left running on .* by an earlier run (pid [0-9]*): reusing it" "$output" || true)
[ "$said" -eq 1 ] || fail "the second run did not say in one line that it reuses the PostgreSQL left running ($said lines)"
log "the second run said: $(grep -o "PostgreSQL left running on .*" "$output")"
await_growth
grep -q "forgot the offsets stored by an earlier run" "$output" || fail "the second run did not forget the stored offsets"
stop_run
log "second run ingested after the SIGKILL and stopped cleanly, PostgreSQL included; smoke test passed"
