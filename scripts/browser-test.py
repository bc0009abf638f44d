#!/usr/bin/env python3
"""Checks the operator console in a real browser, over the Chrome DevTools protocol (CDP).

    scripts/browser-test.py --profile DIR --browser-pid PID --url URL --artifacts DIR [--timeout 30]

Chromium must already run headless with `--remote-debugging-port=0 --user-data-dir=DIR`
(scripts/browser-test.sh starts it and stops it). This script reads the port Chromium picked from
DIR/DevToolsActivePort, opens a page, loads URL (the console of `switchboard-bench console-demo`, whose
floor is fixed), and waits, inside the page, until the rendered DOM shows that floor: a
MutationObserver re-reads the DOM on every change, so the check ends the moment the page is right,
or when the deadline passes. Then it reports every check, saves a screenshot (console.png), clicks
the language button and checks the staffing panel in Japanese (console-ja.png), saves the DOM
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", required=True, help="Chromium's --user-data-dir")
    parser.add_argument("--browser-pid", required=True, type=int, help="Chromium's process id")
    parser.add_argument("--url", required=True, help="the console URL, token included")
    parser.add_argument("--artifacts", required=True, help="where console.png, console-ja.png and console.html go")
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
