#!/usr/bin/env python3
"""Checks the operator console in a real browser, over the Chrome DevTools protocol (CDP).

    scripts/browser-test.py --profile DIR --browser-pid PID --url URL --artifacts DIR [--timeout 30]

Chromium must already run headless with `--remote-debugging-port=0 --user-data-dir=DIR`
(scripts/browser-test.sh starts it and stops it). This script reads the port Chromium picked from
DIR/DevToolsActivePort, opens a page, loads URL (the console of `switchboard-bench console-demo`, whose
floor is fixed), and waits, inside the page, until the rendered DOM shows that floor: a
MutationObserver re-reads the DOM on every change, so the check ends the moment the page is right,
or when the deadline passes. Then it reports every check, saves a screenshot (console.png), checks
"Today" (each queue's chart by its SVG elements, the legend, the shortfall banner), submits the
what-if form twice (refused, then answered) and saves that section (console-intraday.png), clicks
the language button and checks the staffing panel and "Today" in Japanese (console-ja.png), saves the DOM
(console.html) in the artifacts folder, and exits non-zero on any mismatch or uncaught exception
in the page.

Python's standard library only: the WebSocket client below is the small part of RFC 6455 CDP needs
(handshake, masked client text frames, server frames with 16- and 64-bit lengths, fragmented
messages, ping and close). Every wait is on a condition with a deadline, never a fixed sleep: the
DevToolsActivePort file is polled every 50 ms until it appears; everything after is event-driven
(CDP answers and events, and the page's MutationObserver).
"""

import argparse
import base64
import hashlib
import json
import os
import socket
import struct
import sys
import time
import urllib.parse

# What `switchboard-bench console-demo` produces (DemoFloorScene in Sources/SwitchboardBench/ConsoleDemoCommand.swift).
# The demo's queues nobody is forecast for (DemoFloorScene.quiet, Sapporo, Fukuoka, Overflow).
QUIET = ["Sapporo Izakaya", "Fukuoka Ramen", "Overflow", "Nagoya Unagi", "Sendai Gyutan", "Hiroshima Okonomiyaki",
         "Kobe Teppanyaki", "Yokohama Chuka", "Nara Kakinoha", "Kanazawa Oden", "Naha Soba", "Kagoshima Kurobuta",
         "Niigata Sake Bar", "Matsuyama Tai", "Takamatsu Udon", "Shizuoka Tea House", "Kumamoto Basashi"]

EXPECTED = {
    "tiles": {"available": "5", "connecting": "0", "onContact": "1", "afterContactWork": "1", "error": "0",
              "customStatus": "1", "offline": "1", "contactsWaiting": "2"},
    "activities": {"花子 佐藤": "available", "太郎 鈴木": "onContact", "美咲 高橋": "afterContactWork",
                   "健 田中": "customStatus", "翔 伊藤": "offline", "陽菜 中村": "available", "蓮 小林": "available",
                   "結衣 加藤": "available", "大翔 吉田": "available"},
    "statuses": {"健 田中": "Lunch"},
    "contactStates": {"太郎 鈴木": "Connected"},
    # In the table's order (by name): the page's check compares them as JSON.
    "queuesWaiting": {name: "1" if name in ("Osaka Delivery", "Tokyo Reservations") else "0"
                      for name in sorted(["Tokyo Reservations", "Osaka Delivery", "Kyoto Kaiseki"] + QUIET)},
    # The staffing panel (DemoStaffingSource's plan, the demo floor's routing profiles), worked
    # out by hand. Load now, in Erlangs (contacts x 180 s / 900 s): Tokyo 2, Osaka 1, Kyoto 0.4,
    # the rest 0. Staffed agents (available, on a contact, after-contact work) and their shares:
    # 佐藤 (Tokyo, Osaka) 2/3 + 1/3; 鈴木 (Tokyo) 1; 高橋 (Osaka, Kyoto, Overflow) 5/7 + 2/7 + 0;
    # 中村 (Osaka) 1; 小林 (Osaka, Kyoto) 5/7 + 2/7; 加藤 (Kyoto) 1; 吉田 (Osaka) 1. 田中 (lunch) and
    # 伊藤 (offline) do not count. Tokyo 5/3 = 1.7, Kyoto 11/7 = 1.6, Osaka 79/21 = 3.8; pool 7.
    # Needed now (Erlang C, 80/20): Tokyo 4, Osaka 3, Kyoto 2 (fractional 3.76 + 2.44 + 1.55, so
    # 8 for all queues). Shortfall: Tokyo 2.3, Kyoto 0.4 (both short, marked), Osaka -0.8.
    # Service level today on the floor: Tokyo's answered contact waited 40 s (its events say it
    # was enqueued 40 s before each event), so 0 of 2 queued within 20 s; Osaka 0 of 1; Kyoto
    # none queued.
    # Seventeen queues need nobody now or in the next 3 hours: one folded line.
    "staffingOrder": ["Tokyo Reservations", "Kyoto Kaiseki", "Osaka Delivery"],
    "staffing": {
        "Tokyo Reservations": {"figure": "4 / 1.7", "short": True, "shortfall": "−2.3", "dayType": "holiday",
                               "serviceLevel": "0%", "bars": 12, "barsOver": 12},
        "Kyoto Kaiseki": {"figure": "2 / 1.6", "short": True, "shortfall": "−0.4", "dayType": "weekday",
                          "serviceLevel": "–", "bars": 12, "barsOver": 12},
        "Osaka Delivery": {"figure": "3 / 3.8", "short": False, "shortfall": "", "dayType": "weekday",
                           "serviceLevel": "0%", "bars": 12, "barsOver": 0},
    },
    "quiet": f"Quiet queues ({len(QUIET)}): {', '.join(sorted(QUIET))}",
    "total": {"figure": "8 / 7", "short": True, "shortfall": "−1"},
}

# The same panel after the language button: Japanese labels and marks.
EXPECTED_JA = {
    "heading": "必要人員（予測）",
    "quiet": f"落ち着いているキュー ({len(QUIET)}): {', '.join(sorted(QUIET))}",
    "marks": ["▲ 不足", "▲ 不足"],
    "total": "全キュー",
    "lang": "ja",
}

# The intraday view: "Today", the shortfall banner and the what-if form, from the demo's
# reforecast (DemoIntradaySource in Sources/SwitchboardBench/DemoIntradaySource.swift), worked out
# by hand. The demo's day stands at 12:05 (minute 725) whatever the hour: 11:00-11:45 closed,
# 12:00 current (a third of it gone), 12:15-20:45 ahead; every queue open 11:00-21:00 (40 slots),
# planned at AHT 180 s and staffed as planned. Tokyo: plan 10 per 15 minutes, 4 agents,
# offered 18, 18, 18, 18 and 6 so far; Osaka: plan 5, 3 agents, 3, 3, 3, 3 and 1; Kyoto: plan 2,
# 2 agents, 0, 3, 0, 2 and 0.
#
# The reforecast (the standard parameters: prior k = 4 contacts, half-life 90 minutes) weighs
# each elapsed slot 2^(-age/90), the age from the middle of its elapsed part to 12:05: 11:00
# 57.5 min -> 0.642, 11:15 42.5 -> 0.721, 11:30 27.5 -> 0.809, 11:45 12.5 -> 0.908 (together
# 3.080), 12:00 (5 minutes gone, middle 12:02:30) 2.5 -> 0.981. The level r = (k + N) / (k + F):
# - Tokyo: F = 10 x 3.080 + 10/3 x 0.981 = 34.07, N = 18 x 3.080 + 6 x 0.981 = 61.33,
#   r = 65.33 / 38.07 = 1.716: 17.16 contacts per 15 minutes ahead (A = 17.16 x 180 / 900 =
#   3.43 Erlangs), the current slot 6 + 17.16 x 2/3 = 17.44 (A = 3.49). Every contact took 180 s,
#   so the AHT stays 180 s. No patience: Erlang C, SL(N) = 1 - C(N, A) e^(-(N - A) 20 / 180),
#   ASA(N) = C(N, A) 180 / (N - A). At A = 3.43: C(4) = 0.843, SL 0.338, ASA 223 s; C(5) = 0.423,
#   SL 0.700; C(6) = 0.187, SL 0.876, ASA 11.6 s. At A = 3.49 SL(5) = 0.684, SL(6) = 0.867. So
#   6 agents are needed in every slot from 12:00 on, 4 are staffed: it misses 80/20 within the
#   hour, short by 6 - 4 = 2; its 36 slots from 12:00 to 20:45 are short.
# - Osaka: r = (4 + 3 x 3.080 + 1 x 0.981) / (4 + 5 x 3.080 + 5/3 x 0.981) = 14.22 / 21.04 =
#   0.676: 3.38 ahead (A = 0.68); its 3 agents give 0.97 under Erlang C already (its patience,
#   Erlang A, only helps): it meets the target, no slot short.
# - Kyoto: r = (4 + 3 x 0.721 + 2 x 0.908) / (4 + 2 x 3.080 + 2/3 x 0.981) = 7.98 / 10.81 =
#   0.738: 1.48 ahead (A = 0.30); 2 agents give SL 0.97: fine, no slot short.
# Charts: Tokyo first (it misses its target), then by the shortfall over the next hour: Kyoto 0
# (from 12:15 it needs 2 of its 2: SL(1) at A = 0.30 is 1 - 0.30 e^(-0.70 x 20/180) = 0.73), then
# Osaka -1 (2 of its 3: Erlang C gives SL(2) = 0.85 at A = 0.68, Erlang A no less; one agent,
# busy more than half the time with 180 s contacts, answers far fewer than 80 % within 20 s); the plan's line has a point per slot (40); bars for
# the closed slots with contacts (Tokyo and Osaka 4, Kyoto 2: 11:15 and 11:45), the current
# slot's contacts so far as an outlined bar (Tokyo 6, Osaka 1, Kyoto none); the reforecast from
# now (12:05) through the 35 slots from 12:15 on: 36 points.
DEMO_QUEUE_ID = "arn:aws:connect:ap-northeast-1:123456789012:instance/5b6c0d9e-demo-4000-8000-000000000000/queue/"
INTRADAY_CHART = {"svg": True, "planPoints": 40, "reforecastPoints": 36, "reforecastStartsAtNow": True,
                  "nowMinute": 725, "nowLabel": "Now 12:05", "needed": True, "staffed": True}
EXPECTED_INTRADAY = {
    "hidden": False,
    "heading": "Today",
    "order": ["Tokyo Reservations", "Kyoto Kaiseki", "Osaka Delivery"],
    "charts": {
        "Tokyo Reservations": {**INTRADAY_CHART, "misses": True, "actual": [[44, 18], [45, 18], [46, 18], [47, 18]],
                               "soFar": [6], "shortSlots": 36},
        "Kyoto Kaiseki": {**INTRADAY_CHART, "misses": False, "actual": [[45, 3], [47, 2]], "soFar": [],
                          "shortSlots": 0},
        "Osaka Delivery": {**INTRADAY_CHART, "misses": False, "actual": [[44, 3], [45, 3], [46, 3], [47, 3]],
                           "soFar": [1], "shortSlots": 0},
    },
    "legend": ["Plan's forecast", "Actual (closed 15 min)", "Current 15 min so far", "Reforecast", "Agents needed",
               "Agents staffed", "Short (needed > staffed)", "Now"],
    "axes": ["Contacts / 15 min", "Agents", "Time"],
    # Okabe-Ito colours, and a shape of its own per series (bars, solid, dashed, dotted).
    "styles": {"plan": ["rgb(0, 114, 178)", "none"], "actual": ["rgb(230, 159, 0)", "none"],
               "reforecast": ["rgb(213, 94, 0)", "6px, 3px"], "needed": ["rgb(0, 158, 115)", "none"],
               "staffed": ["rgb(0, 0, 0)", "2px, 2px"]},
    "quiet": f"Nothing planned or offered today ({len(QUIET)}): {', '.join(sorted(QUIET))}",
    "banner": {"hidden": False, "visible": True, "role": "alert",
               "text": "Predicted to miss the service-level target within the hour: Tokyo Reservations "
                       "(short by 2 agents)"},
}

# The what-if form: first moving 2 agents from Tokyo to Tokyo (refused by the endpoint with its
# reason), then adding 2 agents to Tokyo for 12:15-13:00: the slots 12:15, 12:30 and 12:45 (a
# slot is in the window when it starts within it), each at A = 3.43 with 4 agents and with 6:
# SL 34 % -> 88 %, ASA 223 s -> 12 s, no abandonment under Erlang C.
WHAT_IF_REFUSED = {
    "error": "Refused: move_agents: 2:Tokyo Reservations->Tokyo Reservations@12:15-13:00: "
             "a move needs two different queues",
    "tableHidden": True,
}
WHAT_IF_ROW = ["4", "6", "34%", "88%", "223 s", "12 s", "–", "–"]
WHAT_IF = {
    "error": "",
    "tableHidden": False,
    "rows": [["Tokyo Reservations", start] + WHAT_IF_ROW for start in ("12:15", "12:30", "12:45")],
}

# The same view in Japanese.
EXPECTED_INTRADAY_JA = {
    "heading": "本日",
    "legend": ["計画の予測", "実績（確定した15分）", "現在の15分（途中）", "再予測", "必要人数", "在席人数",
               "不足（必要 > 在席）", "現在"],
    "axes": ["着信数／15分", "人数", "時刻"],
    "nowLabel": "現在 12:05",
    "mark": "▼ 目標未達の見込み",
    "banner": "1時間以内にサービスレベル目標を下回る見込み：Tokyo Reservations（2人不足）",
    "whatIfHeader": ["変更なし", "変更あり"],
    "quiet": f"本日の計画・着信なし ({len(QUIET)}): {', '.join(sorted(QUIET))}",
}

# Reads the intraday view from the DOM: the charts by their SVG elements.
READ_INTRADAY_JS = r"""
() => {
  const text = (element) => (element?.textContent ?? "").trim();
  const section = document.querySelector("#intraday-section");
  const cards = [...document.querySelectorAll("#intraday-charts .intraday-queue")];
  const points = (path) => path ? path.getAttribute("d").split(" ").filter((c) => c === "M" || c === "L").length : 0;
  const charts = Object.fromEntries(cards.map((card) => {
    const chart = card.querySelector("svg.intraday");
    const reforecast = chart?.querySelector("path.reforecast");
    const now = chart?.querySelector("line.now");
    const start = reforecast ? reforecast.getAttribute("d").split(" ").slice(1, 3).map(Number) : null;
    return [text(card.querySelector("h3 .name")), {
      svg: chart != null,
      planPoints: points(chart?.querySelector("path.plan")),
      reforecastPoints: points(reforecast),
      reforecastStartsAtNow: start != null && now != null && Math.abs(start[0] - Number(now.getAttribute("x1"))) < 0.01,
      nowMinute: now ? Number(now.dataset.minute) : null,
      nowLabel: text(chart?.querySelector("text.now-label")),
      needed: chart?.querySelector("path.needed") != null,
      staffed: chart?.querySelector("path.staffed") != null,
      misses: card.classList.contains("misses") && card.querySelector(".mark") != null,
      actual: [...(chart?.querySelectorAll("rect.actual") ?? [])].map((bar) =>
        [Number(bar.dataset.slot), Number(bar.dataset.offered)]),
      soFar: [...(chart?.querySelectorAll("rect.so-far") ?? [])].map((bar) => Number(bar.dataset.offered)),
      shortSlots: chart?.querySelectorAll("rect.short-slot").length ?? 0,
    }];
  }));
  const style = (selector) => {
    const element = cards[0]?.querySelector(selector);
    if (!element) return null;
    const computed = getComputedStyle(element);
    return [selector.endsWith("actual") ? computed.fill : computed.stroke, computed.strokeDasharray];
  };
  const banner = document.querySelector("#shortfall-banner");
  return {
    hidden: section?.hidden ?? null,
    heading: text(section?.querySelector("h2")),
    order: cards.map((card) => text(card.querySelector("h3 .name"))),
    charts,
    legend: [...document.querySelectorAll("#intraday-legend li")].map(text),
    axes: [...(cards[0]?.querySelectorAll("text.axis-title") ?? [])].map(text),
    styles: Object.fromEntries(["plan", "actual", "reforecast", "needed", "staffed"].map((name) =>
      [name, style(`${name === "actual" ? "rect" : "path"}.${name}`)])),
    quiet: text(document.querySelector("#intraday-quiet")),
    banner: { hidden: banner?.hidden ?? null, visible: (banner?.offsetHeight ?? 0) > 0,
      role: banner?.getAttribute("role") ?? null, text: text(banner) },
  };
}
"""

# Resolves once read() equals expected (compared as JSON) after running `action`, or with the
# last state at the deadline.
WAIT_FOR_JS = r"""
new Promise((resolve) => {
  const read = %(read)s;
  const expected = %(expected)s;
  let done = false;
  const finish = (reached) => {
    if (done) return;
    done = true;
    observer.disconnect();
    clearTimeout(timer);
    resolve({ reached, state: read() });
  };
  const check = () => { if (!done && JSON.stringify(read()) === JSON.stringify(expected)) finish(true); };
  const observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  const timer = setTimeout(() => finish(false), %(timeout_ms)d);
  (%(action)s)();
  check();
})
"""

# Fills the what-if form and submits it.
WHAT_IF_ACTION_JS = r"""
() => {
  const set = (selector, value) => {
    const element = document.querySelector(selector);
    element.value = value;
    element.dispatchEvent(new Event("change", { bubbles: true }));
  };
  set("#what-if-kind", %(kind)s);
  set("#what-if-queue", %(queue)s);
  set("#what-if-from", %(from)s);
  set("#what-if-agents", "2");
  set("#what-if-start", "12:15");
  set("#what-if-end", "13:00");
  document.querySelector("#what-if-submit").click();
}
"""

READ_WHAT_IF_JS = r"""
() => {
  const table = document.querySelector("#what-if-table");
  const state = {
    error: (document.querySelector("#what-if-error")?.textContent ?? "").trim(),
    tableHidden: table?.hidden ?? null,
  };
  if (!table.hidden) {
    state.rows = [...table.tBodies[0].rows].map((row) => [...row.cells].map((cell) => cell.textContent.trim()));
  }
  return state;
}
"""

READ_INTRADAY_JA_JS = r"""
() => {
  const text = (element) => (element?.textContent ?? "").trim();
  const card = document.querySelector("#intraday-charts .intraday-queue");
  return {
    heading: text(document.querySelector("#intraday-section h2")),
    legend: [...document.querySelectorAll("#intraday-legend li")].map(text),
    axes: [...(card?.querySelectorAll("text.axis-title") ?? [])].map(text),
    nowLabel: text(card?.querySelector("text.now-label")),
    mark: text(card?.querySelector(".mark")),
    banner: text(document.querySelector("#shortfall-banner")),
    whatIfHeader: [...document.querySelectorAll("#what-if-table thead tr:nth-child(2) th")].slice(0, 2).map(text),
    quiet: text(document.querySelector("#intraday-quiet")),
  };
}
"""

# Reads what the checks need from the DOM. Rows and cells are read by their structure, as a
# person reads the table: agent rows carry data-agent-id and data-activity.
READ_DOM_JS = r"""
() => {
  const text = (selector) => (document.querySelector(selector)?.textContent ?? "").trim();
  const tiles = {};
  for (const key of ["available", "connecting", "onContact", "afterContactWork", "error", "customStatus", "offline",
    "contactsWaiting"]) {
    tiles[key] = text(`#tile-${key}`);
  }
  const agents = [...document.querySelectorAll("#agents tbody tr[data-agent-id]")].map((row) => ({
    activity: row.dataset.activity ?? null,
    cells: [...row.cells].map((cell) => cell.textContent.trim()),
  }));
  const queues = [...document.querySelectorAll("#queues tbody tr[data-queue-id]")].map((row) =>
    [...row.cells].map((cell) => cell.textContent.trim()));
  const staffingRows = [...document.querySelectorAll("#staffing tbody tr[data-queue-id]")];
  const queueName = (row) => row.cells[0].firstChild?.textContent.trim() ?? "";
  const staffingOrder = staffingRows.map(queueName);
  const staffing = Object.fromEntries(staffingRows.map((row) => [
    queueName(row),
    { figure: row.cells[4].textContent.trim(),
      short: row.classList.contains("short") && row.cells[4].classList.contains("understaffed") &&
        row.querySelector(".mark") != null,
      shortfall: row.cells[5].textContent.trim(),
      dayType: row.querySelector(".badge")?.dataset.dayType ?? null,
      serviceLevel: row.cells[2].textContent.trim(),
      bars: row.querySelectorAll("svg.sparkline rect.bar").length,
      barsOver: row.querySelectorAll("svg.sparkline rect.bar.over").length },
  ]));
  const totalRow = document.querySelector("#staffing tbody tr.total");
  const total = totalRow ? { figure: totalRow.cells[4].textContent.trim(),
    short: totalRow.cells[4].classList.contains("understaffed"), shortfall: totalRow.cells[5].textContent.trim() } : null;
  const quiet = text("#staffing tbody tr.quiet");
  const banner = document.querySelector("#banner");
  return {
    tiles, agents, queues, staffing, staffingOrder, total, quiet,
    bodyClasses: [...document.body.classList],
    bannerHidden: banner ? banner.hidden : null,
    dayType: text("#day-type"),
    connection: document.querySelector("#connection")?.dataset.state ?? null,
    seq: text("#seq"),
  };
}
"""

# Resolves with the DOM's state once `failures` (the same checks as Python's, in JS) finds none,
# or with the last state when the deadline passes.
WAIT_JS = r"""
new Promise((resolve) => {
  const read = %(read)s;
  const expected = %(expected)s;
  const failures = (state) => {
    const out = [];
    for (const [key, value] of Object.entries(expected.tiles)) if (state.tiles[key] !== value) out.push(`tile ${key}`);
    const byName = new Map(state.agents.map((agent) => [agent.cells[0], agent]));
    const names = Object.keys(expected.activities);
    if (state.agents.length !== names.length || !names.every((name) => byName.has(name))) out.push("agent names");
    for (const [name, activity] of Object.entries(expected.activities)) {
      if (byName.get(name)?.activity !== activity) out.push(`${name} activity`);
    }
    for (const [name, status] of Object.entries(expected.statuses)) {
      if (byName.get(name)?.cells[2] !== status) out.push(`${name} status`);
    }
    for (const [name, state_] of Object.entries(expected.contactStates)) {
      if (byName.get(name)?.cells[5] !== state_) out.push(`${name} contact state`);
    }
    const waiting = Object.fromEntries(state.queues.map((cells) => [cells[0], cells[1]]));
    if (JSON.stringify(waiting) !== JSON.stringify(expected.queuesWaiting)) out.push("queues");
    if (state.bodyClasses.includes("stale") || state.connection !== "live") out.push("live");
    if (state.bannerHidden !== true) out.push("banner hidden");
    if (!state.dayType) out.push("day type");
    for (const [name, wanted] of Object.entries(expected.staffing)) {
      if (JSON.stringify(state.staffing[name]) !== JSON.stringify(wanted)) out.push(`staffing ${name}`);
    }
    if (JSON.stringify(state.staffingOrder) !== JSON.stringify(expected.staffingOrder)) out.push("staffing order");
    if (JSON.stringify(state.total) !== JSON.stringify(expected.total)) out.push("staffing total");
    if (state.quiet !== expected.quiet) out.push("quiet queues");
    return out;
  };
  let done = false;
  const finish = (reached) => {
    if (done) return;
    done = true;
    observer.disconnect();
    clearTimeout(timer);
    resolve({ reached, state: read() });
  };
  const check = () => { if (!done && failures(read()).length === 0) finish(true); };
  const observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  const timer = setTimeout(() => finish(false), %(timeout_ms)d);
  check();
})
"""


class Deadline:
    def __init__(self, seconds):
        self.end = time.monotonic() + seconds

    def remaining(self, what):
        left = self.end - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"timed out waiting for {what}")
        return left


class WebSocket:
    """A WebSocket client connection (RFC 6455), just what CDP needs."""

    GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    def __init__(self, url, deadline):
        parsed = urllib.parse.urlparse(url)
        if parsed.scheme != "ws":
            raise ValueError(f"unsupported WebSocket URL {url}")
        self.sock = socket.create_connection((parsed.hostname, parsed.port or 80),
                                             timeout=deadline.remaining("the DevTools connection"))
        self.buffer = bytearray()
        key = base64.b64encode(os.urandom(16))
        request = (f"GET {parsed.path or '/'} HTTP/1.1\r\nHost: {parsed.hostname}:{parsed.port}\r\n"
                   "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key.decode()}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        while b"\r\n\r\n" not in self.buffer:
            self._fill(deadline, "the WebSocket handshake")
        head, _, rest = bytes(self.buffer).partition(b"\r\n\r\n")
        self.buffer = bytearray(rest)
        lines = head.decode("latin-1").split("\r\n")
        if lines[0].split(" ")[1:2] != ["101"]:
            raise ConnectionError(f"WebSocket handshake refused: {lines[0]}")
        fields = (line.partition(":") for line in lines[1:])
        headers = {name.strip().lower(): value.strip() for name, _, value in fields}
        accept = base64.b64encode(hashlib.sha1(key + self.GUID).digest()).decode()
        if headers.get("sec-websocket-accept") != accept:
            raise ConnectionError("WebSocket handshake: wrong Sec-WebSocket-Accept")

    def _fill(self, deadline, what):
        self.sock.settimeout(deadline.remaining(what))
        try:
            data = self.sock.recv(1 << 16)
        except socket.timeout:
            raise TimeoutError(f"timed out waiting for {what}") from None
        if not data:
            raise ConnectionError(f"connection closed while waiting for {what}")
        self.buffer += data

    def _take(self, count, deadline, what):
        while len(self.buffer) < count:
            self._fill(deadline, what)
        data = bytes(self.buffer[:count])
        del self.buffer[:count]
        return data

    def _send_frame(self, opcode, payload):
        header = bytearray([0x80 | opcode])
        length = len(payload)
        if length < 126:
            header.append(0x80 | length)
        elif length < 1 << 16:
            header.append(0x80 | 126)
            header += struct.pack("!H", length)
        else:
            header.append(0x80 | 127)
            header += struct.pack("!Q", length)
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self.sock.sendall(bytes(header) + mask + masked)

    def send_text(self, text):
        self._send_frame(0x1, text.encode("utf-8"))

    def receive(self, deadline, what):
        """The next text or binary message, fragments joined; answers pings on the way."""
        fragments = bytearray()
        message_opcode = None
        while True:
            first, second = self._take(2, deadline, what)
            fin, opcode = first & 0x80, first & 0x0F
            if second & 0x80:
                raise ConnectionError("the server sent a masked frame")
            length = second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", self._take(2, deadline, what))
            elif length == 127:
                (length,) = struct.unpack("!Q", self._take(8, deadline, what))
            payload = self._take(length, deadline, what)
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            if opcode == 0x8:
                raise ConnectionError("the DevTools connection was closed")
            if opcode in (0x1, 0x2):
                message_opcode = opcode
                fragments = bytearray(payload)
            elif opcode == 0x0 and message_opcode is not None:
                fragments += payload
            else:
                raise ConnectionError(f"unexpected WebSocket opcode {opcode}")
            if fin:
                return fragments.decode("utf-8") if message_opcode == 0x1 else bytes(fragments)

    def close(self):
        try:
            self._send_frame(0x8, struct.pack("!H", 1000))
        except OSError:
            pass
        self.sock.close()


class DevTools:
    """Commands and events of one CDP connection (flat sessions: one socket, many targets)."""

    def __init__(self, socket_):
        self.ws = socket_
        self.next_id = 0
        self.events = []
        self.exceptions = []

    def call(self, method, deadline, session=None, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self.ws.send_text(json.dumps(message))
        while True:
            reply = self._next(deadline, f"{method}'s answer")
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def wait_event(self, method, deadline, session=None):
        while True:
            for index, event in enumerate(self.events):
                if event["method"] == method and event.get("sessionId") == session:
                    return self.events.pop(index)["params"]
            self._next(deadline, f"the event {method}")

    def _next(self, deadline, what):
        message = json.loads(self.ws.receive(deadline, what))
        if "method" in message:
            method, params = message["method"], message.get("params", {})
            if method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                description = details.get("exception", {}).get("description") or details.get("text")
                self.exceptions.append(description)
                print(f"  page exception: {description}", file=sys.stderr)
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning"):
                text = " ".join(str(arg.get("value", arg.get("description", ""))) for arg in params.get("args", []))
                print(f"  page console {params['type']}: {text}", file=sys.stderr)
            else:
                self.events.append(message)
        return message


def devtools_url(profile, browser_pid, deadline):
    """The browser's DevTools WebSocket URL, from DIR/DevToolsActivePort once Chromium wrote it."""
    path = os.path.join(profile, "DevToolsActivePort")
    while True:
        try:
            with open(path, encoding="utf-8") as file:
                lines = file.read().split("\n")
            if len(lines) >= 2 and lines[0].strip().isdigit() and lines[1].startswith("/devtools/browser/"):
                return f"ws://127.0.0.1:{lines[0].strip()}{lines[1].strip()}"
        except FileNotFoundError:
            pass
        try:
            os.kill(browser_pid, 0)
        except ProcessLookupError:
            raise RuntimeError("Chromium exited before it opened its DevTools port") from None
        # Chromium writes the file once, early in its start-up; this is the only poll here.
        time.sleep(min(0.05, deadline.remaining("Chromium's DevToolsActivePort")))


def check(state):
    """Prints every check against EXPECTED; returns the names of those that failed."""
    failures = []

    def expect(what, actual, wanted):
        good = actual == wanted
        print(f"  {'ok ' if good else 'FAIL'} {what}: {actual!r}" + ("" if good else f" (wanted {wanted!r})"))
        if not good:
            failures.append(what)

    for key, wanted in EXPECTED["tiles"].items():
        expect(f"tile {key}", state["tiles"].get(key), wanted)
    agents = {agent["cells"][0] if agent["cells"] else "": agent for agent in state["agents"]}
    expect("agent rows", len(state["agents"]), len(EXPECTED["activities"]))
    expect("agent names", sorted(agents), sorted(EXPECTED["activities"]))
    for name, activity in EXPECTED["activities"].items():
        expect(f"{name} activity", agents.get(name, {}).get("activity"), activity)
    for name, status in EXPECTED["statuses"].items():
        expect(f"{name} status", (agents.get(name, {}).get("cells") or [""] * 7)[2], status)
    for name, contact_state in EXPECTED["contactStates"].items():
        expect(f"{name} contact state", (agents.get(name, {}).get("cells") or [""] * 7)[5], contact_state)
    expect("queues waiting", {cells[0]: cells[1] for cells in state["queues"]}, EXPECTED["queuesWaiting"])
    expect("live (not greyed out)", "stale" in state["bodyClasses"], False)
    expect("connection badge", state["connection"], "live")
    expect("reconnecting banner hidden", state["bannerHidden"], True)
    expect("day type shown", bool(state["dayType"]), True)
    for name, wanted in EXPECTED["staffing"].items():
        expect(f"staffing {name}", state["staffing"].get(name), wanted)
    expect("staffing order (by shortfall)", state["staffingOrder"], EXPECTED["staffingOrder"])
    expect("staffing all queues", state["total"], EXPECTED["total"])
    expect("quiet queues folded", state["quiet"], EXPECTED["quiet"])
    return failures


# Clicks the language button, then resolves with the Japanese panel once it matches EXPECTED_JA
# (or its last state at the deadline).
JAPANESE_JS = r"""
new Promise((resolve) => {
  const expected = %(expected)s;
  const read = () => ({
    heading: document.querySelector("#staffing-section h2")?.textContent.trim() ?? "",
    quiet: document.querySelector("#staffing tbody tr.quiet")?.textContent.trim() ?? "",
    marks: [...document.querySelectorAll("#staffing .mark")].map((mark) => mark.textContent.trim()),
    total: document.querySelector("#staffing tbody tr.total")?.cells[0].textContent.trim() ?? "",
    lang: document.documentElement.lang,
  });
  let done = false;
  const finish = (reached) => {
    if (done) return;
    done = true;
    observer.disconnect();
    clearTimeout(timer);
    resolve({ reached, state: read() });
  };
  const check = () => { if (!done && JSON.stringify(read()) === JSON.stringify(expected)) finish(true); };
  const observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  const timer = setTimeout(() => finish(false), %(timeout_ms)d);
  document.querySelector("#language").click();
  check();
})
"""


def wait_for(cdp, session, deadline, read, expected, action="() => {}"):
    """Runs `action` in the page, then waits until `read` gives `expected`; the page's last state."""
    page_timeout_ms = int(max(0.0, deadline.remaining("the page") - 2) * 1000)
    expression = WAIT_FOR_JS % {"read": read, "expected": json.dumps(expected, ensure_ascii=False),
                                "action": action, "timeout_ms": page_timeout_ms}
    result = cdp.call("Runtime.evaluate", deadline, session, expression=expression, awaitPromise=True,
                      returnByValue=True)
    if "exceptionDetails" in result:
        raise RuntimeError(f"the page check threw: {result['exceptionDetails']}")
    return result["result"]["value"]["state"]


def compare(what, state, expected, failures):
    """Prints each of `expected`'s keys against `state`; appends the failed ones to `failures`."""
    for key, wanted in expected.items():
        actual = state.get(key)
        good = actual == wanted
        print(f"  {'ok ' if good else 'FAIL'} {what} {key}: {actual!r}" + ("" if good else f" (wanted {wanted!r})"))
        if not good:
            failures.append(f"{what} {key}")


def what_if_action(kind, queue, from_queue):
    return WHAT_IF_ACTION_JS % {"kind": json.dumps(kind), "queue": json.dumps(DEMO_QUEUE_ID + queue),
                                "from": json.dumps(DEMO_QUEUE_ID + from_queue)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", required=True, help="Chromium's --user-data-dir")
    parser.add_argument("--browser-pid", required=True, type=int, help="Chromium's process id")
    parser.add_argument("--url", required=True, help="the console URL, token included")
    parser.add_argument("--artifacts", required=True, help="where console.png, console-intraday.png, console-ja.png and console.html go")
    parser.add_argument("--timeout", type=float, default=30, help="seconds for the whole check")
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=1000)
    args = parser.parse_args()

    started = time.monotonic()
    deadline = Deadline(args.timeout)
    ws = WebSocket(devtools_url(args.profile, args.browser_pid, deadline), deadline)
    try:
        cdp = DevTools(ws)
        target = cdp.call("Target.createTarget", deadline, url="about:blank")["targetId"]
        session = cdp.call("Target.attachToTarget", deadline, targetId=target, flatten=True)["sessionId"]
        cdp.call("Page.enable", deadline, session)
        cdp.call("Runtime.enable", deadline, session)
        cdp.call("Emulation.setDeviceMetricsOverride", deadline, session,
                 width=args.width, height=args.height, deviceScaleFactor=1, mobile=False)
        navigation = cdp.call("Page.navigate", deadline, session, url=args.url)
        if navigation.get("errorText"):
            raise RuntimeError(f"navigation failed: {navigation['errorText']}")
        # A load event of the blank page may still be on its way: wait until the console's is in.
        while True:
            cdp.wait_event("Page.loadEventFired", deadline, session)
            loaded = cdp.call("Runtime.evaluate", deadline, session, returnByValue=True,
                              expression="[location.href, document.readyState]")["result"]["value"]
            if loaded == [args.url, "complete"]:
                break
        print(f"  page loaded after {time.monotonic() - started:.2f} s")

        # The page's own deadline ends a little before ours, so its last state still comes back.
        page_timeout_ms = int(max(0.0, deadline.remaining("the page") - 2) * 1000)
        expression = WAIT_JS % {"read": READ_DOM_JS, "expected": json.dumps(EXPECTED), "timeout_ms": page_timeout_ms}
        result = cdp.call("Runtime.evaluate", deadline, session, expression=expression,
                          awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"the DOM check threw: {result['exceptionDetails']}")
        outcome = result["result"]["value"]
        print(f"  DOM {'reached the expected floor' if outcome['reached'] else 'did NOT reach the expected floor'}"
              f" after {time.monotonic() - started:.2f} s ({outcome['state']['seq']})")
        failures = check(outcome["state"])

        os.makedirs(args.artifacts, exist_ok=True)
        screenshot = cdp.call("Page.captureScreenshot", deadline, session, format="png")
        with open(os.path.join(args.artifacts, "console.png"), "wb") as file:
            file.write(base64.b64decode(screenshot["data"]))

        # Today: the charts and the banner, then the what-if form refused and run.
        intraday = wait_for(cdp, session, deadline, READ_INTRADAY_JS, EXPECTED_INTRADAY)
        charts = intraday.pop("charts", {})
        compare("intraday", intraday, {k: v for k, v in EXPECTED_INTRADAY.items() if k != "charts"}, failures)
        for name, wanted in EXPECTED_INTRADAY["charts"].items():
            compare(f"chart {name}", charts.get(name) or {}, wanted, failures)
        refused = wait_for(cdp, session, deadline, READ_WHAT_IF_JS, WHAT_IF_REFUSED,
                           what_if_action("move", "tokyo-reservations", "tokyo-reservations"))
        compare("what-if refused", refused, WHAT_IF_REFUSED, failures)
        answered = wait_for(cdp, session, deadline, READ_WHAT_IF_JS, WHAT_IF,
                            what_if_action("add", "tokyo-reservations", "osaka-delivery"))
        compare("what-if", answered, WHAT_IF, failures)
        box = cdp.call("Runtime.evaluate", deadline, session, returnByValue=True, expression=(
            "(() => { const r = document.querySelector('#intraday-section').getBoundingClientRect();"
            " return [Math.max(0, r.left + scrollX - 8), Math.max(0, r.top + scrollY - 8), r.width + 16, r.height + 16];"
            " })()"))["result"]["value"]
        screenshot = cdp.call("Page.captureScreenshot", deadline, session, format="png", captureBeyondViewport=True,
                              clip={"x": box[0], "y": box[1], "width": max(1, box[2]), "height": max(1, box[3]),
                                    "scale": 1})
        with open(os.path.join(args.artifacts, "console-intraday.png"), "wb") as file:
            file.write(base64.b64decode(screenshot["data"]))

        page_timeout_ms = int(max(0.0, deadline.remaining("the page") - 2) * 1000)
        result = cdp.call("Runtime.evaluate", deadline, session, awaitPromise=True, returnByValue=True,
                          expression=JAPANESE_JS % {"expected": json.dumps(EXPECTED_JA, ensure_ascii=False),
                                                    "timeout_ms": page_timeout_ms})
        if "exceptionDetails" in result:
            raise RuntimeError(f"the Japanese check threw: {result['exceptionDetails']}")
        japanese = result["result"]["value"]["state"]
        for key, wanted in EXPECTED_JA.items():
            good = japanese.get(key) == wanted
            print(f"  {'ok ' if good else 'FAIL'} Japanese {key}: {japanese.get(key)!r}"
                  + ("" if good else f" (wanted {wanted!r})"))
            if not good:
                failures.append(f"Japanese {key}")
        japanese = wait_for(cdp, session, deadline, READ_INTRADAY_JA_JS, EXPECTED_INTRADAY_JA)
        compare("Japanese intraday", japanese, EXPECTED_INTRADAY_JA, failures)
        screenshot = cdp.call("Page.captureScreenshot", deadline, session, format="png")
        with open(os.path.join(args.artifacts, "console-ja.png"), "wb") as file:
            file.write(base64.b64decode(screenshot["data"]))
        if cdp.exceptions:
            print(f"  FAIL uncaught exceptions in the page: {len(cdp.exceptions)}")
            failures.append("page exceptions")

        html = cdp.call("Runtime.evaluate", deadline, session,
                        expression="document.documentElement.outerHTML", returnByValue=True)
        with open(os.path.join(args.artifacts, "console.html"), "w", encoding="utf-8") as file:
            file.write("<!doctype html>\n" + html["result"]["value"])
        try:
            cdp.call("Browser.close", deadline)
        except (ConnectionError, TimeoutError, RuntimeError):
            pass  # the browser may close the connection before it answers; the caller stops it anyway
    finally:
        ws.close()
    print(f"  {len(failures)} failed, browser check took {time.monotonic() - started:.2f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (TimeoutError, ConnectionError, RuntimeError, OSError) as error:
        print(f"browser check failed: {error}", file=sys.stderr)
        sys.exit(1)
