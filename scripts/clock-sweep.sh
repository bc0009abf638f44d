#!/usr/bin/env bash
# Runs the tests whose subject is "now" at adversarial instants, so that a test (or product code)
# that silently depends on the day or hour fails the day it is written, not on some later date.
#
#   scripts/clock-sweep.sh [INSTANT ...]
#
# Each instant is an ISO 8601 instant, set as SWITCHBOARD_TEST_NOW: TestClock (SwitchboardTesting)
# and the browser test's console-demo stand at it. Without arguments, the instants below. Each
# must lie in the past: `staffing plan` refreshes the history through the database's yesterday.
#
# Expects what scripts/test.sh sets up: SWITCHBOARD_TEST_DATABASE_URL (and the other
# SWITCHBOARD_TEST_* variables), SWITCHBOARD_BINARY and SWITCHBOARD_BENCH_BINARY, tests built.
# Exits non-zero when any instant fails, and names each instant that failed.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

# Why each instant (all JST, the shipped stores' zone):
# - 2025-12-31 23:50, Wednesday, New Year's Eve: a pre-holiday; the next 3 hours cross midnight
#   and the year; the bar's Monday closure makes a Wednesday's yesterday have no forecast.
# - 2026-01-12 00:10, Monday, Coming of Age Day: a holiday just begun; yesterday was a Sunday.
# - 2026-02-11 03:55, Wednesday, National Foundation Day: the bar's pre-holiday business day
#   (to 28:00) is still open, so "today's" business date is yesterday's.
# - 2026-11-28 21:47, Saturday: a weekend evening, the next 3 hours past midnight.
# - 2026-11-30 09:00, Monday: the bar and the bistro are closed.
default_instants=(
    2025-12-31T23:50:00+09:00
    2026-01-12T00:10:00+09:00
    2026-02-11T03:55:00+09:00
    2026-11-28T21:47:00+09:00
    2026-11-30T09:00:00+09:00
)
instants=("$@")
[ ${#instants[@]} -gt 0 ] || instants=("${default_instants[@]}")

# The suites that seed, plan, replay or render "today" from TestClock.
suites='StaffingIntradayProcessTests|StaffingPlanProcessTests|ServeStaffingProcessTests|StaffingOracleAgreementTests'
: "${SWITCHBOARD_TEST_DATABASE_URL:?run scripts/test.sh, which starts the database}"

failed=()
for instant in "${instants[@]}"; do
    log "clock sweep at $instant: $suites and the browser test"
    status=0
    SWITCHBOARD_TEST_NOW="$instant" swift test --skip-build --filter "$suites" || status=$?
    # The console's panel at the same instant (its "next 3 hours" from the server's now).
    SWITCHBOARD_TEST_NOW="$instant" scripts/browser-test.sh || status=$?
    if [ "$status" -ne 0 ]; then
        log "clock sweep FAILED at $instant"
        failed+=("$instant")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "clock sweep: failed at ${failed[*]} (rerun one with scripts/clock-sweep.sh INSTANT)" >&2
    exit 1
fi
log "clock sweep passed at ${#instants[@]} instants"
