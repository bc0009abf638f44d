#!/usr/bin/env bash
# Rewrites docs/schema.sql: the schema of a freshly migrated database, as SchemaFileTests checks it.
#
#   scripts/schema-dump.sh        (make schema)
#
# Starts a throwaway PostgreSQL (or uses SWITCHBOARD_TEST_DATABASE_URL when set), builds the tests
# and runs SchemaFileTests with SWITCHBOARD_SCHEMA_WRITE=1, which migrates a fresh database and
# writes pg_dump's schema of it (post-processed as the test compares it) to docs/schema.sql.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

if [ -z "${SWITCHBOARD_TEST_DATABASE_URL:-}" ]; then
    workdir=$(mktemp -d /tmp/switchboard-schema.XXXXXX)
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
fi
export SWITCHBOARD_TEST_POSTGRES_BIN="${SWITCHBOARD_TEST_POSTGRES_BIN:-$(postgres_bindir)}"

log "building the tests"
swift build --build-tests
log "migrating a fresh database and writing docs/schema.sql"
SWITCHBOARD_SCHEMA_WRITE=1 swift test --skip-build --filter 'SchemaFileTests/schemaFile'
git --no-pager diff --stat -- docs/schema.sql || true
