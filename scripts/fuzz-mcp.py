"""Fuzzes every tool of an MCP endpoint with arguments generated from the tool's own declared
input schema (hypothesis-jsonschema), and with arguments that break it (wrong types, unknown
members, huge and odd strings, numbers out of range):

    python3 scripts/fuzz-mcp.py --url http://127.0.0.1:8080/mcp --token T [--seconds 60] [--examples 150] [--seed N]

schemathesis drives HTTP operations, not JSON-RPC tools, hence this harness. Each call must be
answered 200 with a JSON-RPC response of the same id: a result (an `isError` one for a refused
argument) or a JSON-RPC error. A 5xx, a dropped connection, a timeout (10 s) or a malformed
answer is a failure; so is a result whose structuredContent does not match the tool's
outputSchema, where it declares one. Exits non-zero on the first failure, naming the tool and
the arguments.
"""

import argparse
import json
import random
import sys
import time
import urllib.error
import urllib.request

import jsonschema
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis_jsonschema import from_schema

ODD_VALUES = [None, True, -1, 0, 2**63, -(2**63) - 1, 1e308, -1e-308, "", "x" * 70000, "\u0000", "🍜" * 1000,
              "9999-99-99", "2026-02-30", "../../etc/passwd", "' OR 1=1 --", [], [1, 2], {}, {"a": {"b": {}}}]


class Failure(Exception):
    pass


def post(url, token, message, timeout=10):
    request = urllib.request.Request(url, data=json.dumps(message).encode(), method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.read()


class Fuzzer:
    def __init__(self, url, token):
        self.url, self.token, self.calls, self.next_id = url, token, 0, 1
        status, body = post(url, token, {"jsonrpc": "2.0", "id": 0, "method": "tools/list"})
        if status != 200:
            raise Failure(f"tools/list answered {status}: {body[:300]!r}")
        self.tools = json.loads(body)["result"]["tools"]

    def call(self, tool, arguments):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call",
                   "params": {"name": tool["name"], "arguments": arguments}}
        shown = json.dumps(arguments, ensure_ascii=False)[:400]
        try:
            status, body = post(self.url, self.token, message)
        except Exception as error:  # noqa: BLE001 - any transport failure is a finding
            raise Failure(f"{tool['name']} {shown}: no answer ({error})") from error
        self.calls += 1
        if status == 429:
            return  # the caller's budget: a refusal, not a fault
        if status != 200:
            raise Failure(f"{tool['name']} {shown}: HTTP {status} {body[:300]!r}")
        try:
            answer = json.loads(body)
        except ValueError as error:
            raise Failure(f"{tool['name']} {shown}: not JSON: {body[:300]!r}") from error
        if answer.get("id") != self.next_id or answer.get("jsonrpc") != "2.0":
            raise Failure(f"{tool['name']} {shown}: not the JSON-RPC response of this call: {body[:300]!r}")
        if "error" in answer:
            if not isinstance(answer["error"].get("code"), int):
                raise Failure(f"{tool['name']} {shown}: a JSON-RPC error without a code: {answer}")
            return
        result = answer.get("result")
        if not isinstance(result, dict) or not isinstance(result.get("content"), list):
            raise Failure(f"{tool['name']} {shown}: a result without content: {body[:300]!r}")
        schema = tool.get("outputSchema")
        if schema and not result.get("isError") and "structuredContent" in result:
            try:
                jsonschema.validate(result["structuredContent"], schema)
            except jsonschema.ValidationError as error:
                raise Failure(f"{tool['name']} {shown}: structuredContent does not match outputSchema: "
                              f"{error.message}") from error


def broken(schema, rng):
    """Arguments that the schema refuses: a member of the wrong type, an unknown one, or none."""
    properties = list((schema.get("properties") or {}).keys())
    arguments = {}
    for name in properties:
        if rng.random() < 0.6:
            arguments[name] = rng.choice(ODD_VALUES)
    if rng.random() < 0.3:
        arguments["unknown-" + str(rng.randrange(100))] = rng.choice(ODD_VALUES)
    return rng.choice([arguments, arguments, None, [], "text", 7]) if rng.random() < 0.2 else arguments


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--examples", type=int, default=150, help="schema-generated calls per tool at most")
    options = parser.parse_args()
    fuzzer = Fuzzer(options.url, options.token)
    rng = random.Random(options.seed)
    share = options.seconds / max(1, len(fuzzer.tools))
    try:
        for tool in fuzzer.tools:
            schema = tool["inputSchema"]
            deadline = time.monotonic() + share / 2

            @settings(max_examples=options.examples, deadline=None, database=None, derandomize=True,
                      suppress_health_check=list(HealthCheck))
            @given(from_schema(schema))
            def valid(arguments):
                if time.monotonic() < deadline:
                    fuzzer.call(tool, arguments)

            valid()
            end = time.monotonic() + share / 2
            while time.monotonic() < end:
                fuzzer.call(tool, broken(schema, rng))
            print(f"fuzz-mcp: {tool['name']}: schema-generated and broken arguments answered", flush=True)
    except Failure as failure:
        print(f"fuzz-mcp: FAIL {failure}", file=sys.stderr)
        return 1
    print(f"fuzz-mcp: {fuzzer.calls} calls over {len(fuzzer.tools)} tools, every one answered well")
    return 0


if __name__ == "__main__":
    sys.exit(main())
