#!/usr/bin/env bash
# A real browser loads the operator console from a live server fed through the embedded Kafka.
#
#   scripts/browser-test.sh
#
# Installs Debian's chromium when missing, builds switchboard, starts `switchboard console-demo`
# (embedded Kafka, the floor feed, a fixed demo floor; no PostgreSQL) on a free port with a
# console token, lets headless Chromium render /console, and checks the rendered DOM: agent
# names, their activities and the wallboard counts. A screenshot and the DOM are saved in
# .artifacts/. Exits non-zero on any mismatch.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

ensure_packages chromium fonts-noto-cjk
browser=$(command -v chromium || command -v chromium-browser)
configuration="${SWITCHBOARD_BUILD:-debug}"
scratch=(${SWITCHBOARD_SCRATCH:+--scratch-path "$SWITCHBOARD_SCRATCH"})

log "building switchboard ($configuration)"
swift build -c "$configuration" "${scratch[@]}" --product switchboard
binary="$(swift build -c "$configuration" "${scratch[@]}" --show-bin-path)/switchboard"

artifacts="$PWD/.artifacts/browser"
mkdir -p "$artifacts"
port=$(free_port)
token="browser-test-$RANDOM"
log "starting console-demo on 127.0.0.1:$port"
SWITCHBOARD_CONSOLE_TOKENS="$token" SWITCHBOARD_LOG_LEVEL=warning \
    "$binary" console-demo --http-port "$port" >"$artifacts/server.log" 2>&1 &
server=$!
trap 'kill -INT "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT

for _ in $(seq 1 150); do
    curl -fsS "http://127.0.0.1:$port/ready" >/dev/null 2>&1 && break
    sleep 0.2
done
curl -fsS "http://127.0.0.1:$port/ready" >/dev/null || { cat "$artifacts/server.log"; echo "server never ready" >&2; exit 1; }

url="http://127.0.0.1:$port/console?token=$token&lang=en"
profile=$(mktemp -d)
common=(--headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$profile" --hide-scrollbars)
log "rendering $url"
timeout 60 "$browser" "${common[@]}" --virtual-time-budget=8000 --window-size=1400,1000 \
    --screenshot="$artifacts/console.png" "$url" >"$artifacts/chromium.log" 2>&1 || true
rm -rf "$profile"
# The DOM is read with --dump-dom; headless Chromium sometimes dumps before the page's EventSource
# has connected (a cold browser start), so the read is retried, at most three times: the checks
# themselves never loosen.
cat >"$artifacts/check.py" <<'PY'
import html.parser, sys

class Page(html.parser.HTMLParser):
    """Collects element texts by id and agent rows (data-agent-id) with their cells."""
    def __init__(self):
        super().__init__()
        self.stack, self.ids, self.rows, self.row, self.body_classes, self.banner_hidden = [], {}, [], None, "", None
    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "body": self.body_classes = attrs.get("class") or ""
        if attrs.get("id") == "banner": self.banner_hidden = "hidden" in attrs
        if tag == "tr" and "data-agent-id" in attrs:
            self.row = {"activity": attrs.get("data-activity"), "cells": []}
            self.rows.append(self.row)
        if tag == "td" and self.row is not None: self.row["cells"].append("")
        self.stack.append((tag, attrs.get("id")))
    def handle_endtag(self, tag):
        while self.stack:
            open_tag, _ = self.stack.pop()
            if open_tag == tag: break
        if tag == "tr": self.row = None
    def handle_data(self, data):
        for _, element_id in self.stack:
            if element_id: self.ids[element_id] = self.ids.get(element_id, "") + data
        if self.row is not None and self.row["cells"]: self.row["cells"][-1] += data

page = Page()
page.feed(open(sys.argv[1], encoding="utf-8").read())
failures = []
def expect(what, actual, wanted):
    status = "ok " if actual == wanted else "FAIL"
    print(f"  {status} {what}: {actual!r}" + ("" if actual == wanted else f" (wanted {wanted!r})"))
    if actual != wanted: failures.append(what)

tiles = {key: page.ids.get(f"tile-{key}", "").strip() for key in
         ["available", "onContact", "afterContactWork", "customStatus", "offline", "contactsWaiting"]}
for key, wanted in [("available", "1"), ("onContact", "1"), ("afterContactWork", "1"),
                    ("customStatus", "1"), ("offline", "1"), ("contactsWaiting", "2")]:
    expect(f"tile {key}", tiles[key], wanted)
agents = {row["cells"][0].strip(): row for row in page.rows}
expected = {"花子 佐藤": "available", "太郎 鈴木": "onContact", "美咲 高橋": "afterContactWork",
            "健 田中": "customStatus", "翔 伊藤": "offline"}
expect("agent names", sorted(agents), sorted(expected))
for name, activity in expected.items():
    expect(f"{name} activity", agents.get(name, {}).get("activity"), activity)
expect("鈴木 contact state", agents.get("太郎 鈴木", {}).get("cells", [""] * 6)[5].strip(), "Connected")
expect("田中 status", agents.get("健 田中", {}).get("cells", [""] * 3)[2].strip(), "Lunch")
expect("live (not greyed out)", "stale" in page.body_classes.split(), False)
expect("reconnecting banner hidden", page.banner_hidden, True)
expect("day type shown", bool(page.ids.get("day-type", "").strip()), True)
sys.exit(1 if failures else 0)
PY
status=1
for attempt in 1 2 3; do
    profile=$(mktemp -d)
    timeout 60 "$browser" "${common[@]}" --user-data-dir="$profile" --virtual-time-budget=8000 --dump-dom "$url" \
        >"$artifacts/console.html" 2>>"$artifacts/chromium.log" || true
    rm -rf "$profile"
    log "DOM checks, attempt $attempt"
    if python3 "$artifacts/check.py" "$artifacts/console.html"; then status=0; break; fi
done
[ -s "$artifacts/console.png" ] && log "screenshot: .artifacts/browser/console.png"
exit $status
