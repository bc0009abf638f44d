#!/usr/bin/env bash
# Builds and runs the whole system on the embedded defaults: `switchboard dev`.
#
#   scripts/run.sh [switchboard dev options...]
#
# Installs what is missing, starts a local PostgreSQL whose data lives in .data/postgres (kept
# across runs, ignored by git; SWITCHBOARD_DEV_DATA_DIR moves it) on
# 127.0.0.1:${SWITCHBOARD_DEV_PG_PORT:-54329}, then runs `switchboard dev` (embedded Kafka,
# migrations, every role). SWITCHBOARD_BINARY names a built binary to run instead of building one.
# Ctrl-C (or a closed terminal) stops everything, PostgreSQL too. After an unclean stop (the run's
# processes killed, PostgreSQL left running on its data folder) the next run reuses that server or
# restarts it, and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

ensure_packages
port="${SWITCHBOARD_DEV_PG_PORT:-54329}"
datadir="${SWITCHBOARD_DEV_DATA_DIR:-$PWD/.data/postgres}"
configuration="${SWITCHBOARD_BUILD:-debug}"

mkdir -p .data "$(dirname "$datadir")"
[ "$(id -u)" -eq 0 ] && chmod 755 "$PWD/.data"
# One run per data folder: this script and switchboard hold the lock, PostgreSQL does not, so it
# is free again as soon as they are gone, however they ended.
lock=$(readlink -f "${datadir%/}.lock")
exec 9>>"$lock"
if ! flock -n 9; then
    holders=$(exec 9>&-; for fd in /proc/[0-9]*/fd/*; do
        pid=${fd#/proc/} && pid=${pid%%/*}
        if [ "$pid" != $$ ] && [ "$(readlink "$fd" 2>/dev/null)" = "$lock" ]; then echo "$pid"; fi
    done | sort -un | tr '\n' ' ')
    log "another make run is using ${datadir#"$PWD"/}: stop it first (${lock#"$PWD"/} is held by pid ${holders% })"
    exit 1
fi

if [ -n "${SWITCHBOARD_BINARY:-}" ]; then
    binary=$SWITCHBOARD_BINARY
    log "using $binary (SWITCHBOARD_BINARY)"
else
    log "building switchboard ($configuration)"
    swift build -c "$configuration" --product switchboard
    binary="$(swift build -c "$configuration" --show-bin-path)/switchboard"
fi

# The server must not hold the lock (9>&-): it outlives an unclean stop.
start_dev_postgres "$datadir" "$port" 9>&-
trap 'stop_postgres "$datadir"' EXIT
create_database "$port" switchboard

export SWITCHBOARD_DATABASE_URL="${SWITCHBOARD_DATABASE_URL:-postgres://postgres@127.0.0.1:$port/switchboard}"
export SWITCHBOARD_FLOWS_DIR="${SWITCHBOARD_FLOWS_DIR:-$PWD/flows}"
log "starting switchboard dev"
# Not exec: when switchboard exits (Ctrl-C), the trap stops PostgreSQL.
"$binary" dev "$@" &
child=$!
# A closed terminal sends SIGHUP, which switchboard takes as "reload flows/": stop it instead.
trap 'kill -INT "$child" 2>/dev/null || true' INT TERM HUP
# A trapped signal interrupts `wait` (status > 128); wait again for the child's own exit status.
while true; do
    status=0
    wait "$child" || status=$?
    kill -0 "$child" 2>/dev/null || break
done
exit "$status"
