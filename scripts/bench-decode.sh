#!/usr/bin/env bash
# The ingest worker's own share of the write path (`make bench-decode`): figures, not a gate.
#
#   scripts/bench-decode.sh [--records N] [--batch B] [--rounds R]
#
# Builds `switchboard-bench` in release mode and, on one thread without I/O, decodes
# bench-ingest's CTRs in batches as a lane takes them and encodes their upsert's binds; next to
# copying the same bytes once. No PostgreSQL, no Kafka: for changes to the decoder or the binds,
# where bench-ingest's worker figure moves by ±10 % between runs. The last line:
#   RESULT decode_us=<µs per CTR> binds_us=<µs> worker_us=<µs> copy_us=<µs> ratio_copy=<x>
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

ensure_packages
log "building switchboard-bench (release)"
swift build -c release --scratch-path .build-release --product switchboard-bench
"$(swift build -c release --scratch-path .build-release --show-bin-path)/switchboard-bench" bench-decode "$@"
