#!/usr/bin/env bash
# The "expensive requests" round of `make bench-hook` (scripts/bench-hook.sh runs it last; it also
# runs alone): what the most expensive valid staffing requests of one token holder cost the IVR
# hook that shares the `serve` process with them.
#
#   scripts/bench-hook-expensive.sh [--rounds N] [--sched] [--binary PATH]   # N rounds of three (default 3)
#
# 1. builds `switchboard` in release mode (scratch path .build-release, or SWITCHBOARD_BENCH_SCRATCH),
#    or runs the one --binary names, its switchboard_*.resources beside it (old and new builds,
#    alternated, to compare them; a binary without them reads the build tree's SQL);
# 2. a throwaway PostgreSQL with the production roles (deploy/postgres-init/roles.psql), migrated
#    as switchboard_owner, the default seeded history (8 weeks and last year's holidays, ending
#    now), refreshed by `staffing plan` as switchboard_staffing_job (a plan stored for tomorrow
#    only, so that today's reforecast staffs the day from the history itself);
# 3. `switchboard broker` and `switchboard serve` with its staffing reader as switchboard_serve,
#    the hook open (SWITCHBOARD_ALLOW_OPEN=hook), one console token and one MCP token;
# 4. rounds of three, each the hook at 5,000 requests/s for 10 s after a 2 s warm-up
#    (scripts/tools/fixed-rate.c), p99:
#    - plain: nothing else runs;
#    - expensive: scripts/tools/staffing-load.py keeps both tokens' budgets full with the largest
#      plan, the reforecast with the most what-if changes and batches of 16 `staffing_outlook`;
#    - control: scripts/tools/cpu-burn.c burns at a steady rate the CPU the expensive requests took
#      in that round beyond the plain one (from /proc), and no request reaches the server but the
#      hook's. Each part burns as the processes it stands for are scheduled: serve's
#      ComputeExecutor threads' part under SCHED_IDLE (chrt --idle) at nice 10, PostgreSQL's in a
#      session of its own (pg_ctl starts the server with setsid, and the kernel shares the CPU
#      between sessions' groups first), the load's as it runs.
#    The control shows what the CPU contention alone costs the hook; the expensive round's excess
#    over it is what the server's own handling adds. Each figure is the median of the rounds.
# With --sched, `perf sched` records 4 s of each expensive and control run, and a BLAME line
# (scripts/tools/sched-blame.py) names who held the CPU while the hook's threads waited for it.
# Every load runs at most 20 s, on 127.0.0.1 only. The last line is machine-readable:
#   EXPENSIVE serve_hook_p99_ms_plain=<x> serve_hook_p99_ms_expensive=<x> serve_hook_p99_ms_control=<x>
#             expensive_cores=<x> (what the control burnt) expensive_hook_failed=<n>
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

rounds=3
sched=""
binary=""
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds=$2; shift 2 ;;
        --sched) sched=1; shift ;;
        --binary) binary="${2:?--binary needs a path}"; shift 2 ;;
        *) echo "usage: scripts/bench-hook-expensive.sh [--rounds N] [--sched] [--binary PATH]" >&2; exit 2 ;;
    esac
done
[[ "$rounds" =~ ^[1-9]$ ]] || { echo "--rounds takes 1 to 9" >&2; exit 2; }
[ -z "$sched" ] || command -v perf >/dev/null || { echo "--sched needs perf (apt-get install linux-perf)" >&2; exit 1; }

ensure_packages
if [ -n "$binary" ]; then
    [ -x "$binary" ] || { echo "--binary $binary is not an executable" >&2; exit 1; }
    log "running $binary"
else
    scratch="${SWITCHBOARD_BENCH_SCRATCH:-.build-release}"
    log "building switchboard (release, $scratch)"
    swift build -c release --scratch-path "$scratch" --product switchboard
    binary="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/switchboard"
fi

work=$(mktemp -d /tmp/switchboard-bench-expensive.XXXXXX)
chmod 755 "$work"
serve=""
broker=""
cleanup() {
    for pid in $serve $broker; do kill -INT "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    stop_postgres "$work/pg"
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

# The nice value of serve's ComputeExecutor threads, which the control's compute part burns at,
# under SCHED_IDLE as they run.
niceness=$(grep -o 'niceness: Int32 = [0-9]*' Sources/Server/Application/ComputeExecutor.swift | grep -o '[0-9]*$')
[ -n "$niceness" ] || { echo "ComputeExecutor.niceness not found in Sources/Server/Application/ComputeExecutor.swift" >&2; exit 1; }
compiler=$(command -v cc || command -v gcc || command -v clang) || { echo "no C compiler (cc, gcc or clang)" >&2; exit 1; }
"$compiler" -O2 -Wall -o "$work/fixed-rate" scripts/tools/fixed-rate.c -lm
"$compiler" -O2 -Wall -pthread -o "$work/cpu-burn" scripts/tools/cpu-burn.c -lm
figure() { grep -o "$1=[0-9.]*" "$2" | cut -d= -f2; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

pg_port=$(free_port)
log "PostgreSQL on 127.0.0.1:$pg_port with the production roles"
start_postgres "$work/pg" "$pg_port" fast
create_database "$pg_port" switchboard
env -u POSTGRES_OWNER_PASSWORD -u POSTGRES_INGEST_PASSWORD -u POSTGRES_RETENTION_PASSWORD \
    psql -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -X -v ON_ERROR_STOP=1 -v database=switchboard \
    -f deploy/postgres-init/roles.psql >"$work/roles.log" 2>&1 || { cat "$work/roles.log"; exit 1; }
database_url() { echo "postgres://$1@127.0.0.1:$pg_port/switchboard"; }
log "migrating, seeding the default history and refreshing it as the staffing job"
(
    export SWITCHBOARD_FLOWS_DIR="$PWD/flows" SWITCHBOARD_LOG_LEVEL=error
    SWITCHBOARD_DATABASE_URL=$(database_url switchboard_owner) "$binary" migrate
    SWITCHBOARD_DATABASE_URL=$(database_url switchboard_owner) "$binary" staffing seed
    SWITCHBOARD_DATABASE_URL=$(database_url switchboard_staffing_job) "$binary" staffing plan \
        --from tomorrow --to tomorrow --service-level 80/20 --format csv
) >"$work/setup.log" 2>&1 || { tail -n 20 "$work/setup.log"; exit 1; }
queue=$(psql -h 127.0.0.1 -p "$pg_port" -U postgres -d switchboard -qAt \
    -c "SELECT queue FROM staffing_history GROUP BY queue ORDER BY count(*) DESC LIMIT 1")
[ -n "$queue" ] || { echo "the seeded history has no queue" >&2; exit 1; }

"$binary" broker --partitions 6 --bootstrap-file "$work/bootstrap" >"$work/broker.log" 2>&1 &
broker=$!
for _ in $(seq 1 100); do [ -s "$work/bootstrap" ] && break; sleep 0.1; done
[ -s "$work/bootstrap" ] || { cat "$work/broker.log"; echo "the broker did not start" >&2; exit 1; }
console_token="console-$(openssl rand -hex 16)"
mcp_token="mcp-$(openssl rand -hex 16)"
port=$(free_port)
log "serve on 127.0.0.1:$port: the hook open, staffing as switchboard_serve"
env SWITCHBOARD_HTTP_HOST=127.0.0.1 SWITCHBOARD_HTTP_PORT="$port" SWITCHBOARD_FLOWS_DIR="$PWD/flows" \
    SWITCHBOARD_LOG_LEVEL=warning SWITCHBOARD_KAFKA_BOOTSTRAP="$(cat "$work/bootstrap")" \
    SWITCHBOARD_ALLOW_OPEN=hook SWITCHBOARD_HOOK_TOKENS= SWITCHBOARD_HOOK_HMAC_SECRET= \
    SWITCHBOARD_CONSOLE_TOKENS="$console_token" SWITCHBOARD_MCP_TOKENS="$mcp_token" \
    SWITCHBOARD_STAFFING_DATABASE_URL="$(database_url switchboard_serve)" \
    "$binary" serve >"$work/serve.log" 2>&1 &
serve=$!
wait_ready "http://127.0.0.1:$port/ready/hook" 30 "$serve" || { cat "$work/serve.log"; exit 1; }
curl -sf -o /dev/null -H "Authorization: Bearer $console_token" "http://127.0.0.1:$port/v1/staffing" ||
    { cat "$work/serve.log"; echo "serve's /v1/staffing does not answer" >&2; exit 1; }

# The Connect event of a real call, as bench-hook.sh sends it.
cat >"$work/connect.json" <<'JSON'
{"Name":"ContactFlowEvent","Details":{"ContactData":{"Attributes":{"language":"ja"},"Channel":"VOICE","ContactId":"5ca32fbd-8f92-46af-92a5-6b0f970f0efe","CustomerEndpoint":{"Address":"+819012345678","Type":"TELEPHONE_NUMBER"},"InitialContactId":"5ca32fbd-8f92-46af-92a5-6b0f970f0efe","InitiationMethod":"INBOUND","InstanceARN":"arn:aws:connect:ap-northeast-1:123456789012:instance/4f2a8c1e-0000-4000-8000-000000000000","MediaStreams":{"Customer":{"Audio":null}},"PreviousContactId":"5ca32fbd-8f92-46af-92a5-6b0f970f0efe","Queue":null,"SystemEndpoint":{"Address":"+81355500103","Type":"TELEPHONE_NUMBER"}},"Parameters":{"flowVersion":"3"}},"Name":"ContactFlowEvent"}
JSON
"$work/fixed-rate" -p "$port" -P /v1/hooks/main -b "$work/connect.json" -r 5000 -d 2 -w 1 -c 32 >/dev/null

# The CPU ticks of the expensive requests' work, in three parts: serve's TP-#… threads (the
# ComputeExecutor's, where each plan, reforecast and MCP post runs, and NIO's shared pool's, where
# the floor polls Kafka in every round alike), the PostgreSQL cluster's processes and, when given,
# the load's process ($1). The hook's own threads are left out: they are what is measured.
cpu_ticks() {
    local pid task compute=0 pg=0 load=0
    for task in /proc/"$serve"/task/*; do
        [[ "$(cat "$task/comm" 2>/dev/null)" == TP-* ]] || continue
        compute=$(( compute + $(awk '{print $14 + $15}' "$task/stat" 2>/dev/null || echo 0) ))
    done
    for pid in $(postgres_processes "$work/pg"); do
        pg=$(( pg + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0) ))
    done
    [ -z "${1:-}" ] || load=$(awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0)
    echo "$compute $pg $load"
}
failed=0
# One run of the hook at 5,000 requests/s (file tag $1; $2: the load's pid, if one runs); the
# cores those processes took during it go to $work/cores-$1.txt, serve's ComputeExecutor's and
# PostgreSQL's apart to $work/parts-$1.txt.
hook_run() {
    local before after t0 t1 recorder=""
    before=$(cpu_ticks "${2:-}")
    t0=$(date +%s%N)
    if [ -n "$sched" ] && [[ "$1" != plain-* ]]; then
        (sleep 4; perf sched record -q -o "$work/sched-$1.data" -- sleep 4 >/dev/null 2>&1) &
        recorder=$!
    fi
    "$work/fixed-rate" -p "$port" -P /v1/hooks/main -b "$work/connect.json" -r 5000 -d 10 -w 2 -c 32 \
        >"$work/fixed-$1.txt" || true
    t1=$(date +%s%N)
    after=$(cpu_ticks "${2:-}")
    python3 -c "
cores = [(int(y) - int(x)) / $(getconf CLK_TCK) / (($t1 - $t0) / 1e9) for x, y in zip('$before'.split(), '$after'.split())]
open('$work/cores-$1.txt', 'w').write(f'{sum(cores):.2f}\\n')
open('$work/parts-$1.txt', 'w').write(f'{cores[0]:.2f} {cores[1]:.2f}\\n')"
    log "$1: $(tail -n 1 "$work/fixed-$1.txt") cores=$(cat "$work/cores-$1.txt") (compute, PostgreSQL: $(cat "$work/parts-$1.txt")) machine load $(cut -d' ' -f1 /proc/loadavg)"
    if [ -n "$recorder" ]; then
        wait "$recorder" || true
        log "$1: $(perf sched timehist -i "$work/sched-$1.data" 2>/dev/null | python3 scripts/tools/sched-blame.py)"
    fi
    failed=$(( failed + $(figure errors "$work/fixed-$1.txt") + $(figure non2xx "$work/fixed-$1.txt") ))
}

plain=()
expensive=()
control=()
burnt=()
today=$(TZ=Asia/Tokyo date +%F)
for round in $(seq 1 "$rounds"); do
    hook_run "plain-$round"
    plain+=("$(figure p99_ms "$work/fixed-plain-$round.txt")")

    python3 scripts/tools/staffing-load.py --port "$port" --console-token "$console_token" \
        --mcp-token "$mcp_token" --date "$today" --queue "$queue" --seconds 15 >"$work/load-$round.txt" &
    loader=$!
    sleep 2  # every turn of both budgets taken
    hook_run "expensive-$round" "$loader"
    wait "$loader" || log "WARNING: expensive requests failed"
    log "expensive requests: $(tail -n 1 "$work/load-$round.txt")"
    expensive+=("$(figure p99_ms "$work/fixed-expensive-$round.txt")")

    extra=$(python3 -c "print(f'{max(0.05, $(cat "$work/cores-expensive-$round.txt") - $(cat "$work/cores-plain-$round.txt")):.2f}')")
    burnt+=("$extra")
    # The excess split into serve's ComputeExecutor part, PostgreSQL's and the rest (the load's),
    # each at least 0.01 of a core.
    read -r compute pg rest < <(python3 -c "
e, p = [float(v) for v in open('$work/parts-expensive-$round.txt').read().split()], [float(v) for v in open('$work/parts-plain-$round.txt').read().split()]
compute, pg = max(0.01, e[0] - p[0]), max(0.01, e[1] - p[1])
print(f'{compute:.2f} {pg:.2f} {max(0.01, $extra - compute - pg):.2f}')")
    nice -n "$niceness" chrt --idle 0 "$work/cpu-burn" -c "$compute" -d 14 >"$work/burn-compute-$round.txt" &
    burner_compute=$!
    setsid "$work/cpu-burn" -c "$pg" -d 14 >"$work/burn-pg-$round.txt" &
    burner_pg=$!
    "$work/cpu-burn" -c "$rest" -d 14 >"$work/burn-$round.txt" &
    burner=$!
    sleep 1
    hook_run "control-$round"
    wait "$burner" "$burner_compute" "$burner_pg"
    log "control: serve's compute part under SCHED_IDLE at nice $niceness $(cat "$work/burn-compute-$round.txt"); PostgreSQL's in a session of its own $(cat "$work/burn-pg-$round.txt"); the load's $(cat "$work/burn-$round.txt")"
    control+=("$(figure p99_ms "$work/fixed-control-$round.txt")")
done
if ! kill -0 "$serve" 2>/dev/null; then tail -n 20 "$work/serve.log"; echo "serve died" >&2; exit 1; fi
log "serve's hook p99: plain ${plain[*]} ms; beside the expensive requests ${expensive[*]} ms; beside the control ${control[*]} ms, which burnt ${burnt[*]} cores"
echo "EXPENSIVE serve_hook_p99_ms_plain=$(median "${plain[@]}") serve_hook_p99_ms_expensive=$(median "${expensive[@]}") serve_hook_p99_ms_control=$(median "${control[@]}") expensive_cores=$(median "${burnt[@]}") expensive_hook_failed=${failed}"
