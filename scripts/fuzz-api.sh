#!/usr/bin/env bash
# Fuzzes the whole API of `switchboard dev`: every operation of /openapi.yaml with schemathesis,
# and every MCP tool with arguments generated from its input schema (scripts/fuzz-mcp.py). No
# answer may be a 5xx, none may fail to match the declared schema, and the process stays up.
#
#   scripts/fuzz-api.sh [--seconds S]      # S per phase: 60 by default (make test), 300 for make fuzz
#
# Starts a throwaway PostgreSQL, migrates it and seeds three days of staffing history ending at
# the tests' pinned instant (so staffing and intraday answer with data), then `switchboard dev` on
# a free loopback port with every credential set, and fuzzes it. schemathesis and
# hypothesis-jsonschema are installed with pip at the versions below; when that fails, this fails.
# The SSE and WebSocket streams (floorEvents, floorStream) are left to their own tests: a fuzzer's
# request of a stream never ends. SWITCHBOARD_BINARY names the binary (default: a debug build).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

seconds=60
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds=$2; shift 2 ;;
        *) echo "usage: scripts/fuzz-api.sh [--seconds S]" >&2; exit 2 ;;
    esac
done

schemathesis_version=4.32.5
jsonschema_strategies_version=0.23.1
if ! python3 -c "import schemathesis, hypothesis_jsonschema" 2>/dev/null ||
    [ "$(python3 -c 'import importlib.metadata as m; print(m.version("schemathesis"))')" != "$schemathesis_version" ]; then
    log "installing schemathesis $schemathesis_version and hypothesis-jsonschema $jsonschema_strategies_version (pip)"
    python3 -m pip install -q --disable-pip-version-check "schemathesis==$schemathesis_version" \
        "hypothesis-jsonschema==$jsonschema_strategies_version" >/dev/null 2>&1 ||
        { log "FAIL: pip could not install schemathesis and hypothesis-jsonschema"; exit 1; }
fi

if [ -n "${SWITCHBOARD_BINARY:-}" ]; then
    binary=$SWITCHBOARD_BINARY
else
    ensure_packages
    swift build --product switchboard
    binary="$(swift build --show-bin-path)/switchboard"
fi

work=$(mktemp -d /tmp/switchboard-fuzz-api.XXXXXX)
chmod 755 "$work"
server=""
cleanup() {
    if [ -n "$server" ]; then kill -INT "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    stop_postgres "$work/pg"
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

pg_port=$(free_port)
start_postgres "$work/pg" "$pg_port" fast
create_database "$pg_port" switchboard
export SWITCHBOARD_DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/switchboard"
export SWITCHBOARD_FLOWS_DIR="$PWD/flows" SWITCHBOARD_LOG_LEVEL=error
"$binary" migrate >"$work/migrate.log" 2>&1 || { cat "$work/migrate.log"; exit 1; }
log "seeding three days of staffing history to $(test_now)"
"$binary" staffing seed --days 3 --until "$(test_now)" >"$work/seed.log" 2>&1 || { cat "$work/seed.log"; exit 1; }

token="fuzz-$(openssl rand -hex 16)"
port=$(free_port)
base="http://127.0.0.1:$port"
SWITCHBOARD_HTTP_PORT=$port SWITCHBOARD_HOOK_TOKENS=$token SWITCHBOARD_CONSOLE_TOKENS=$token \
    SWITCHBOARD_MCP_TOKENS=$token SWITCHBOARD_FIREHOSE_ACCESS_KEYS=$token "$binary" dev >"$work/dev.log" 2>&1 &
server=$!
wait_ready "$base/ready" 120 "$server" || { tail -n 40 "$work/dev.log"; log "FAIL: dev was not ready"; exit 1; }

status=0
log "schemathesis over every operation of $base/openapi.yaml (${seconds} s)"
schemathesis run "$base/openapi.yaml" --url "$base" -H "Authorization: Bearer $token" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --exclude-operation-id floorEvents --exclude-operation-id floorStream \
    --max-examples 50 --max-time "$seconds" --request-timeout 10 --seed 20261202 --warnings off --no-color \
    >"$work/schemathesis.log" 2>&1 || status=1
sed -n '/SUMMARY/,$p' "$work/schemathesis.log" >&2
[ "$status" -eq 0 ] || { cat "$work/schemathesis.log" >&2; log "FAIL: schemathesis found answers that break the contract"; }

log "every MCP tool with schema-generated and broken arguments (${seconds} s)"
python3 scripts/fuzz-mcp.py --url "$base/mcp" --token "$token" --seconds "$seconds" || status=1

if ! kill -0 "$server" 2>/dev/null; then
    tail -n 40 "$work/dev.log" >&2
    log "FAIL: switchboard dev died under the fuzzing"
    status=1
elif ! curl -fsS "$base/ready" >/dev/null; then
    log "FAIL: switchboard dev is not ready after the fuzzing"
    status=1
fi
[ "$status" -eq 0 ] && log "API fuzzing: no 5xx, every answer as declared, the process up"
exit $status
