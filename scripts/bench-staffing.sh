#!/usr/bin/env bash
# Staffing benchmark and backtest: a simulated year (`switchboard staffing seed --days 365`: the
# traffic simulation over flows/, holidays, pre-holidays and weekends busier, shocks on about one
# store-day in twenty: SWITCHBOARD_SIMULATOR_SHOCKS, default 0.05) in a throwaway PostgreSQL; the
# oracle (`switchboard staffing oracle --weeks 8 --replicas R`: the mean of R replicas of the
# seeding's simulation over the backtest's days, R = SWITCHBOARD_BENCH_ORACLE_REPLICAS, default
# 20); then `switchboard staffing backtest --weeks 8 --oracle` (WAPE per day type beside the two
# naive baselines and the oracle's Poisson floor; shocked queue-days on their own line), the
# 4-week plan for every queue (best of 3), the intraday reforecast's backtest
# (`staffing backtest --weeks 8 --oracle --intraday`: shocked queue-days 1 h and 3 h after the
# shock began, the others at 12:00, 15:00 and 18:00), and the console's staffing panel and intraday
# chart (`GET /v1/staffing`, `GET /v1/staffing/intraday` on `switchboard dev`, median and max of
# 20). The last line is machine-readable:
#   RESULT seeded_contacts=<n> seed_s=<n> oracle_s=<n>
#          wape_<day type>=<forecast>/<last week>/<8-week mean> oracle_<day type>=<oracle WAPE> ...
#          forecast_to_floor_<day type>=<forecast WAPE / oracle WAPE> ... (not for `shock`)
#          q_staffing_ms=<n> panel_ms_median=<x> panel_ms_max=<x>
#          intraday_recovery_1h=<x> intraday_recovery_3h=<x> intraday_normal_change=<x>
#          intraday_known_1h=<x> intraday_known_3h=<x> (the ceiling: the shock's true factor known)
#          intraday_ms=<median of GET /v1/staffing/intraday> intraday_ms_max=<x>
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
export SWITCHBOARD_SIMULATOR_SHOCKS=${SWITCHBOARD_SIMULATOR_SHOCKS:-0.05}
replicas=${SWITCHBOARD_BENCH_ORACLE_REPLICAS:-20}

"$binary" migrate >/dev/null
log "seeding $days simulated days (shocks on a share of $SWITCHBOARD_SIMULATOR_SHOCKS of the store-days)"
started=$(date +%s)
seeded=$("$binary" staffing seed --days "$days" | sed -n 's/^seeded \([0-9]*\) .*/\1/p')
seed_s=$(($(date +%s) - started))
log "$seeded contact records in $seed_s s"

log "switchboard staffing oracle --weeks 8 --replicas $replicas"
started=$(date +%s)
"$binary" staffing oracle --weeks 8 --replicas "$replicas" >"$workdir/oracle.csv"
oracle_s=$(($(date +%s) - started))
log "the oracle in $oracle_s s"
log "switchboard staffing backtest --weeks 8 --oracle"
"$binary" staffing backtest --weeks 8 --oracle "$workdir/oracle.csv"
"$binary" staffing backtest --weeks 8 --oracle "$workdir/oracle.csv" --format csv >"$workdir/backtest.csv"

log "switchboard staffing backtest --weeks 8 --oracle --intraday"
"$binary" staffing backtest --weeks 8 --oracle "$workdir/oracle.csv" --intraday
"$binary" staffing backtest --weeks 8 --oracle "$workdir/oracle.csv" --intraday --format csv >"$workdir/intraday.csv"

plan_args=(staffing plan --from "$(date -u +%F)" --to "$(date -u -d '+27 days' +%F)" --service-level 80/20 --format csv)
"$binary" "${plan_args[@]}" >/dev/null
# The timed runs print the same notes as the first: once is enough.
q_staffing=$(fastest_of_3_ms "$binary" "${plan_args[@]}" 2>/dev/null)
log "switchboard staffing plan, all queues, 4 weeks: $q_staffing ms"

log "the console's staffing panel: GET /v1/staffing on switchboard dev"
read -r panel_median panel_max intraday_median intraday_max < <(time_staffing_panel "$binary")
log "GET /v1/staffing: median $panel_median ms, max $panel_max ms"
log "GET /v1/staffing/intraday: median $intraday_median ms, max $intraday_max ms"

# Per day type: the forecast's WAPE and the two baselines', in percent; the oracle's; and the
# forecast's over the oracle's (shocked queue-days are scored by the intraday work, not here).
wape=$(awk -F, 'NR > 1 {
    label = $1; gsub(/[^A-Za-z0-9_]/, "_", label)
    printf " wape_%s=%.1f/%.1f/%.1f", label, $4 * 100, $5 * 100, $6 * 100
    if ($7 != "") printf " oracle_%s=%.1f", label, $7 * 100
    if ($7 != "" && $7 > 0 && label != "shock") printf " forecast_to_floor_%s=%.2f", label, $4 / $7
}' "$workdir/backtest.csv")
# The reforecast: its recovery 1 h and 3 h into a shock, and its change on the other days (their
# three instants summed); the known-level lines are the ceiling of any level update.
intraday=$(awk -F, 'NR > 1 {
    if ($1 ~ /^normal/) { nm += $4 * $3; nr += $5 * $3 }
    else rec[$1] = $7
} END {
    printf " intraday_recovery_1h=%s intraday_recovery_3h=%s intraday_normal_change=%.3f", rec["shock+1h"], rec["shock+3h"], nr / nm
    printf " intraday_known_1h=%s intraday_known_3h=%s", rec["shock+1h known"], rec["shock+3h known"]
}' "$workdir/intraday.csv")
echo "RESULT seeded_contacts=$seeded seed_s=$seed_s oracle_s=$oracle_s$wape q_staffing_ms=$q_staffing" \
    "panel_ms_median=$panel_median panel_ms_max=$panel_max$intraday intraday_ms=$intraday_median" \
    "intraday_ms_max=$intraday_max"
