#!/usr/bin/python3
"""Checks the operator console in a real browser, through WebDriver (Selenium and chromedriver).

    scripts/browser-test.py --url URL --artifacts DIR --profile DIR [--timeout 30]
                            [--chromedriver /usr/bin/chromedriver] [--browser /usr/bin/chromium]

Starts the system chromedriver at an explicit path (so Selenium Manager never looks for a driver
on the network); chromedriver starts headless Chromium with its profile in DIR and stops it at the
end. Loads URL (the console of `switchboard-bench console-demo`, whose floor is fixed) and runs the
checks one after another: the demo floor (agent names, their activities and statuses, the
wallboard counts, the queues, the staffing panel in shortfall order with its marks, live and not
reconnecting), "Today" (each queue's chart by its SVG elements, the legend, the shortfall banner),
the what-if form refused and answered, the staffing panel and "Today" in Japanese after a click on
the language button, and no uncaught exception in the page. Screenshots (console.png,
console-intraday.png, console-ja.png), the DOM (console.html) and the log of chromedriver and
Chromium (chromium.log) go to the artifacts folder.

Every check goes through one waiter, wait_for (Selenium's WebDriverWait): it reads the rendered
DOM every 100 ms until the check's part of it is what is expected, for at most the check's own
budget (--timeout: SWITCHBOARD_BROWSER_TIMEOUT, else 30 s). A check that never matches fails
alone, names itself and shows what differs; the checks after it still run. Exits non-zero when
any check failed, listing them, or when the browser cannot be started.

Debian's python3-selenium, so Debian's Python (/usr/bin/python3); otherwise the standard library.
"""

import argparse
import os
import sys
import time

from selenium import webdriver
from selenium.common.exceptions import JavascriptException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

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
    # In the table's order (by name): compared as a list of (queue, waiting), order included.
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

# The same view's labels, for the Japanese check.
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

# The what-if form's result: the refusal's reason, or the table of slots.
READ_WHAT_IF_JS = r"""
() => {
  const table = document.querySelector("#what-if-table");
  const state = {
    error: (document.querySelector("#what-if-error")?.textContent ?? "").trim(),
    tableHidden: table?.hidden ?? null,
  };
  if (table && !table.hidden) {
    state.rows = [...table.tBodies[0].rows].map((row) => [...row.cells].map((cell) => cell.textContent.trim()));
  }
  return state;
}
"""

# The staffing panel's labels and marks, for the Japanese check.
READ_STAFFING_JA_JS = r"""
() => ({
  heading: document.querySelector("#staffing-section h2")?.textContent.trim() ?? "",
  quiet: document.querySelector("#staffing tbody tr.quiet")?.textContent.trim() ?? "",
  marks: [...document.querySelectorAll("#staffing .mark")].map((mark) => mark.textContent.trim()),
  total: document.querySelector("#staffing tbody tr.total")?.cells[0].textContent.trim() ?? "",
  lang: document.documentElement.lang,
})
"""

# Where the page is: for the check that it loaded.
READ_LOCATION_JS = "() => [location.href, document.readyState]"

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


def wait_for(driver, read, expected, timeout):
    """The one waiter of every check: polls read(driver) every 100 ms until it equals `expected`,
    for at most `timeout` seconds. Returns (matched, the last value read, the reader's last error)."""
    last = {"value": None, "error": None}

    def matches(driver):
        try:
            last["value"], last["error"] = read(driver), None
        except JavascriptException as error:  # the page is not there yet (an element missing)
            last["error"] = f"the page's reader threw: {error.msg}"
            return False
        return last["value"] == expected

    try:
        WebDriverWait(driver, timeout, poll_frequency=0.1).until(matches)
        return True, last["value"], None
    except TimeoutException:
        return False, last["value"], last["error"]


def reader(js, pick=lambda state: state):
    """A check's read: runs the reader function `js` in the page and keeps its part `pick`."""
    return lambda driver: pick(driver.execute_script(f"return ({js})();"))


def differences(actual, wanted):
    """Lines that say where `actual` differs from `wanted`: key by key for dictionaries."""
    if isinstance(actual, dict) and isinstance(wanted, dict):
        return [f"{key}: {actual.get(key, '(missing)')!r} (wanted {wanted.get(key, '(none)')!r})"
                for key in sorted(set(actual) | set(wanted), key=str) if actual.get(key) != wanted.get(key)]
    return [f"got {actual!r}", f"wanted {wanted!r}"]


class Checks:
    """Runs the checks one by one, each on its own budget, and keeps who passed and who failed."""

    def __init__(self, driver, timeout):
        self.driver = driver
        self.timeout = timeout
        self.passed = []
        self.failed = []
        self.page_exceptions = []

    def run(self, name, read, expected, action=None, timeout=None):
        """Runs `action` (a step in the page, once), then waits until `read` gives `expected`."""
        started = time.monotonic()
        budget = self.timeout if timeout is None else timeout
        try:
            if action:
                action()
            matched, actual, error = wait_for(self.driver, read, expected, budget)
        except WebDriverException as failure:  # the browser or the action failed: this check fails
            matched, actual, error = False, None, f"{type(failure).__name__}: {failure.msg or failure}"
        took = time.monotonic() - started
        if matched:
            self.passed.append(name)
            print(f"  ok   {name} ({took:.2f} s)", flush=True)
        else:
            self.failed.append(name)
            print(f"  FAIL {name} after {took:.2f} s (budget {budget:g} s)", flush=True)
            for line in [error] if error else differences(actual, expected):
                print(f"         {line}", flush=True)
        self.read_page_log()

    def read_page_log(self):
        """Prints the page's new console errors and warnings (not failed requests: the refused
        what-if is one); returns its uncaught exceptions so far."""
        try:
            entries = self.driver.get_log("browser")
        except WebDriverException:
            return self.page_exceptions
        for entry in entries:
            if entry.get("source") == "javascript" and entry.get("level") == "SEVERE":
                self.page_exceptions.append(entry["message"])
                print(f"  page exception: {entry['message']}", file=sys.stderr)
            elif entry.get("source") == "console-api" and entry.get("level") in ("SEVERE", "WARNING"):
                print(f"  page console {entry['level'].lower()}: {entry['message']}", file=sys.stderr)
        return self.page_exceptions


def save(what, write):
    """Saves one artifact; a browser that cannot give it is reported, and the checks go on."""
    try:
        write()
    except (WebDriverException, OSError) as error:
        print(f"  could not save {what}: {getattr(error, 'msg', None) or error}", file=sys.stderr)


def save_page(driver, path):
    """A screenshot of the viewport from the top of the page."""
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(path)


def save_dom(driver, path):
    html = driver.execute_script("return document.documentElement.outerHTML")
    with open(path, "w", encoding="utf-8") as file:
        file.write("<!doctype html>\n" + html)


def fill_what_if(driver, kind, queue, from_queue=None):
    """Fills the what-if form as a person would (2 agents, 12:15-13:00) and submits it."""
    Select(driver.find_element(By.ID, "what-if-kind")).select_by_value(kind)
    Select(driver.find_element(By.ID, "what-if-queue")).select_by_value(DEMO_QUEUE_ID + queue)
    if from_queue:  # the "from" queue is shown for a move only
        Select(driver.find_element(By.ID, "what-if-from")).select_by_value(DEMO_QUEUE_ID + from_queue)
    for field, value in (("what-if-agents", "2"), ("what-if-start", "12:15"), ("what-if-end", "13:00")):
        element = driver.find_element(By.ID, field)
        element.clear()
        element.send_keys(value)
    driver.find_element(By.ID, "what-if-submit").click()


def start_browser(args):
    """Starts chromedriver at its explicit path; it starts headless Chromium with our profile."""
    options = webdriver.ChromeOptions()
    options.binary_location = args.browser
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
                 "--disable-default-apps", "--disable-extensions", "--mute-audio", "--hide-scrollbars",
                 f"--window-size={args.width},{args.height}", f"--user-data-dir={args.profile}"):
        options.add_argument(flag)
    # The page's console and uncaught exceptions, read after every check.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    log = open(os.path.join(args.artifacts, "chromium.log"), "wb")
    # --enable-chrome-logs: Chromium's own stderr goes to the same log as chromedriver's.
    service = Service(executable_path=args.chromedriver, log_file=log, service_args=["--enable-chrome-logs"])
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(args.timeout)
    # The window holds the viewport: grow it so the viewport (what screenshots show) is width x height.
    inner = driver.execute_script("return [innerWidth, innerHeight]")
    size = driver.get_window_size()
    driver.set_window_size(size["width"] + args.width - inner[0], size["height"] + args.height - inner[1])
    return driver


def run_checks(driver, checks, args):
    """Every check, in the page's order: the floor, "Today", the what-if form, Japanese."""
    os.makedirs(args.artifacts, exist_ok=True)
    checks.run("console page loads", reader(READ_LOCATION_JS), [args.url, "complete"],
               action=lambda: driver.get(args.url))

    # The demo floor.
    def floor(pick):
        return reader(READ_DOM_JS, pick)

    def agents(state):  # the agent rows by name
        return {agent["cells"][0]: agent for agent in state["agents"] if agent["cells"]}

    def cell(state, name, index):  # one cell of an agent's row
        return (agents(state).get(name, {}).get("cells") or [""] * 7)[index]

    checks.run("wallboard tiles", floor(lambda s: s["tiles"]), EXPECTED["tiles"])
    checks.run("agent names", floor(lambda s: sorted(a["cells"][0] if a["cells"] else "" for a in s["agents"])),
               sorted(EXPECTED["activities"]))
    checks.run("agent activities", floor(lambda s: {name: agents(s).get(name, {}).get("activity")
                                                    for name in EXPECTED["activities"]}), EXPECTED["activities"])
    checks.run("agent statuses", floor(lambda s: {name: cell(s, name, 2) for name in EXPECTED["statuses"]}),
               EXPECTED["statuses"])
    checks.run("agent contact states", floor(lambda s: {name: cell(s, name, 5) for name in EXPECTED["contactStates"]}),
               EXPECTED["contactStates"])
    checks.run("queues waiting", floor(lambda s: [cells[:2] for cells in s["queues"]]),
               [[name, waiting] for name, waiting in EXPECTED["queuesWaiting"].items()])
    checks.run("live, not reconnecting",
               floor(lambda s: {"greyed out": "stale" in s["bodyClasses"], "connection badge": s["connection"],
                                "reconnecting banner hidden": s["bannerHidden"]}),
               {"greyed out": False, "connection badge": "live", "reconnecting banner hidden": True})
    checks.run("day type shown", floor(lambda s: bool(s["dayType"])), True)
    for name, wanted in EXPECTED["staffing"].items():
        checks.run(f"staffing {name}", floor(lambda s, name=name: s["staffing"].get(name)), wanted)
    checks.run("staffing order (by shortfall)", floor(lambda s: s["staffingOrder"]), EXPECTED["staffingOrder"])
    checks.run("staffing all queues", floor(lambda s: s["total"]), EXPECTED["total"])
    checks.run("staffing quiet queues folded", floor(lambda s: s["quiet"]), EXPECTED["quiet"])
    save("console.png", lambda: save_page(driver, os.path.join(args.artifacts, "console.png")))

    # Today: the charts and the banner.
    def today(*keys):
        return reader(READ_INTRADAY_JS, lambda s: {key: s.get(key) for key in keys})

    def expected_today(*keys):
        return {key: EXPECTED_INTRADAY[key] for key in keys}

    checks.run("Today section", today("hidden", "heading", "order"), expected_today("hidden", "heading", "order"))
    for name, wanted in EXPECTED_INTRADAY["charts"].items():
        checks.run(f"Today chart {name}", reader(READ_INTRADAY_JS, lambda s, name=name: s["charts"].get(name)), wanted)
    checks.run("Today legend and axes", today("legend", "axes"), expected_today("legend", "axes"))
    checks.run("Today chart styles", today("styles"), expected_today("styles"))
    checks.run("Today quiet queues", today("quiet"), expected_today("quiet"))
    checks.run("shortfall banner", today("banner"), expected_today("banner"))

    # The what-if form: refused (a move within one queue), then answered (2 agents added).
    checks.run("what-if refused", reader(READ_WHAT_IF_JS), WHAT_IF_REFUSED,
               action=lambda: fill_what_if(driver, "move", "tokyo-reservations", "tokyo-reservations"))
    checks.run("what-if answered", reader(READ_WHAT_IF_JS), WHAT_IF,
               action=lambda: fill_what_if(driver, "add", "tokyo-reservations"))
    save("console-intraday.png", lambda: driver.find_element(By.ID, "intraday-section").screenshot(
        os.path.join(args.artifacts, "console-intraday.png")))

    # Japanese, after the language button.
    checks.run("Japanese staffing panel", reader(READ_STAFFING_JA_JS), EXPECTED_JA,
               action=lambda: driver.find_element(By.ID, "language").click())
    checks.run("Japanese Today", reader(READ_INTRADAY_JA_JS), EXPECTED_INTRADAY_JA)
    save("console-ja.png", lambda: save_page(driver, os.path.join(args.artifacts, "console-ja.png")))

    # The page's exceptions are all in by now: read once, no wait.
    checks.run("no uncaught exceptions in the page", lambda driver: checks.read_page_log(), [], timeout=0)
    save("console.html", lambda: save_dom(driver, os.path.join(args.artifacts, "console.html")))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True, help="the console URL, token included")
    parser.add_argument("--artifacts", required=True,
                        help="where console.png, console-intraday.png, console-ja.png, console.html and chromium.log go")
    parser.add_argument("--profile", required=True, help="Chromium's --user-data-dir (a folder of its own)")
    parser.add_argument("--timeout", type=float, default=float(os.environ.get("SWITCHBOARD_BROWSER_TIMEOUT", 30)),
                        help="seconds for each check (SWITCHBOARD_BROWSER_TIMEOUT, else 30)")
    parser.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    parser.add_argument("--browser", default="/usr/bin/chromium")
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=1000)
    args = parser.parse_args()

    started = time.monotonic()
    os.makedirs(args.artifacts, exist_ok=True)
    try:
        driver = start_browser(args)
    except WebDriverException as error:
        print(f"browser check failed: chromedriver or Chromium did not start: {error.msg}", file=sys.stderr)
        return 1
    print(f"  {driver.capabilities.get('browserName')} {driver.capabilities.get('browserVersion')} through "
          f"chromedriver, started in {time.monotonic() - started:.2f} s; {args.timeout:g} s for each check", flush=True)
    checks = Checks(driver, args.timeout)
    try:
        run_checks(driver, checks, args)
    finally:
        driver.quit()  # chromedriver closes Chromium, then exits
    print(f"  browser checks: {len(checks.passed)} passed, {len(checks.failed)} failed, "
          f"in {time.monotonic() - started:.2f} s")
    if checks.failed:
        print(f"  failed: {'; '.join(checks.failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
