#!/usr/bin/env bash
# Staffing benchmark and backtest: a simulated year (`switchboard staffing seed --days 365`: the
# traffic simulation over flows/, holidays, pre-holidays and weekends busier) in a throwaway
# PostgreSQL, then `switchboard staffing backtest --weeks 8` (WAPE per day type beside the two
# naive baselines), the 4-week plan for every queue (best of 3) and the console's staffing panel
# (`GET /v1/staffing` on `switchboard dev`, median and max of 20). The last line is
# machine-readable:
#   RESULT seeded_contacts=<n> seed_s=<n> wape_<day type>=<forecast>/<last week>/<8-week mean> ...
#          q_staffing_ms=<n> panel_ms_median=<x> panel_ms_max=<x>
#
#   scripts/bench-staffing.sh [--days N] [--binary PATH]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

days=365
binary=""
while [ $# -gt 0 ]; do
    case "$1" in
    --days) days=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    *) echo "usage: $0 [--days N] [--binary PATH]" >&2; exit 2 ;;
    esac
done

ensure_packages
if [ -z "$binary" ]; then
    log "building switchboard (release)"
    binary=$(release_product switchboard)
fi

bench_postgres switchboard_staffing_bench
export SWITCHBOARD_LOG_LEVEL=${SWITCHBOARD_LOG_LEVEL:-warning}

"$binary" migrate >/dev/null
log "seeding $days simulated days"
started=$(date +%s)
seeded=$("$binary" staffing seed --days "$days" | sed -n 's/^seeded \([0-9]*\) .*/\1/p')
seed_s=$(($(date +%s) - started))
log "$seeded contact records in $seed_s s"

log "switchboard staffing backtest --weeks 8"
"$binary" staffing backtest --weeks 8 | tee "$workdir/backtest.txt"

plan_args=(staffing plan --from "$(date -u +%F)" --to "$(date -u -d '+27 days' +%F)" --service-level 80/20 --format csv)
"$binary" "${plan_args[@]}" >/dev/null
q_staffing=$(fastest_of_3_ms "$binary" "${plan_args[@]}")
log "switchboard staffing plan, all queues, 4 weeks: $q_staffing ms"

log "the console's staffing panel: GET /v1/staffing on switchboard dev"
read -r panel_median panel_max < <(time_staffing_panel "$binary")
log "GET /v1/staffing: median $panel_median ms, max $panel_max ms"

# One field per day type: its forecast's WAPE, then the two baselines', in percent.
wape=$(awk 'NR > 1 {
    n = NF; label = $1; for (i = 2; i <= n - 9; i++) label = label "_" $i
    gsub(/-/, "", label)
    printf " wape_%s=%s/%s/%s", label, $(n - 5), $(n - 3), $(n - 1)
}' "$workdir/backtest.txt")
echo "RESULT seeded_contacts=$seeded seed_s=$seed_s$wape q_staffing_ms=$q_staffing panel_ms_median=$panel_median" \
    "panel_ms_max=$panel_max"
