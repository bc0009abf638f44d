#!/usr/bin/env bash
# Ingest benchmark: ≥ 200,000 realistic CTRs produced to the embedded Kafka cluster, ingested by a
# separate `switchboard ingest` worker (release build), next to `psql \copy` of the same rows into
# a table of the same shape on the same PostgreSQL server. The last line is machine-readable:
#   RESULT ingest_rows_per_s=… copy_rows_per_s=… ratio=… rss_mb=… copy2_rows_per_s=… ratio_l=…
#          import_rows_per_s=… ratio_import=… import_rss_mb=… rollup_ratio=… import_rollup_ratio=… rollup_cpu_ratio=…
#          cpu_ratio_l=… cores_busy=… machine_cores_busy=… ratio_stream_import=…
#          consume_rows_per_s=… stage_poll=… stage_decode=… stage_queue=… stage_write=…
#
#   scripts/bench-ingest.sh [--records N] [--partitions P] [--rounds R] [--message-set-records M]
#                           [--brokers B] [--only-consume]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

ensure_packages
log "building switchboard and switchboard-bench (release)"
swift build -c release --scratch-path .build-release --product switchboard
swift build -c release --scratch-path .build-release --product switchboard-bench
binary="$(swift build -c release --scratch-path .build-release --show-bin-path)/switchboard-bench"

workdir=$(mktemp -d /tmp/switchboard-bench.XXXXXX)
chmod 755 "$workdir"
port=$(free_port)
trap 'stop_postgres "$workdir/pg"; rm -rf "$workdir"' EXIT INT TERM
log "starting PostgreSQL on 127.0.0.1:$port (durable settings, lz4 TOAST compression)"
start_postgres "$workdir/pg" "$port"

export SWITCHBOARD_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
"$binary" bench-ingest "$@"
