#!/usr/bin/env python3
"""Drives a running `switchboard dev` through its MCP endpoint with the official MCP Python SDK.

    scripts/mcp-test.sh          (installs the SDK, starts PostgreSQL, then runs this)

Starts a local JWKS endpoint serving an RSA and a P-256 test key, starts `switchboard dev` with a
static MCP token and that issuer, and checks: the protected resource metadata, 401s (missing,
wrong, expired, wrong-audience, wrong-issuer and forged tokens), 403 for a foreign Origin, 405 for
GET, the MCP-Protocol-Version header, JSON-RPC errors, `initialize` under each protocol version
through the SDK's client, `tools/list`, every tool with good and bad arguments, that
`store_status` agrees with `switchboard flows eval` across a holiday, its eve and overnight spans,
that `staffing_outlook` gives the figures of `GET /v1/staffing/intraday` for the same queue, and
that `/metrics` has `switchboard_staffing_shortfall_agents` for each of its queues.

Environment: SWITCHBOARD_BINARY (the switchboard executable), SWITCHBOARD_DATABASE_URL.
Exits non-zero on the first failure.
"""

import asyncio
import json
import math
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx2
import jwt
import mcp.client.session as session_module
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ISSUER = "https://issuer.switchboard.test"
AUDIENCE = "switchboard-mcp-test"
STATIC_TOKEN = "mcp-static-token-for-tests-0123456789"
VERSIONS = ["2025-03-26", "2025-06-18", "2025-11-25"]
TOOLS = {"store_status", "store_hours", "holidays", "queue_status", "find_stores", "staffing_outlook"}

RSA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
EC_KEY = ec.generate_private_key(ec.SECP256R1())
FORGED_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)

checks = 0


def check(condition, message):
    global checks
    if not condition:
        print(f"FAIL: {message}", file=sys.stderr)
        sys.exit(1)
    checks += 1


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def jwks():
    rsa_jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(RSA_KEY.public_key()))
    ec_jwk = json.loads(jwt.algorithms.ECAlgorithm.to_jwk(EC_KEY.public_key()))
    rsa_jwk.update(kid="rsa-1", use="sig", alg="RS256")
    ec_jwk.update(kid="ec-1", use="sig", alg="ES256")
    return {"keys": [rsa_jwk, ec_jwk]}


class JWKSHandler(BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps(jwks()).encode()
        self.send_response(200 if self.path == "/jwks.json" else 404)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def token(kind="rsa", audience=AUDIENCE, issuer=ISSUER, expires_in=600, claims=None):
    now = int(time.time())
    payload = {"iss": issuer, "sub": "agentcore-gateway", "iat": now, "exp": now + expires_in}
    if audience is not None:
        payload["aud"] = audience
    payload.update(claims or {})
    # An access token says so (RFC 9068): an ID token of the same issuer, typ JWT, is refused.
    typ = "JWT" if kind == "id" else "at+jwt"
    if kind == "ec":
        return jwt.encode(payload, EC_KEY, algorithm="ES256", headers={"kid": "ec-1", "typ": typ})
    key = FORGED_KEY if kind == "forged" else RSA_KEY
    return jwt.encode(payload, key, algorithm="RS256", headers={"kid": "rsa-1", "typ": typ})


def http(method, url, body=None, headers=None):
    data = json.dumps(body).encode() if isinstance(body, (dict, list)) else body
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("content-type", "application/json")
    request.add_header("accept", "application/json, text/event-stream")
    for key, value in (headers or {}).items():
        request.add_header(key, value)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def rpc(method, params=None, id=1):
    message = {"jsonrpc": "2.0", "method": method}
    if id is not None:
        message["id"] = id
    if params is not None:
        message["params"] = params
    return message


async def session(url, bearer, version, body):
    """Runs `body(session, initialize_result)` in an SDK session negotiating `version`."""
    session_module.LATEST_HANDSHAKE_VERSION = version
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {bearer}"}, timeout=30) as client:
        async with streamable_http_client(url, http_client=client) as (read, write):
            async with ClientSession(read, write) as mcp_session:
                result = await mcp_session.initialize()
                return await body(mcp_session, result)


async def call(mcp_session, name, arguments):
    result = await mcp_session.call_tool(name, arguments)
    text = " ".join(getattr(block, "text", "") for block in result.content)
    return result.is_error, result.structured_content or {}, text


def transport_checks(base):
    url = f"{base}/mcp"
    status, _, body = http("GET", f"{base}/.well-known/oauth-protected-resource/mcp")
    metadata = json.loads(body)
    check(status == 200 and metadata.get("authorization_servers") == [ISSUER], f"metadata: {status} {metadata}")
    check(metadata.get("resource", "").endswith("/mcp"), f"metadata resource: {metadata}")

    init = rpc("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}})
    status, headers, _ = http("POST", url, init)
    challenge = {k.lower(): v for k, v in headers.items()}.get("www-authenticate", "")
    check(status == 401 and "resource_metadata=" in challenge, f"missing token: {status} {challenge}")
    for name, bad in [
        ("wrong static token", "not-the-token-0123456789"),
        ("expired JWT", token(expires_in=-3600)),
        ("wrong-audience JWT", token(audience="someone-else")),
        ("wrong-issuer JWT", token(issuer="https://elsewhere.test")),
        ("forged JWT", token(kind="forged")),
        ("ID token (typ JWT, no token_use, no scope)", token(kind="id")),
        ("not a JWT", "a.b.c"),
    ]:
        status, headers, body = http("POST", url, init, {"Authorization": f"Bearer {bad}"})
        challenge = {k.lower(): v for k, v in headers.items()}.get("www-authenticate", "")
        check(status == 401 and 'error="invalid_token"' in challenge, f"{name}: {status} {challenge} {body!r}")
    _, _, body = http("POST", url, init, {"Authorization": f"Bearer {token(expires_in=-3600)}"})
    check("expired" in json.loads(body)["reason"], f"expired reason: {body!r}")
    _, _, body = http("POST", url, init, {"Authorization": f"Bearer {token(audience='someone-else')}"})
    check("audience" in json.loads(body)["reason"], f"audience reason: {body!r}")

    auth = {"Authorization": f"Bearer {STATIC_TOKEN}"}
    status, _, _ = http("POST", url, init, {**auth, "Origin": "https://evil.example"})
    check(status == 403, f"foreign Origin: {status}")
    status, _, _ = http("POST", url, init, {**auth, "Origin": "http://localhost:3000"})
    check(status == 200, f"loopback Origin: {status}")
    status, headers, _ = http("GET", url, None, auth)
    check(status == 405, f"GET /mcp: {status}")
    status, _, _ = http("POST", url, rpc("ping"), {**auth, "MCP-Protocol-Version": "1999-01-01"})
    check(status == 400, f"unsupported MCP-Protocol-Version: {status}")

    for version in VERSIONS + ["2099-01-01"]:
        params = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
        status, headers, body = http("POST", url, rpc("initialize", params), auth)
        answer = json.loads(body)
        expected = version if version in VERSIONS else "2025-11-25"
        check(status == 200 and answer["result"]["protocolVersion"] == expected, f"initialize {version}: {body!r}")
        check("tools" in answer["result"]["capabilities"], f"capabilities: {body!r}")
    status, _, body = http("POST", url, rpc("notifications/initialized", id=None), auth)
    check(status == 202 and body == b"", f"notification: {status} {body!r}")
    _, _, body = http("POST", url, rpc("resources/list"), {**auth, "MCP-Protocol-Version": "2025-06-18"})
    check(json.loads(body)["error"]["code"] == -32601, f"unknown method: {body!r}")
    status, _, body = http("POST", url, b"{not json", auth)
    check(status == 400 and json.loads(body)["error"]["code"] == -32700, f"parse error: {status} {body!r}")
    _, _, body = http("POST", url, rpc("tools/call", {"name": "nope", "arguments": {}}), auth)
    check(json.loads(body)["error"]["code"] == -32602, f"unknown tool: {body!r}")
    _, _, body = http("POST", url, rpc("ping", id="p-1"), {"Authorization": f"Bearer {token(kind='ec')}"})
    check(json.loads(body) == {"jsonrpc": "2.0", "id": "p-1", "result": {}}, f"ping with an ES256 token: {body!r}")


async def sdk_checks(base):
    url = f"{base}/mcp"
    credentials = [STATIC_TOKEN, token(), token(kind="ec")]
    for version, bearer in zip(VERSIONS, credentials):
        async def listing(mcp_session, result):
            check(result.protocol_version == version, f"negotiated {result.protocol_version}, wanted {version}")
            await mcp_session.send_ping()
            tools = (await mcp_session.list_tools()).tools
            check({tool.name for tool in tools} == TOOLS, f"tools/list: {[tool.name for tool in tools]}")
            for tool in tools:
                check(tool.input_schema.get("type") == "object", f"{tool.name} input schema")

        await session(url, bearer, version, listing)

    async def tools(s, _):
        # store_status: Marine Day 2026 (Monday 20 July) at noon, and its eve.
        error, content, text = await call(s, "store_status", {"storeId": "shibuya-trattoria", "at": "2026-07-20T12:00:00+09:00"})
        check(not error and content["dayType"] == "holiday" and content["holidayNameEn"] == "Marine Day", f"store_status holiday: {content}")
        check("海の日" in text, f"store_status Japanese text: {text}")
        error, content, text = await call(s, "store_status", {"storeId": "shibuya-trattoria", "at": "2026-07-19T20:00:00+09:00", "language": "en"})
        check(not error and content["dayType"] in ("pre_holiday", "weekend"), f"store_status eve: {content}")
        check(" is " in text, f"store_status English text: {text}")
        error, content, _ = await call(s, "store_status", {"storeId": "shibuya-trattoria"})
        check(not error and isinstance(content["isOpen"], bool), f"store_status now: {content}")
        error, content, text = await call(s, "store_status", {"storeId": "no-such-store"})
        check(error and content.get("error") == "unknown_store" and "find_stores" in text, f"unknown store: {text}")
        error, content, text = await call(s, "store_status", {"storeId": "shibuya-trattoria", "at": "next tuesday"})
        check(error and content.get("error") == "bad_instant", f"bad instant: {text}")
        error, _, text = await call(s, "store_status", {})
        check(error and "storeId" in text, f"missing storeId: {text}")
        error, _, text = await call(s, "store_status", {"storeId": "shibuya-trattoria", "language": "fr"})
        check(error and "language" in text, f"bad language: {text}")

        # store_hours
        error, content, _ = await call(s, "store_hours", {"storeId": "shibuya-trattoria", "from": "2026-07-17", "to": "2026-07-23"})
        check(not error and len(content["days"]) == 7, f"store_hours: {content}")
        types = {day["date"]: day["dayType"] for day in content["days"]}
        check(types["2026-07-20"] == "holiday", f"store_hours day types: {types}")
        error, content, text = await call(s, "store_hours", {"storeId": "shibuya-trattoria", "from": "2026-01-01", "to": "2026-03-31"})
        check(error and content.get("error") == "range_too_long" and "62" in text, f"range too long: {text}")
        error, content, _ = await call(s, "store_hours", {"storeId": "shibuya-trattoria", "from": "2026-07-23", "to": "2026-07-17"})
        check(error and content.get("error") == "bad_range", f"reversed range: {content}")
        error, content, _ = await call(s, "store_hours", {"storeId": "shibuya-trattoria", "from": "July 17", "to": "2026-07-23"})
        check(error and content.get("error") == "bad_date", f"bad date: {content}")

        # holidays
        error, content, text = await call(s, "holidays", {"from": "2026-07-01", "to": "2026-09-30"})
        names = {h["date"]: (h["name_ja"], h["name_en"]) for h in content.get("holidays", [])}
        check(not error and names.get("2026-07-20") == ("海の日", "Marine Day"), f"holidays: {names}")
        check("海の日" in text, f"holidays text: {text}")
        error, _, text = await call(s, "holidays", {"from": "2026-07-01", "to": "2026-09-30", "language": "en"})
        check("Marine Day" in text, f"holidays English text: {text}")
        error, content, _ = await call(s, "holidays", {"from": "2026-01-01", "to": "2026-12-31", "calendar": "mars"})
        check(error and content.get("error") == "unknown_calendar", f"unknown calendar: {content}")
        error, content, _ = await call(s, "holidays", {"from": "2026-01-01", "to": "2028-01-01"})
        check(error and content.get("error") == "range_too_long", f"holidays range: {content}")

        # find_stores
        error, content, _ = await call(s, "find_stores", {"query": "the Shibuya trattoria"})
        check(not error and content["stores"] and content["stores"][0]["storeId"] == "shibuya-trattoria", f"find_stores: {content}")
        error, content, _ = await call(s, "find_stores", {"query": "新宿"})
        check(not error and any(store["storeId"] == "shinjuku-izakaya" for store in content["stores"]), f"find_stores ja: {content}")
        error, content, _ = await call(s, "find_stores", {"query": "zzzzqqq"})
        check(not error and content["stores"] == [], f"find_stores no match: {content}")
        error, _, text = await call(s, "find_stores", {"query": 42})
        check(error and "query" in text, f"find_stores bad query: {text}")

        # queue_status: the simulator's queues appear on the floor within a minute.
        queues = []
        for _ in range(90):
            error, content, _ = await call(s, "queue_status", {})
            check(not error, f"queue_status: {content}")
            queues = content["queues"]
            if queues:
                break
            await asyncio.sleep(1)
        check(queues, "queue_status: no queue on the floor after 90 s of simulated traffic")
        first = queues[0]
        for key in ("waiting", "agentsAvailable", "expectedWaitSeconds"):
            check(isinstance(first[key], int), f"queue_status {key}: {first}")
        # Staffed by routing profile: every staffed agent adds up to 1 across its queues, while
        # agentsAvailable and agentsOnContact count such an agent in each of its queues.
        staffed = [queue.get("agentsStaffed") for queue in queues]
        check(all(isinstance(value, (int, float)) and value >= 0 for value in staffed),
              f"queue_status agentsStaffed: {staffed}")
        check(sum(staffed) <= sum(queue["agentsAvailable"] + queue["agentsOnContact"] for queue in queues) + 1e-9,
              f"queue_status agentsStaffed sum: {staffed}")
        error, content, text = await call(s, "queue_status", {"queue": first["name"], "language": "en"})
        check(not error and len(content["queues"]) == 1 and "waiting" in text, f"queue_status one: {content}")
        error, content, text = await call(s, "queue_status", {"queue": "no-such-queue"})
        check(error and content.get("error") == "unknown_queue", f"unknown queue: {text}")

    await session(url, STATIC_TOKEN, "2025-11-25", tools)


def intraday(base, queue):
    """GET /v1/staffing/intraday for one queue (dev's console is open on loopback)."""
    status, _, body = http("GET", f"{base}/v1/staffing/intraday?queue={urllib.parse.quote(queue, safe='')}")
    check(status == 200, f"GET /v1/staffing/intraday?queue={queue}: {status} {body[:300]!r}")
    answer = json.loads(body)
    check(len(answer["queues"]) == 1, f"intraday for {queue}: {len(answer['queues'])} queues")
    return answer


def outlook_disagreements(tool, before, after):
    """Where the tool's queue lies outside what the endpoint said just before and just after it
    (the floor moves between calls: a figure must lie between the two answers)."""
    problems = []
    endpoint = [before["queues"][0], after["queues"][0]]
    slots = [{slot["start"]: slot for slot in answer["slots"]} for answer in endpoint]

    def between(name, mine, theirs, tolerance):
        known = [value for value in theirs if value is not None]
        if mine is None or not known:
            if mine is not None or len(known) == len(theirs):
                problems.append(f"{name}: tool {mine}, endpoint {theirs}")
            return
        if not min(known) - tolerance <= mine <= max(known) + tolerance:
            problems.append(f"{name}: tool {mine}, endpoint {theirs}")

    if tool["missesTargetNextHour"] not in [queue["misses_target_next_hour"] for queue in endpoint]:
        problems.append(f"missesTargetNextHour {tool['missesTargetNextHour']}: endpoint {[q['misses_target_next_hour'] for q in endpoint]}")
    between("shortfallNextHour", tool["shortfallNextHour"], [q["shortfall_next_hour"] for q in endpoint], 1e-4)
    for slot in tool["slots"]:
        theirs = [answer.get(slot["start"]) for answer in slots]
        if all(other is None for other in theirs):
            problems.append(f"slot {slot['start']}: not in the endpoint's answers")
            continue
        theirs = [other for other in theirs if other is not None]
        for mine, key, tolerance in [
            ("planContacts", "plan_offered", 1e-4), ("reforecastContacts", "reforecast_offered", 1e-4),
            ("agentsNeeded", "agents_needed", 0), ("staffed", "staffed", 1e-4),
            ("serviceLevel", "service_level", 1e-4),
        ]:
            between(f"{slot['start']} {mine}", slot[mine], [other[key] for other in theirs], tolerance)
    return problems


async def staffing_checks(base):
    """staffing_outlook: its shape, its refusals, and its figures against GET
    /v1/staffing/intraday for the same queue, called just before and just after it."""

    async def outlook(s, _):
        # main() seeded a week of history: every queue has a plan for today. Twelve hours from
        # any time of day reach some store's opening hours.
        error, content, text = True, {}, ""
        for _ in range(30):
            error, content, text = await call(s, "staffing_outlook", {"hours": 12})
            if not error and any(queue["slots"] for queue in content.get("queues", [])):
                break
            await asyncio.sleep(2)
        check(not error and any(queue["slots"] for queue in content.get("queues", [])),
              f"staffing_outlook: no queue with slots in 12 hours: {text[:300]}")
        error, content, text = await call(s, "staffing_outlook", {"hours": 2, "language": "en"})
        check(not error and content.get("queues"), f"staffing_outlook, 2 hours: {text[:300]}")
        check(re.fullmatch(r"\d{4}-\d\d-\d\d", content["date"]) and re.fullmatch(r"\d\d:\d\d", content["at"]),
              f"staffing_outlook date and at: {content['date']} {content['at']}")
        check(content["hours"] == 2 and content["target"] == {"serviceLevel": 0.8, "thresholdSeconds": 20},
              f"staffing_outlook hours and target: {content['hours']} {content['target']}")
        check(content["staffedFrom"] == "floor", f"staffing_outlook staffed from: {content['staffedFrom']}")
        for queue in content["queues"]:
            name = queue["name"]
            check(isinstance(queue["queueId"], str) and name in text, f"staffing_outlook queue {name}: {text[:200]}")
            check(isinstance(queue["missesTargetNextHour"], bool), f"{name} missesTargetNextHour")
            check(len(queue["slots"]) <= 9, f"{name}: {len(queue['slots'])} slots in 2 hours")
            # The shortfall is the largest gap (needed − staffed) among the slots that start
            # within the hour from `at` (`at` is rounded down to the minute: a slot starting
            # exactly an hour later may count or not).
            at = minutes(content["at"])
            sure, maybe = [], []
            for slot in queue["slots"]:
                check(re.fullmatch(r"\d\d:\d\d", slot["start"]) and slot["state"] in ("current", "future"),
                      f"{name} slot {slot}")
                check(slot["reforecastContacts"] >= 0 and slot["planContacts"] >= 0, f"{name} slot contacts {slot}")
                check(slot["agentsNeeded"] is None or isinstance(slot["agentsNeeded"], int), f"{name} agentsNeeded {slot}")
                check(slot["serviceLevel"] is None or 0 <= slot["serviceLevel"] <= 1, f"{name} serviceLevel {slot}")
                if slot["agentsNeeded"] is not None and slot["staffed"] is not None:
                    gap = slot["agentsNeeded"] - slot["staffed"]
                    if minutes(slot["start"]) < at + 60:
                        sure.append(gap)
                    if minutes(slot["start"]) <= at + 60:
                        maybe.append(gap)
            shortfall = queue["shortfallNextHour"]
            if shortfall is None:
                check(not sure, f"{name}: no shortfall, but gaps {sure}")
            else:
                check(maybe and max(sure or maybe) - 1e-3 <= shortfall <= max(maybe) + 1e-3,
                      f"{name} shortfall {shortfall}, gaps {sure} {maybe}")

        error, content, text = await call(s, "staffing_outlook", {"hours": 13})
        check(error and content.get("error") == "invalid_argument" and "hours" in text, f"hours 13: {text}")
        error, content, text = await call(s, "staffing_outlook", {"queue": "no-such-queue"})
        check(error and content.get("error") == "unknown_queue", f"unknown queue: {text}")

        # The endpoint's numbers: the busiest queue, bracketed by two GETs (the floor moves).
        queues = sorted(content_queues(await call(s, "staffing_outlook", {"hours": 12})),
                        key=lambda queue: (-sum(slot["reforecastContacts"] for slot in queue["slots"]),
                                           -len(queue["slots"])))
        queue = queues[0]["queueId"]
        check(queues[0]["slots"], f"staffing_outlook: no slot to compare in {queues[0]}")
        problems = []
        for attempt in range(1, 6):
            before = intraday(base, queue)
            error, content, text = await call(s, "staffing_outlook", {"queue": queue, "hours": 12})
            after = intraday(base, queue)
            check(not error and len(content["queues"]) == 1, f"staffing_outlook for {queue}: {text[:300]}")
            check(content["date"] in (before["date"], after["date"]), f"dates: {content['date']} {before['date']}")
            problems = outlook_disagreements(content["queues"][0], before, after)
            if not problems:
                print(f"mcp-test: staffing_outlook agrees with GET /v1/staffing/intraday on {queue}: "
                      f"{len(content['queues'][0]['slots'])} slots, attempt {attempt}")
                break
            await asyncio.sleep(1)
        check(not problems, f"staffing_outlook and GET /v1/staffing/intraday disagree on {queue}: {problems}")

    await session(f"{base}/mcp", STATIC_TOKEN, "2025-11-25", outlook)


def minutes(clock):
    """Minutes of an HH:MM clock (past 24:00 for the night)."""
    hours, rest = clock.split(":")
    return int(hours) * 60 + int(rest)


def shortfall_metrics_checks(base):
    """/metrics carries switchboard_staffing_shortfall_agents{queue} for every queue of GET
    /v1/staffing/intraday, each a finite number no larger than the most agents the endpoint says
    the queue needs in any slot (needed minus staffed, staffed never negative). The exact figure
    is not compared here: the gauges are set once a minute from the floor of that instant, and at
    60x the floor's fractional staffed figures move between any two reads (a gauge of 1.97 against
    endpoint reads of 0.95-1.95 a few seconds apart). StaffingShortfallGaugesTests compares the
    exact figures over a fixed outlook."""
    status, _, body = http("GET", f"{base}/v1/staffing/intraday")
    check(status == 200, f"GET /v1/staffing/intraday: {status} {body[:200]!r}")
    queues = json.loads(body)["queues"]
    check(queues, "GET /v1/staffing/intraday: no queue")
    needed = {queue["queue_name"]: max([slot["agents_needed"] or 0 for slot in queue["slots"]] + [0])
              for queue in queues}
    deadline = time.monotonic() + 90
    while True:
        status, _, body = http("GET", f"{base}/metrics")
        check(status == 200, f"/metrics: {status}")
        gauges = {name: float(value) for name, value in re.findall(
            r'^switchboard_staffing_shortfall_agents\{queue="([^"]*)"\} (\S+)$', body.decode(), re.MULTILINE)}
        if set(needed) <= set(gauges) or time.monotonic() > deadline:
            break
        time.sleep(5)
    problems = []
    for name in sorted(needed):
        value = gauges.get(name)
        if value is None or not math.isfinite(value) or value > needed[name] + 1e-3:
            problems.append(f"{name}: /metrics {value}, at most {needed[name]} needed")
    check(not problems, f"switchboard_staffing_shortfall_agents against GET /v1/staffing/intraday: {problems}")
    print(f"mcp-test: switchboard_staffing_shortfall_agents for all {len(needed)} queues, within what they need")


def content_queues(result):
    error, content, text = result
    check(not error and content.get("queues"), f"staffing_outlook: {text[:300]}")
    return content["queues"]


async def agreement_checks(base, binary, flows):
    """store_status and `switchboard flows eval` agree for every store at instants across Marine
    Day 2026, its eve, and overnight."""
    instants = [
        "2026-07-19T12:00:00+09:00", "2026-07-19T23:30:00+09:00", "2026-07-20T01:30:00+09:00",
        "2026-07-20T12:00:00+09:00", "2026-07-20T22:30:00+09:00", "2026-07-21T02:00:00+09:00",
    ]
    listing = subprocess.run([binary, "flows", "check", flows], capture_output=True, text=True)
    check(listing.returncode == 0, f"flows check: {listing.stderr}")

    async def compare(s, _):
        with open(os.path.join(flows, "stores.yaml"), encoding="utf-8") as file:
            stores = re.findall(r"^  - id: (\S+)$", file.read(), re.MULTILINE)
        check(len(stores) >= 5, f"stores to compare: {stores}")
        for store in stores:
            for at in instants:
                evaluated = subprocess.run(
                    [binary, "flows", "eval", "--store", store, "--at", at, "--dir", flows, "--json"],
                    capture_output=True, text=True)
                check(evaluated.returncode == 0, f"flows eval {store} {at}: {evaluated.stderr}")
                hook = json.loads(evaluated.stdout)
                error, status, _ = await call(s, "store_status", {"storeId": store, "at": at})
                check(not error, f"store_status {store} {at}")
                for mine, theirs in [("dayType", "dayType"), ("closesAt", "closesAt"), ("nextOpenAt", "nextOpenAt")]:
                    check((status.get(mine) or "") == hook[theirs], f"{store} {at} {mine}: {status.get(mine)} != {hook[theirs]}")
                check(status["isOpen"] == (hook["result"] == "open"), f"{store} {at} open: {status} vs {hook}")

    await session(f"{base}/mcp", STATIC_TOKEN, "2025-11-25", compare)


def main():
    binary = os.environ.get("SWITCHBOARD_BINARY") or os.path.join(
        subprocess.check_output(["swift", "build", "--show-bin-path"], cwd=ROOT, text=True).strip(), "switchboard")
    flows = os.path.join(ROOT, "flows")
    jwks_server = ThreadingHTTPServer(("127.0.0.1", 0), JWKSHandler)
    threading.Thread(target=jwks_server.serve_forever, daemon=True).start()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ)
    env.update({
        "SWITCHBOARD_HTTP_PORT": str(port),
        "SWITCHBOARD_FLOWS_DIR": flows,
        "SWITCHBOARD_MCP_TOKENS": STATIC_TOKEN,
        "SWITCHBOARD_MCP_OAUTH_ISSUER": ISSUER,
        "SWITCHBOARD_MCP_OAUTH_AUDIENCE": AUDIENCE,
        "SWITCHBOARD_MCP_OAUTH_JWKS_URL": f"http://127.0.0.1:{jwks_server.server_port}/jwks.json",
        "SWITCHBOARD_SIMULATOR": "on",
        "SWITCHBOARD_SIMULATOR_SPEED": "60",
        "SWITCHBOARD_SIMULATOR_START": "2026-11-20T11:30:00+09:00",
    })
    # A week of simulated history before dev starts (dev seeds an empty database itself, but eight
    # weeks take minutes, and its planner reads the history at most every 5 minutes): the
    # reforecast behind staffing_outlook has a plan for every queue from the first request.
    for command in (["migrate"], ["staffing", "seed", "--days", "7"]):
        done = subprocess.run([binary, *command], env=env, capture_output=True, text=True)
        check(done.returncode == 0, f"switchboard {' '.join(command)}: {done.stderr[-2000:]}")
    log = tempfile.NamedTemporaryFile(prefix="switchboard-mcp-", suffix=".log", delete=False)
    server = subprocess.Popen([binary, "dev"], env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.time() + 300
        while True:
            check(server.poll() is None, f"switchboard dev exited; see {log.name}")
            try:
                with urllib.request.urlopen(f"{base}/ready", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            check(time.time() < deadline, f"/ready not 200 within 300 s; see {log.name}")
            time.sleep(1)
        transport_checks(base)
        asyncio.run(sdk_checks(base))
        asyncio.run(staffing_checks(base))
        shortfall_metrics_checks(base)
        asyncio.run(agreement_checks(base, binary, flows))
    except BaseException:
        # The server's side of a failure (a crash, a signal from outside the test).
        with open(log.name, encoding="utf-8", errors="replace") as file:
            print("".join(file.readlines()[-40:]), file=sys.stderr)
        raise
    finally:
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        jwks_server.shutdown()
        jwks_server.server_close()
        log.close()
    print(f"mcp-test: {checks} checks passed")
    os.unlink(log.name)


if __name__ == "__main__":
    main()
