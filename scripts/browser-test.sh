#!/usr/bin/env bash
# A real browser loads the operator console from a live server fed through the embedded Kafka.
#
#   scripts/browser-test.sh
#
# Installs Debian's chromium, chromium-driver and python3-selenium when missing, starts
# `switchboard-bench console-demo` (embedded Kafka, the floor feed, a fixed demo floor; no
# PostgreSQL) on a free port with a console token, and runs scripts/browser-test.py, which drives
# headless Chromium through WebDriver (the system chromedriver, /usr/bin/chromedriver): it loads
# /console and checks the demo floor (agent names, their activities and statuses, the wallboard
# counts, the queues, the staffing panel in shortfall order with its marks, live and not
# reconnecting), then "Today" (a chart per queue, the shortfall banner, the what-if form refused
# and answered), then the panel and the charts in Japanese. Each check waits at most
# SWITCHBOARD_BROWSER_TIMEOUT seconds (30) on its own, and fails alone; screenshots, the DOM and
# the browser's log go to .artifacts/browser/. Exits non-zero when any check fails, and when
# Chromium cannot run: it never skips.
#
# SWITCHBOARD_TEST_NOW: the instant the staffing panel stands at (scripts/clock-sweep.sh sets it);
# default the tests' pinned instant (test_now in scripts/lib.sh).
#
# SWITCHBOARD_BENCH_BINARY: the switchboard-bench binary to serve (scripts/test.sh passes the one its tests
# built); without it, this script builds one (SWITCHBOARD_BUILD: debug or release).
#
# The checker runs in a process group of its own, with the chromedriver and Chromium it starts;
# the group and the server are stopped on every exit.
set -euo pipefail
set +m  # no job control: `setsid` below must not fork, so the checker's pid is its group id
cd "$(dirname "$0")/.."
source scripts/lib.sh

ensure_packages chromium chromium-driver python3-selenium fonts-noto-cjk
browser_binary=$(command -v chromium || command -v chromium-browser) || {
    echo "chromium is not installed and could not be installed" >&2
    exit 1
}
# Debian's chromedriver, at its path (Selenium never fetches one), and Debian's Python, which has
# python3-selenium (a python3 earlier on PATH may not).
chromedriver=/usr/bin/chromedriver
python=/usr/bin/python3
[ -x "$chromedriver" ] || { echo "chromedriver is not installed at $chromedriver" >&2; exit 1; }
"$python" -c 'import selenium' 2>/dev/null || { echo "python3-selenium is not importable by $python" >&2; exit 1; }

if [ -n "${SWITCHBOARD_BENCH_BINARY:-}" ]; then
    binary=$SWITCHBOARD_BENCH_BINARY
else
    configuration="${SWITCHBOARD_BUILD:-debug}"
    scratch=(${SWITCHBOARD_SCRATCH:+--scratch-path "$SWITCHBOARD_SCRATCH"})
    log "building switchboard-bench ($configuration)"
    swift build -c "$configuration" "${scratch[@]}" --product switchboard-bench
    binary="$(swift build -c "$configuration" "${scratch[@]}" --show-bin-path)/switchboard-bench"
fi
[ -x "$binary" ] || { echo "no switchboard-bench binary at $binary" >&2; exit 1; }

artifacts="$PWD/.artifacts/browser"
mkdir -p "$artifacts"
rm -f "$artifacts/console.png" "$artifacts/console-ja.png" "$artifacts/console-intraday.png" "$artifacts/console.html" \
    "$artifacts/chromium.log" "$artifacts/check.py"
workdir=$(mktemp -d /tmp/switchboard-browser.XXXXXX)
server=""
checker=""

# Stops the checker's whole process group (chromedriver, and Chromium's renderers, zygote, GPU
# and utility processes): TERM, up to 5 s to go, then KILL.
stop_group() {
    local pid=$1
    kill -TERM -- "-$pid" 2>/dev/null || return 0  # an empty group: nothing left to stop
    for _ in $(seq 1 100); do
        # The group leader is our child: reap it once it has exited, or it stays in the group.
        [ "$(cut -d' ' -f3 "/proc/$pid/stat" 2>/dev/null)" = Z ] && { wait "$pid" 2>/dev/null || true; }
        kill -0 -- "-$pid" 2>/dev/null || return 0
        sleep 0.05
    done
    log "the browser did not stop in 5 s: killing its process group"
    kill -KILL -- "-$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    [ -n "$checker" ] && stop_group "$checker"
    [ -n "$server" ] && { kill -INT "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; }
    rm -rf "$workdir"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

started=$(date +%s%N)
elapsed() { echo "$(( ($(date +%s%N) - started) / 1000000 )) ms"; }

port=$(free_port)
token="browser-test-$(openssl rand -hex 16)"
log "starting console-demo on 127.0.0.1:$port, its staffing panel at $(test_now)"
SWITCHBOARD_CONSOLE_TOKENS="$token" SWITCHBOARD_LOG_LEVEL=warning \
    "$binary" console-demo --http-port "$port" --at "$(test_now)" >"$artifacts/server.log" 2>&1 &
server=$!

# Ready means the floor has caught up with the embedded Kafka; the demo floor follows it.
if ! wait_ready "http://127.0.0.1:$port/ready" 30 "$server"; then
    cat "$artifacts/server.log" >&2
    echo "console-demo never became ready on 127.0.0.1:$port" >&2
    exit 1
fi
log "server ready after $(elapsed)"

url="http://127.0.0.1:$port/console?token=$token&lang=en"
log "checking $url in headless Chromium ($("$browser_binary" --version 2>/dev/null | head -n 1)) through chromedriver"
setsid "$python" scripts/browser-test.py --url "$url" --artifacts "$artifacts" --profile "$workdir/profile" \
    --chromedriver "$chromedriver" --browser "$browser_binary" --timeout "${SWITCHBOARD_BROWSER_TIMEOUT:-30}" &
checker=$!
status=0
wait "$checker" || status=$?
# The checker quits chromedriver, which closes Chromium; whatever is left of the group goes now.
stop_group "$checker"
checker=""

[ -s "$artifacts/console.png" ] && log "screenshots .artifacts/browser/console.png, console-intraday.png and console-ja.png, DOM .artifacts/browser/console.html"
if [ "$status" -ne 0 ]; then
    echo "browser test FAILED after $(elapsed); the end of chromedriver's and Chromium's log:" >&2
    tail -n 20 "$artifacts/chromium.log" >&2 || true
    exit "$status"
fi
log "browser test passed in $(elapsed)"
