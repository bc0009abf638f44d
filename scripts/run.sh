#!/usr/bin/env bash
# Builds and runs the whole system on the embedded defaults: `switchboard dev`.
#
#   scripts/run.sh [switchboard dev options...]
#
# Installs what is missing, starts a local PostgreSQL whose data lives in .data/postgres (kept
# across runs, ignored by git; SWITCHBOARD_DEV_DATA_DIR moves it) on
# 127.0.0.1:${SWITCHBOARD_DEV_PG_PORT:-54329}, then runs `switchboard dev` (embedded Kafka,
# migrations, every role). Ctrl-C stops everything, PostgreSQL too.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

ensure_packages
port="${SWITCHBOARD_DEV_PG_PORT:-54329}"
datadir="${SWITCHBOARD_DEV_DATA_DIR:-$PWD/.data/postgres}"
configuration="${SWITCHBOARD_BUILD:-debug}"

log "building switchboard ($configuration)"
swift build -c "$configuration" --product switchboard
binary="$(swift build -c "$configuration" --show-bin-path)/switchboard"

log "starting PostgreSQL on 127.0.0.1:$port (data in ${datadir#"$PWD"/})"
mkdir -p .data
[ "$(id -u)" -eq 0 ] && chmod 755 "$PWD/.data"
start_postgres "$datadir" "$port"
trap 'stop_postgres "$datadir"' EXIT
create_database "$port" switchboard

export SWITCHBOARD_DATABASE_URL="${SWITCHBOARD_DATABASE_URL:-postgres://postgres@127.0.0.1:$port/switchboard}"
export SWITCHBOARD_FLOWS_DIR="${SWITCHBOARD_FLOWS_DIR:-$PWD/flows}"
log "starting switchboard dev"
# Not exec: when switchboard exits (Ctrl-C), the trap stops PostgreSQL.
"$binary" dev "$@" &
child=$!
trap 'kill -INT "$child" 2>/dev/null || true' INT TERM
# A trapped signal interrupts `wait` (status > 128); wait again for the child's own exit status.
while true; do
    status=0
    wait "$child" || status=$?
    kill -0 "$child" 2>/dev/null || break
done
exit "$status"
