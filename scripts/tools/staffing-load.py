#!/usr/bin/env python3
"""The most expensive valid staffing requests, as fast as one caller's budget allows: the attacker
of `make bench-hook`'s "expensive requests" round.

    staffing-load.py --port P --console-token T --mcp-token M --date YYYY-MM-DD --queue Q --seconds S

A console token has one staffing request running and four waiting, so five threads keep its
budget full, each asking in turn for the largest plan a request may ask for (31 days, every
queue, Erlang A, 95 % within 5 s, occupancy capped at 0.5, 90 % shrinkage) and the intraday
reforecast with the most what-if changes (16, together 1,000 agents in every 15 minutes of the
day). An MCP token has four posts running: four threads post batches of 16 `staffing_outlook`
calls over every queue and 12 hours. Every request goes to 127.0.0.1. A refusal (429) is counted
and retried after 50 ms. The last line is machine-readable:
    LOAD seconds=<s> plans=<n> reforecasts=<n> outlook_calls=<n> refused=<n> failed=<n>
"""

import argparse
import datetime
import http.client
import json
import threading
import time
import urllib.parse


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--console-token", required=True)
    parser.add_argument("--mcp-token", required=True)
    parser.add_argument("--date", required=True)
    parser.add_argument("--queue", required=True)
    parser.add_argument("--seconds", type=float, required=True)
    args = parser.parse_args()
    if not 0 < args.seconds <= 120:
        parser.error("--seconds must be within (0, 120]")

    first = datetime.date.fromisoformat(args.date)
    plan = "/v1/staffing?" + urllib.parse.urlencode({
        "from": first.isoformat(), "to": (first + datetime.timedelta(days=30)).isoformat(),
        "model": "erlang-a", "service_level": "95/5", "max_occupancy": "0.5", "shrinkage": "0.9",
    })
    changes = [("queue", args.queue), ("model", "erlang-a"), ("service_level", "95/5")]
    changes += [("add_agents", "62@00:00-24:00")] * 15 + [("add_agents", "70@00:00-24:00")]
    reforecast = "/v1/staffing/intraday?" + urllib.parse.urlencode(changes)
    call = {"jsonrpc": "2.0", "method": "tools/call",
            "params": {"name": "staffing_outlook", "arguments": {"hours": 12}}}
    batch = json.dumps([dict(call, id=i) for i in range(16)]).encode()

    deadline = time.monotonic() + args.seconds
    counts = {"plans": 0, "reforecasts": 0, "outlook_calls": 0, "refused": 0, "failed": 0}
    lock = threading.Lock()

    def count(key, n=1):
        with lock:
            counts[key] += n

    class Client:
        """One keep-alive connection; a request that fails is counted, and the connection opened anew."""

        def __init__(self, headers):
            self.headers = headers
            self.connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)

        def send(self, method, path, body=None):
            """The body of a 200, or None: failed or refused (a 429 waits 50 ms)."""
            try:
                self.connection.request(method, path, body=body, headers=self.headers)
                response = self.connection.getresponse()
                answer = response.read()
            except (OSError, http.client.HTTPException):
                count("failed")
                self.connection.close()
                self.connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
                return None
            if response.status == 429:
                count("refused")
                time.sleep(0.05)
                return None
            if response.status != 200:
                count("failed")
                return None
            return answer

    def staffing(offset):
        client = Client({"Authorization": "Bearer " + args.console_token})
        turn = offset
        while time.monotonic() < deadline:
            path, key = (plan, "plans") if turn % 2 == 0 else (reforecast, "reforecasts")
            if client.send("GET", path) is not None:
                count(key)
                turn += 1

    def outlook():
        client = Client({"Authorization": "Bearer " + args.mcp_token, "Content-Type": "application/json",
                         "Accept": "application/json, text/event-stream"})
        while time.monotonic() < deadline:
            body = client.send("POST", "/mcp", batch)
            if body is None:
                continue
            for answer in json.loads(body):
                result = answer.get("result", {})
                if result.get("isError"):
                    code = (result.get("structuredContent") or {}).get("error")
                    count("refused" if code == "too_many_requests" else "failed")
                else:
                    count("outlook_calls")

    threads = [threading.Thread(target=staffing, args=(i,)) for i in range(5)]
    threads += [threading.Thread(target=outlook) for _ in range(4)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print("LOAD seconds=%.1f %s" % (time.monotonic() - started,
                                    " ".join("%s=%d" % item for item in counts.items())), flush=True)
    return 0 if counts["failed"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
