#!/usr/bin/env bash
# The receiver's benchmark (`make bench-receiver`): figures, not a pass/fail gate.
#
#   scripts/bench-receiver.sh [--records N] [--concurrency C]
#
# Builds `switchboard` and `switchboard-bench` in release mode, starts the embedded Kafka cluster
# (in the bench process) and a `switchboard receive` process, and measures CTRs per second through
# the receiver in Firehose requests of 500 CTRs (plain, then gzip), next to `kcat -P` producing
# the same records with the same keys (idempotent, acks=all) into the same cluster in the same
# run; then the receiver's peak RSS. The last line is machine-readable:
#   RESULT receiver_rps=<n> kcat_rps=<n> ratio=<x> rss_mb=<n>
# (receiver_rps is the slower of plain and gzip.)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

ensure_packages
scratch="${SWITCHBOARD_BENCH_SCRATCH:-.build-release}"
log "building switchboard and switchboard-bench (release, $scratch)"
swift build -c release --scratch-path "$scratch" --product switchboard
swift build -c release --scratch-path "$scratch" --product switchboard-bench
bin="$(swift build -c release --scratch-path "$scratch" --show-bin-path)"

SWITCHBOARD_BINARY="$bin/switchboard" "$bin/switchboard-bench" bench-receiver --kcat "$(command -v kcat)" "$@"
