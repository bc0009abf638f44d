#!/usr/bin/env bash
# Runs every test against a throwaway PostgreSQL server and librdkafka's embedded mock cluster.
#
#   scripts/test.sh [swift test arguments...]
#
# Installs what is missing (librdkafka-dev, postgresql, chromium, ...), starts PostgreSQL on a free
# loopback port in a temporary folder, runs `swift test`, the MCP endpoint under the official MCP
# Python SDK (scripts/mcp-test.sh), the real-browser test of the console, the clock sweep (the
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

log "building the tests"
swift build --build-tests
export SWITCHBOARD_BINARY="$(swift build --show-bin-path)/switchboard"

log "validating docker-compose.yml, deploy/ manifests, alert rules and the Grafana dashboard"
scripts/validate-deploy.sh --binary "$SWITCHBOARD_BINARY"

log "running the tests"
export SWITCHBOARD_BENCH_BINARY="$(swift build --show-bin-path)/switchboard-bench"
# The suites that time a server's timeouts over real sockets run after the others, on their own:
# beside 400 tests in parallel on two cores their server's event loop and probing threads wait
# for a core for seconds, and a close due after 1 s is seen after 5.
timed='HTTPLimitsTests|FloorStreamTests'
# Line-buffered output (stdbuf reaches the test binary and its children): a run that stops making
# progress shows its last lines, and StepWatchdog's reports, as they are written.
if [ $# -eq 0 ]; then
    stdbuf -oL -eL swift test --skip-build --skip "$timed"
    log "running the suites that time the HTTP server's limits"
    stdbuf -oL -eL swift test --skip-build --filter "$timed"
else
    stdbuf -oL -eL swift test --skip-build "$@"
fi

log "the MCP endpoint through the official MCP Python SDK (scripts/mcp-test.sh)"
scripts/mcp-test.sh

log "the Amazon Connect hook forwarder (deploy/aws/hook-forwarder) against the real hook"
python3 -W error::ResourceWarning -W ignore::DeprecationWarning deploy/aws/hook-forwarder/test_handler.py

log "real-browser test of the console (headless Chromium over the DevTools protocol)"
scripts/browser-test.sh

if [ $# -eq 0 ]; then
    log "the clock sweep: the suites of \"now\" at adversarial instants (scripts/clock-sweep.sh)"
    scripts/clock-sweep.sh
fi

log "smoke test of switchboard dev (the README's run command) with its traffic simulator"
scripts/dev-smoke.sh

log "the production topology as local processes: broker, migrate, 2 ingest, 2 serve behind HAProxy, simulate"
scripts/topology-test.sh
