#!/usr/bin/env bash
# Benchmark of the console streams (a benchmark, not a test: it prints figures, gates nothing).
#
#   scripts/bench-console.sh [--clients N] [--rate EVENTS_PER_S] [--duration SECONDS]
#
# Builds switchboard in release mode, starts `switchboard-bench console-demo --empty` (embedded Kafka,
# the floor feed, the HTTP server; no PostgreSQL) on a free loopback port, then runs
# `switchboard-bench bench-console`: N WebSocket clients (default 500) on /v1/floor/stream while
# RATE agent events per second (default 2,000) are produced to Kafka for SECONDS (default 60).
# Reports latency from produce to client receipt (p50/p99/max), deltas delivered vs expected,
# and the server's CPU time and peak RSS. The last line is machine-readable:
#   RESULT console_p50_ms=<x> console_p99_ms=<x> delivered=<n> expected=<n> clients=<n> events_per_s=<n>
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

clients=500 rate=2000 duration=60
while [ $# -gt 0 ]; do
    case "$1" in
        --clients) clients=$2; shift 2 ;;
        --rate) rate=$2; shift 2 ;;
        --duration) duration=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

ensure_packages
scratch=(${SWITCHBOARD_SCRATCH:+--scratch-path "$SWITCHBOARD_SCRATCH"})
log "building switchboard-bench (release)"
swift build -c release "${scratch[@]}" --product switchboard-bench
binary="$(swift build -c release "${scratch[@]}" --show-bin-path)/switchboard-bench"

ulimit -n 65536 2>/dev/null || ulimit -n 4096
mkdir -p .artifacts
port=$(free_port)
serverlog=.artifacts/bench-console-server.log
log "starting console-demo on 127.0.0.1:$port"
SWITCHBOARD_LOG_LEVEL=warning "$binary" console-demo --empty --http-port "$port" >"$serverlog" 2>&1 &
server=$!
trap 'kill -INT "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
wait_ready "http://127.0.0.1:$port/ready" 30 "$server" || true
bootstrap=$(sed -n 's/^KAFKA_BOOTSTRAP=//p' "$serverlog" | head -n 1)
[ -n "$bootstrap" ] || { cat "$serverlog"; echo "console-demo did not start" >&2; exit 1; }

ticks=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
start_ticks=$(cpu_ticks)
start_time=$(date +%s.%N)
peak_rss=0
( while kill -0 "$server" 2>/dev/null; do
      awk '/VmRSS/ {print $2}' "/proc/$server/status"
      sleep 1
  done ) >.artifacts/bench-console-rss.txt &
sampler=$!

"$binary" bench-console --server "127.0.0.1:$port" --bootstrap "$bootstrap" \
    --clients "$clients" --rate "$rate" --duration "$duration" | tee .artifacts/bench-console-client.txt

end_ticks=$(cpu_ticks)
end_time=$(date +%s.%N)
kill "$sampler" 2>/dev/null || true
peak_rss=$(sort -n .artifacts/bench-console-rss.txt | tail -n 1)
result=$(grep '^RESULT ' .artifacts/bench-console-client.txt | tail -n 1)
python3 - "$start_ticks" "$end_ticks" "$ticks" "$start_time" "$end_time" "$peak_rss" <<'PY'
import sys
start, end, hz, t0, t1, rss = sys.argv[1:]
seconds = (int(end) - int(start)) / int(hz)
wall = float(t1) - float(t0)
print(f"server: cpu {seconds:.1f} s over {wall:.1f} s wall ({100 * seconds / wall:.0f}% of one core), peak RSS {int(rss) / 1024:.0f} MiB")
PY
echo "$result"
