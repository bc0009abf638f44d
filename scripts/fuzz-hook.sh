#!/usr/bin/env bash
# Fuzzes the IVR hook over HTTP: no client input may cause a 5xx, a dropped connection or a hang.
#
#   scripts/fuzz-hook.sh [--requests N]
#
# Builds `switchboard` (SWITCHBOARD_BUILD=debug|release, default debug), starts the hook alone
# (`switchboard-bench bench-hook-serve`, shipped flows/, a bearer token and an HMAC secret configured)
# on a free loopback port, then runs
#   1. schemathesis against /openapi.yaml (installed with pip when missing; skipped if that
#      fails), with the checks not_a_server_error, status_code_conformance,
#      content_type_conformance and response_schema_conformance;
#   2. scripts/fuzz-hook.py (standard library only): mutated Connect and plain bodies, random
#      bytes, oversized and deeply nested bodies, good and bad tokens and signatures, odd paths,
#      and malformed raw HTTP.
# Both are bounded in time and talk to 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_packages  # the build's libraries (librdkafka, zlib, jemalloc)

configuration="${SWITCHBOARD_BUILD:-debug}"
scratch="${SWITCHBOARD_FUZZ_SCRATCH:-.build}"
log "building switchboard-bench ($configuration, $scratch)"
swift build -c "$configuration" --scratch-path "$scratch" --product switchboard-bench
binary="$(swift build -c "$configuration" --scratch-path "$scratch" --show-bin-path)/switchboard-bench"

work=$(mktemp -d /tmp/switchboard-fuzz-hook.XXXXXX)
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

token="fuzz-token-$(openssl rand -hex 16)"
secret="fuzz-secret-$(openssl rand -hex 16)"
port=$(free_port)
base="http://127.0.0.1:$port"
log "starting the hook on $base"
SWITCHBOARD_HTTP_HOST=127.0.0.1 SWITCHBOARD_HTTP_PORT=$port SWITCHBOARD_FLOWS_DIR="$PWD/flows" \
    SWITCHBOARD_LOG_LEVEL=error SWITCHBOARD_HOOK_TOKENS="$token" SWITCHBOARD_HOOK_HMAC_SECRET="$secret" \
    "$binary" bench-hook-serve >"$work/server.log" 2>&1 &
server=$!
wait_ready "$base/ready" 10 "$server" || { cat "$work/server.log"; echo "server not ready" >&2; exit 1; }

status=0
if ! command -v schemathesis >/dev/null 2>&1; then
    log "installing schemathesis (pip)"
    python3 -m pip install -q schemathesis >/dev/null 2>&1 || log "schemathesis unavailable; skipping it"
fi
if command -v schemathesis >/dev/null 2>&1; then
    log "schemathesis against $base/openapi.yaml"
    # The console's operations are served by `switchboard dev`, not by this hook-only server.
    schemathesis run "$base/openapi.yaml" --url "$base" \
        -H "Authorization: Bearer $token" \
        --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
        --exclude-tag console \
        --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-100}" --max-time 120 --request-timeout 5 \
        --seed 20261231 --generation-database none --no-color --warnings off || status=1
fi

log "stdlib fuzzer"
python3 scripts/fuzz-hook.py --base "$base" --token "$token" --secret "$secret" "$@" || status=1

if ! kill -0 "$server" 2>/dev/null; then
    log "the server died"; cat "$work/server.log"; status=1
fi
exit $status
