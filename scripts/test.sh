#!/usr/bin/env bash
# Runs every test against a throwaway PostgreSQL server and librdkafka's embedded mock cluster.
#
#   scripts/test.sh [swift test arguments...]
#
# Installs what is missing (librdkafka-dev, postgresql, chromium, ...), starts PostgreSQL on a free
# loopback port in a temporary folder, runs `swift test`, the MCP endpoint under the official MCP
# Python SDK (scripts/mcp-test.sh), the API fuzzing (scripts/fuzz-api.sh), the real-browser test of the console, the clock sweep (the
# suites of "now" at adversarial instants, scripts/clock-sweep.sh), the smoke test of `switchboard dev` and the production-topology test, and stops the server even when
# tests fail.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

ensure_packages chromium fonts-noto-cjk haproxy
export CI="${CI:-}"

workdir=$(mktemp -d /tmp/switchboard-test.XXXXXX)
chmod 755 "$workdir"
port=$(free_port)
cleanup() {
    stop_postgres "$workdir/pg"
    rm -rf "$workdir"
}
trap cleanup EXIT INT TERM

# What still runs, and what holds the output pipes of `swift test` (pid $1): `swift test` waits
# for the end of its test binary's output, so a process that inherited it keeps the run open.
diagnose_hang() {
    local pid=$1 child inode holder fd
    ps -eo pid,ppid,pgid,stat,wchan:24,etime,args --forest | cut -c1-220 >&2
    for child in $(pgrep -P "$pid"); do
        echo "test binary $child: state $(cut -d' ' -f3 "/proc/$child/stat" 2>/dev/null)" >&2
        for fd in /proc/"$child"/task/*; do
            echo "  thread ${fd##*/}: $(cat "$fd/wchan" 2>/dev/null) $(cut -d' ' -f3 "$fd/stat" 2>/dev/null)" >&2
        done
    done
    for inode in $(for fd in /proc/"$pid"/fd/*; do readlink "$fd"; done 2>/dev/null | grep '^pipe:' | sort -u); do
        for holder in /proc/[0-9]*; do
            [ "${holder#/proc/}" = "$pid" ] && continue
            for fd in "$holder"/fd/*; do
                [ "$(readlink "$fd" 2>/dev/null)" = "$inode" ] || continue
                echo "$inode of swift test held by ${holder#/proc/}: $(tr '\0' ' ' <"$holder/cmdline" 2>/dev/null | cut -c1-200)" >&2
                break
            done
        done
    done
}

# `swift test --skip-build "$@"`, its output line-buffered (stdbuf reaches the test binary and its
# children: a run that stops making progress shows its last lines and StepWatchdog's reports as
# they are written), Swift Testing's events recorded in .artifacts/tests/. A run that has ended
# (the events say so) and whose `swift test` has not exited 120 s later is diagnosed and stopped.
run_swift_tests() {
    mkdir -p .artifacts/tests
    local events
    events="$PWD/.artifacts/tests/events-$(date +%s%N).jsonl"
    stdbuf -oL -eL swift test --skip-build --event-stream-output-path "$events" --event-stream-version 0 "$@" &
    local pid=$! ended=""
    while kill -0 "$pid" 2>/dev/null; do
        if [ -z "$ended" ] && grep -q '"runEnded"' "$events" 2>/dev/null; then ended=$(date +%s); fi
        if [ -n "$ended" ] && [ $(( $(date +%s) - ended )) -gt 120 ]; then
            log "swift test has not exited 120 s after its run ended ($events): what still runs"
            diagnose_hang "$pid"
            pkill -KILL -P "$pid" 2>/dev/null || true
            kill -KILL "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
            return 1
        fi
        sleep 1
    done
    wait "$pid"
}

log "starting PostgreSQL on 127.0.0.1:$port (data in $workdir/pg)"
start_postgres "$workdir/pg" "$port" fast
create_database "$port" switchboard_test
export SWITCHBOARD_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/switchboard_test"
export SWITCHBOARD_TEST_POSTGRES_BIN="$(postgres_bindir)"
export SWITCHBOARD_TEST_POSTGRES_DATA="$workdir/pg"
export SWITCHBOARD_TEST_POSTGRES_CA="$workdir/pg/tls/ca.pem"
export SWITCHBOARD_TEST_WORKDIR="$workdir"

if [ -z "${SWITCHBOARD_SKIP_LINT:-}" ] && swift format --version >/dev/null 2>&1; then
    log "checking formatting (swift format lint --strict)"
    swift format lint --strict --recursive --parallel Package.swift Sources Tests
fi

log "building the tests (the deploy linters install beside it)"
scripts/deploycheck/install-tools.sh >"$workdir/linters.log" 2>&1 &
linters=$!
swift build --build-tests
wait "$linters" || cat "$workdir/linters.log" >&2  # validate-deploy.sh tries again and fails
export SWITCHBOARD_BINARY="$(swift build --show-bin-path)/switchboard"

log "validating docker-compose.yml, deploy/ manifests, alert rules and the Grafana dashboard"
scripts/validate-deploy.sh --binary "$SWITCHBOARD_BINARY"

log "running the tests"
export SWITCHBOARD_BENCH_BINARY="$(swift build --show-bin-path)/switchboard-bench"
# The suites that time a server's timeouts over real sockets run after the others, on their own:
# beside 400 tests in parallel on two cores their server's event loop and probing threads wait
# for a core for seconds, and a close due after 1 s is seen after 5.
timed='HTTPLimitsTests|FloorStreamTests'
if [ $# -eq 0 ]; then
    run_swift_tests --skip "$timed"
    log "running the suites that time the HTTP server's limits"
    run_swift_tests --filter "$timed"
else
    run_swift_tests "$@"
fi

log "the MCP endpoint through the official MCP Python SDK (scripts/mcp-test.sh)"
scripts/mcp-test.sh

log "the whole API fuzzed: schemathesis over /openapi.yaml, every MCP tool (scripts/fuzz-api.sh, 60 s each)"
scripts/fuzz-api.sh --seconds 60

log "the Amazon Connect hook forwarder (deploy/aws/hook-forwarder) against the real hook"
python3 -W error::ResourceWarning -W ignore::DeprecationWarning deploy/aws/hook-forwarder/test_handler.py

log "real-browser test of the console (headless Chromium through WebDriver)"
scripts/browser-test.sh

if [ $# -eq 0 ]; then
    log "the clock sweep: the suites of \"now\" at adversarial instants (scripts/clock-sweep.sh)"
    scripts/clock-sweep.sh
fi

log "smoke test of switchboard dev (the README's run command) with its traffic simulator"
scripts/dev-smoke.sh

log "the production topology as local processes: broker, migrate, 2 ingest, 2 serve behind HAProxy, simulate"
scripts/topology-test.sh
