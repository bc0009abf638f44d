#!/usr/bin/env python3
"""Fuzzes a running Switchboard hook server; fails on any 5xx, dropped connection or hang.

Standard library only. Sends mutated Amazon Connect events and plain bodies, random bytes and
JSON, oversized and deeply nested bodies, correct and broken bearer tokens and HMAC signatures,
odd paths, query strings and methods, plus a few hundred malformed raw HTTP requests; then checks
that the server is still healthy.

    scripts/fuzz-hook.py --base http://127.0.0.1:8080 [--token T] [--secret S] [--requests 5000]
"""
import argparse
import hashlib
import hmac
import http.client
import json
import random
import socket
import sys
import time
import urllib.parse

CONNECT = {
    "Name": "ContactFlowEvent",
    "Details": {
        "ContactData": {
            "Attributes": {"language": "en", "storeId": "ginza-bar"},
            "Channel": "VOICE",
            "ContactId": "5ca32fbd-8f92-46af-92a5-6b0f970f0efe",
            "CustomerEndpoint": {"Address": "+819012345678", "Type": "TELEPHONE_NUMBER"},
            "SystemEndpoint": {"Address": "+81355500103", "Type": "TELEPHONE_NUMBER"},
            "Queue": None,
        },
        "Parameters": {"storeId": "shinjuku-izakaya", "at": "2026-12-31T22:30:00+09:00"},
    },
}
PLAIN = {"storeId": "ginza-sushi", "at": "2026-06-10T21:50:00+09:00", "attributes": {"language": "en"},
         "dialedNumber": "+81355500106", "parameters": {"x": "1"}}
FLOWS = ["main", "reservations", "nope", "", "%2e%2e", "main%00", "a" * 300, "%E3%81%82", "main/extra"]
STORES = ["ginza-sushi", "shinjuku-izakaya", "nowhere", "", "%00", "x" * 500]
WEIRD_STRINGS = ["", " ", "\u0000", "\ud7ff", "🍣", "null", "2026-02-30T10:00:00Z", "9999-12-31T23:59:59+18:00",
                 "0000-01-01T00:00:00Z", "2026-06-10T18:00:00.123456789+09:00", "2026-06-10T18:00:00+24:00",
                 "x" * 5000, "\\", "\"", "{{store.kind}}", "+", "+8", "-1", "1e309"]


def random_json(rng, depth=0):
    kind = rng.randrange(8 if depth < 4 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, -1, 2**63, 1.5e308, -0.0, 12345678901234567890])
    if kind in (3, 4):
        return rng.choice(WEIRD_STRINGS + [str(rng.random())])
    if kind == 5:
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["storeId", "at", "Details", "ContactData", "Parameters", "Attributes", "attributes",
                        "parameters", "dialedNumber", "SystemEndpoint", "Address", "k"]): random_json(rng, depth + 1)
            for _ in range(rng.randrange(5))}


def mutate_structure(rng, value):
    """Replaces one random node of a JSON value by random JSON."""
    if isinstance(value, dict) and value and rng.random() < 0.7:
        key = rng.choice(list(value))
        copy = dict(value)
        copy[key] = mutate_structure(rng, value[key])
        return copy
    if isinstance(value, list) and value and rng.random() < 0.7:
        copy = list(value)
        index = rng.randrange(len(copy))
        copy[index] = mutate_structure(rng, copy[index])
        return copy
    return random_json(rng)


def mutate_bytes(rng, data):
    data = bytearray(data)
    for _ in range(rng.randrange(1, 6)):
        if not data:
            break
        index = rng.randrange(len(data))
        op = rng.randrange(4)
        if op == 0:
            data[index] = rng.randrange(256)
        elif op == 1:
            del data[index]
        elif op == 2:
            data.insert(index, rng.choice(b'{}[]":,\\\x00\xff\xc3 0123456789'))
        else:
            data[index:index] = data[index:index + rng.randrange(1, 40)]
    return bytes(data)


def body_for(rng):
    choice = rng.randrange(11)
    if choice == 0:
        return json.dumps(mutate_structure(rng, CONNECT)).encode()
    if choice == 1:
        return json.dumps(mutate_structure(rng, PLAIN)).encode()
    if choice == 2:
        return mutate_bytes(rng, json.dumps(CONNECT).encode())
    if choice == 3:
        return mutate_bytes(rng, json.dumps(PLAIN).encode())
    if choice == 4:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(300)))
    if choice == 5:
        return json.dumps(random_json(rng)).encode()
    if choice == 6:
        depth = rng.choice([10, 100, 1000, 20000, 65000])
        return (rng.choice(["[", "{\"a\":"]) * depth).encode()[:70000]
    if choice == 7:
        size = rng.choice([65535, 65536, 65537, 100000, 64 * 1024 - 60])
        return b'{"storeId":"ginza-sushi","attributes":{"n":"' + b"x" * size + b'"}}'
    if choice == 8:
        attrs = {f"k{i}": "v" * rng.randrange(100) for i in range(rng.randrange(2000))}
        return json.dumps({"storeId": "ginza-sushi", "attributes": attrs}).encode()[:66000]
    if choice == 9:
        return json.dumps({"storeId": rng.choice(STORES), "at": rng.choice(WEIRD_STRINGS)}).encode()
    return json.dumps(CONNECT).encode()


def headers_for(rng, method, path, body, token, secret):
    headers = {"Content-Type": rng.choice(["application/json", "text/plain", "", "application/json; charset=utf-16",
                                           "multipart/form-data; boundary=x"])}
    auth = rng.randrange(10)
    if token and auth < 4:
        headers["Authorization"] = "Bearer " + token
    elif auth == 4:
        headers["Authorization"] = rng.choice(["Bearer", "Bearer ", "Basic abc", "bearer  x", "Bearer " + "a" * 5000,
                                               "Bearer \u00e9", ""])
    elif secret and auth in (5, 6):
        stamp = str(int(time.time()) + rng.choice([0, 0, 0, -400, 400, 10**12]))
        # v2: the timestamp, the method, the target as sent and the body; v1 (timestamp.body) is refused.
        signed = f"{stamp}\n{method}\n{path}\n".encode() + body
        mac = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
        v1 = hmac.new(secret.encode(), stamp.encode() + b"." + body, hashlib.sha256).hexdigest()
        headers["X-Switchboard-Timestamp"] = rng.choice([stamp, stamp, "abc", "-1", "1" * 30, ""])
        headers["X-Switchboard-Signature"] = rng.choice(["v2=" + mac, "v2=" + mac, "v2=" + mac.upper(), "sha256=" + v1,
                                                         "v2=zz", "sha1=" + mac, mac, "v2=" + mac[:-1]])
    elif auth == 7:
        headers["X-Switchboard-Signature"] = "v2=" + "0" * 64
    return {k: v for k, v in headers.items() if v != ""}


def request_for(rng, token, secret):
    kind = rng.randrange(10)
    if kind < 7:
        body = body_for(rng)
        path = "/v1/hooks/" + rng.choice(FLOWS)
        return "POST", path, body, headers_for(rng, "POST", path, body, token, secret)
    if kind == 7:
        query = urllib.parse.urlencode({k: rng.choice(WEIRD_STRINGS + ["2026-12-30", "2027-12-31", "2025-01-01"])
                                        for k in rng.sample(["from", "to", "x"], rng.randrange(4))})
        path = f"/v1/stores/{urllib.parse.quote(rng.choice(STORES))}/hours" + ("?" + query if query else "")
        return "GET", path, None, headers_for(rng, "GET", path, b"", token, secret)
    if kind == 8:
        year = rng.choice(["2026", "1947", "1948", "2150", "2151", "-5", "0x10", "20260", "9" * 40, "", "%20"])
        query = rng.choice(["", "?calendar=japan", "?calendar=hanamaru-group", "?calendar=%00", "?calendar="])
        return "GET", f"/v1/calendar/{year}{query}", None, {}
    method = rng.choice(["GET", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "POST"])
    path = rng.choice(["/v1/hooks/main", "/v1/hooks", "/v1/hooks/", "/openapi.yaml", "/ready", "/health",
                       "/metrics", "/v1/ping", "/v1/calendar", "//v1//hooks//main", "/v1/hooks/main?x=%zz"])
    return method, path, rng.choice([None, b"{}", b"x"]), {}


def raw_garbage(rng):
    lines = [b"GET / HTTP/1.1\r\n\r\n", b"\x00\x01\x02\r\n\r\n", b"POST /v1/hooks/main HTTP/9.9\r\n\r\n",
             b"POST /v1/hooks/main HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
             b"POST /v1/hooks/main HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}",
             b"POST /v1/hooks/main HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
             b"POST /v1/hooks/main HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n0\r\n\r\n",
             b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
             b"GET / HTTP/1.1\r\n" + b"X-A: b\r\n" * 2000 + b"\r\n"]
    return rng.choice(lines) if rng.random() < 0.6 else bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--token", default="")
    parser.add_argument("--secret", default="")
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--raw", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--seed", type=int, default=20261231)
    parser.add_argument("--timeout", type=float, default=5)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    url = urllib.parse.urlparse(args.base)
    host, port = url.hostname, url.port
    assert host in ("127.0.0.1", "localhost", "::1"), "loopback only"

    statuses = {}
    failures = []
    connection = None
    started = time.monotonic()
    sent = 0
    for index in range(args.requests):
        if time.monotonic() - started > args.seconds:
            break
        method, path, body, headers = request_for(rng, args.token, args.secret)
        if connection is None:
            connection = http.client.HTTPConnection(host, port, timeout=args.timeout)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            statuses[response.status] = statuses.get(response.status, 0) + 1
            if response.status >= 500:
                failures.append(f"{response.status} for {method} {path[:80]} body={body[:120]!r} headers={headers}")
            if response.getheader("connection", "").lower() == "close":
                connection.close()
                connection = None
        except socket.timeout:
            failures.append(f"no answer within {args.timeout} s: {method} {path[:80]} body={body[:120]!r}")
            connection.close()
            connection = None
        except (ConnectionError, http.client.HTTPException) as error:
            # The server may close a connection after an error answer it sent (413); a fresh
            # connection must work, else the server is down.
            connection.close()
            connection = None
            statuses["closed"] = statuses.get("closed", 0) + 1
            if body is None or len(body) <= 64 * 1024:
                try:
                    probe = http.client.HTTPConnection(host, port, timeout=args.timeout)
                    probe.request("GET", "/health")
                    if probe.getresponse().status != 200:
                        failures.append(f"unhealthy after {method} {path[:80]}: {error!r}")
                    probe.close()
                except Exception as probe_error:  # noqa: BLE001
                    failures.append(f"server unreachable after {method} {path[:80]} ({error!r}): {probe_error!r}")
                    break
        sent += 1

    raw_sent = 0
    for _ in range(args.raw):
        data = raw_garbage(rng)
        try:
            with socket.create_connection((host, port), timeout=2) as raw:
                raw.sendall(data)
                raw.shutdown(socket.SHUT_WR)
                answer = b""
                while True:
                    chunk = raw.recv(65536)
                    if not chunk:
                        break
                    answer += chunk
                if answer.startswith(b"HTTP/1.1 5") and not answer.startswith(b"HTTP/1.1 503"):
                    failures.append(f"raw request {data[:60]!r} answered {answer[:40]!r}")
        except (socket.timeout, ConnectionError):
            pass
        raw_sent += 1

    try:
        probe = http.client.HTTPConnection(host, port, timeout=args.timeout)
        probe.request("GET", "/health")
        healthy = probe.getresponse().status == 200
    except Exception:  # noqa: BLE001
        healthy = False
    if not healthy:
        failures.append("the server is not healthy after the run")

    elapsed = time.monotonic() - started
    summary = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items(), key=lambda item: str(item[0])))
    print(f"fuzz: {sent} requests and {raw_sent} raw requests in {elapsed:.1f} s (seed {args.seed}); statuses {summary}")
    for failure in failures[:20]:
        print("FAIL", failure)
    print(f"{sent + raw_sent - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
