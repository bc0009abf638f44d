"""Switchboard's hook forwarder: the AWS Lambda function an Amazon Connect flow invokes.

An Amazon Connect flow reaches outside logic only through its "AWS Lambda function" block; this
function passes the flow's event, unchanged, to Switchboard's IVR hook (`POST /v1/hooks/{flow}`)
and returns the hook's flat string map, which the flow reads as `$.External.<key>`.

When the hook is slow, down or refuses the call, it answers a safe fallback map within its
budget instead of failing (Connect would otherwise take the block's Error branch after its
timeout, with the caller hearing silence):

    {"result": "error", "error": "hook_unreachable" | "hook_refused", "errorMessage": "..."}

so the flow can branch on `$.External.result`. Standard library only: no packaging step.

Every fallback is logged as one JSON line in CloudWatch Embedded Metric Format: CloudWatch Logs
turns it into the metric Switchboard/HookForwarder FallbackAnswers (dimensions FunctionName, and
FunctionName + Reason), which the stack's HookForwarderFallbackAlarm watches; the same line
carries the reason, the message and the call's ContactId for the logs. A hook outage seen from
Connect is therefore counted, not silent.

Environment:
  SWITCHBOARD_HOOK_URL          base URL of the hook, e.g. https://switchboard.example.com (required)
  SWITCHBOARD_HOOK_FLOW         the flow evaluated when the block passes no `flow` parameter (main)
  SWITCHBOARD_HOOK_TOKEN        bearer token (SWITCHBOARD_HOOK_TOKENS on the server), or
  SWITCHBOARD_HOOK_HMAC_SECRET  shared secret for X-Switchboard-Signature (takes precedence)
  SWITCHBOARD_HOOK_BUDGET_MS    the most time spent on the hook (2500; keep it under the
                                block's timeout, 3 s by default and 8 s at most)
"""

import concurrent.futures
import hashlib
import hmac
import json
import os
import socket
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

DEFAULT_BUDGET_MS = 2500
# Time kept back from the Lambda's own deadline to build and return the fallback.
SAFETY_MS = 250


class FallbackAnswer(dict):
    """A fallback map (a plain dict to Connect): marks the answers the forwarder made up."""


def fallback(code, message):
    """The map the flow receives when the hook cannot answer."""
    return FallbackAnswer(result="error", error=code, errorMessage=message[:500])


def flat_strings(answer):
    """Connect accepts only a flat map of strings: keep strings, render scalars, drop the rest."""
    flat = {}
    for key, value in answer.items():
        if isinstance(value, str):
            flat[key] = value
        elif isinstance(value, bool):
            flat[key] = "true" if value else "false"
        elif isinstance(value, (int, float)):
            flat[key] = str(value)
    return flat


def budget_seconds(context, environ):
    budget = int(environ.get("SWITCHBOARD_HOOK_BUDGET_MS", DEFAULT_BUDGET_MS))
    if context is not None and hasattr(context, "get_remaining_time_in_millis"):
        budget = min(budget, context.get_remaining_time_in_millis() - SAFETY_MS)
    return max(budget, 100) / 1000.0


def request_for(event, environ, now=time.time):
    """The HTTP request to the hook for `event` (the body is the event as Connect sent it)."""
    base = environ["SWITCHBOARD_HOOK_URL"].rstrip("/")
    parameters = ((event or {}).get("Details") or {}).get("Parameters") or {}
    flow = parameters.get("flow") or environ.get("SWITCHBOARD_HOOK_FLOW", "main")
    url = base + "/v1/hooks/" + urllib.parse.quote(flow, safe="")
    body = json.dumps(event, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    secret = environ.get("SWITCHBOARD_HOOK_HMAC_SECRET")
    token = environ.get("SWITCHBOARD_HOOK_TOKEN")
    if secret:
        timestamp = str(int(now()))
        digest = hmac.new(secret.encode("utf-8"), timestamp.encode("ascii") + b"." + body, hashlib.sha256)
        headers["X-Switchboard-Timestamp"] = timestamp
        headers["X-Switchboard-Signature"] = "sha256=" + digest.hexdigest()
    elif token:
        headers["Authorization"] = "Bearer " + token
    return urllib.request.Request(url, data=body, headers=headers, method="POST")


def call_hook(request, timeout):
    """Sends `request`; the decoded JSON answer (raises what urllib raises)."""
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read(64 * 1024).decode("utf-8"))


# One worker, reused across invocations of a warm Lambda; the call runs there so the whole
# exchange (connect, send, wait, read) is bounded by the budget, not each socket operation.
_executor = concurrent.futures.ThreadPoolExecutor(max_workers=4)


METRIC_NAMESPACE = "Switchboard/HookForwarder"
METRIC_NAME = "FallbackAnswers"


def fallback_record(answer, event, environ, now=time.time):
    """The Embedded Metric Format line that logs and counts one fallback answer."""
    contact = ((event or {}).get("Details") or {}).get("ContactData") or {}
    function = environ.get("AWS_LAMBDA_FUNCTION_NAME", "hook-forwarder")
    return {
        "_aws": {
            "Timestamp": int(now() * 1000),
            "CloudWatchMetrics": [{
                "Namespace": METRIC_NAMESPACE,
                "Dimensions": [["FunctionName"], ["FunctionName", "Reason"]],
                "Metrics": [{"Name": METRIC_NAME, "Unit": "Count"}],
            }],
        },
        "FunctionName": function,
        "Reason": answer.get("error", "unknown"),
        METRIC_NAME: 1,
        "level": "warning",
        "message": "hook fallback answered: %s" % answer.get("errorMessage", ""),
        "contactId": contact.get("ContactId", ""),
    }


def log_fallback(answer, event, environ, stream=None):
    """Writes the fallback's EMF line to stdout (the Lambda's CloudWatch log); never raises."""
    try:
        line = json.dumps(fallback_record(answer, event, environ), separators=(",", ":"))
        print(line, file=stream or sys.stdout, flush=True)
    except Exception:  # noqa: BLE001 - logging must never change the answer
        pass


def lambda_handler(event, context, environ=None):
    """The Lambda entry point (handler: handler.lambda_handler)."""
    environ = os.environ if environ is None else environ
    answer = answer_for(event, context, environ)
    if isinstance(answer, FallbackAnswer):
        log_fallback(answer, event, environ)
        return dict(answer)
    return answer


def answer_for(event, context, environ):
    """The hook's flat answer for `event`, or the fallback map."""
    if not environ.get("SWITCHBOARD_HOOK_URL"):
        return fallback("hook_unreachable", "SWITCHBOARD_HOOK_URL is not set")
    timeout = budget_seconds(context, environ)
    try:
        future = _executor.submit(call_hook, request_for(event, environ), timeout)
        answer = future.result(timeout=timeout)
        if not isinstance(answer, dict):
            return fallback("hook_refused", "the hook's answer is not a JSON object")
        return flat_strings(answer)
    except concurrent.futures.TimeoutError:
        return fallback("hook_unreachable", "no answer within %d ms" % int(timeout * 1000))
    except urllib.error.HTTPError as error:
        reason = error.read(2048).decode("utf-8", "replace")
        code = "hook_refused" if 400 <= error.code < 500 else "hook_unreachable"
        return fallback(code, "HTTP %d: %s" % (error.code, reason))
    except (urllib.error.URLError, socket.timeout, TimeoutError, ConnectionError, OSError) as error:
        return fallback("hook_unreachable", str(getattr(error, "reason", error)))
    except (ValueError, UnicodeDecodeError) as error:
        return fallback("hook_refused", "unreadable answer: %s" % error)
