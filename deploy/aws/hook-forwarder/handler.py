"""Switchboard's hook forwarder: the AWS Lambda function an Amazon Connect flow invokes.

An Amazon Connect flow reaches outside logic only through its "AWS Lambda function" block; this
function passes the flow's event, unchanged, to Switchboard's IVR hook (`POST /v1/hooks/{flow}`)
and returns the hook's flat string map, which the flow reads as `$.External.<key>`.

When the hook is slow, down or refuses the call, it answers a safe fallback map within its
budget instead of failing (Connect would otherwise take the block's Error branch after its
timeout, with the caller hearing silence):

    {"result": "error", "error": "hook_unreachable" | "hook_refused" | "credential_unavailable",
     "errorMessage": "..."}

so the flow can branch on `$.External.result`. Standard library only, plus boto3 (which the Lambda
runtime provides) when the credential comes from Secrets Manager: no packaging step.

Every fallback is logged as one JSON line in CloudWatch Embedded Metric Format: CloudWatch Logs
turns it into the metric Switchboard/HookForwarder FallbackAnswers (dimensions FunctionName, and
FunctionName + Reason), which the stack's HookForwarderFallbackAlarm watches; the same line
carries the reason, the message and the call's ContactId for the logs. A hook outage seen from
Connect is therefore counted, not silent.

The credential. In AWS it lives in a Secrets Manager secret, a JSON object {"token": "..."} or
{"hmacSecret": "..."}: the function reads it once when its execution environment initialises
(at import, outside the handler, so no call's budget pays for it) and keeps it. When the hook
answers 401 the function reads the secret again (once per call) and, if the value changed (a
rotation), sends the call once more with the new value; a second 401 is the fallback
`hook_refused`. Without a secret ARN the credential comes from plain environment variables (local
runs and tests). No log line, fallback message or exception text carries a credential's value.

The signature (HMAC mode), checked by the hook:

    X-Switchboard-Timestamp: <Unix seconds>
    X-Switchboard-Signature: v2=<lowercase hex of HMAC-SHA256(secret, message)>
    message = timestamp + "\n" + METHOD + "\n" + target + "\n" + body

where METHOD is `POST` and `target` is the request target exactly as the request line carries it
(path, and `?` and the query when there is one, percent-encoded as sent). The URL is built once;
the request and the signed target both come from it.

Environment:
  SWITCHBOARD_HOOK_URL          base URL of the hook, e.g. https://switchboard.example.com (required);
                                a query in it (https://host?x=y) is sent, and signed, with every call
  SWITCHBOARD_HOOK_FLOW         the flow evaluated when the block passes no `flow` parameter (main)
  SWITCHBOARD_HOOK_CREDENTIAL_SECRET_ARN
                                the Secrets Manager secret holding the credential (AWS); with it:
  SWITCHBOARD_HOOK_CREDENTIAL_KIND
                                the secret's key to use: token (bearer token, one of the server's
                                SWITCHBOARD_HOOK_TOKENS) or hmacSecret (SWITCHBOARD_HOOK_HMAC_SECRET)
  SWITCHBOARD_HOOK_TOKEN        without a secret ARN: the bearer token, or
  SWITCHBOARD_HOOK_HMAC_SECRET  without a secret ARN: the HMAC secret (takes precedence)
  SWITCHBOARD_HOOK_BUDGET_MS    the most time spent on the hook (2500; keep it under the
                                block's timeout, 3 s by default and 8 s at most)
"""

import concurrent.futures
import hashlib
import hmac
import http.client
import json
import os
import socket
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

DEFAULT_BUDGET_MS = 2500
# Time kept back from the Lambda's own deadline to build and return the fallback.
SAFETY_MS = 250

SECRET_ARN_VARIABLE = "SWITCHBOARD_HOOK_CREDENTIAL_SECRET_ARN"
KIND_VARIABLE = "SWITCHBOARD_HOOK_CREDENTIAL_KIND"
TOKEN = "token"
HMAC_SECRET = "hmacSecret"
KINDS = (TOKEN, HMAC_SECRET)

TIMESTAMP_HEADER = "X-Switchboard-Timestamp"
SIGNATURE_HEADER = "X-Switchboard-Signature"


class FallbackAnswer(dict):
    """A fallback map (a plain dict to Connect): marks the answers the forwarder made up."""


MESSAGE_LIMIT = 500


def fallback(code, message):
    """The map the flow receives when the hook cannot answer (lambda_handler scrubs the message of
    credentials, then cuts it to MESSAGE_LIMIT characters: in that order, so no part of one stays)."""
    return FallbackAnswer(result="error", error=code, errorMessage=message)


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


def log_line(level, message, stream=None):
    """One JSON log line (CloudWatch Logs); never raises. Callers pass scrubbed messages."""
    try:
        print(json.dumps({"level": level, "message": message}, separators=(",", ":")),
              file=stream or sys.stdout, flush=True)
    except Exception:  # noqa: BLE001 - logging must never change the answer
        pass


# ------------------------------------------------------------------------------ the credential
class CredentialError(Exception):
    """The credential cannot be had; the message never holds a credential's value."""


class Credential:
    """A credential: its kind (token or hmacSecret) and value. Its repr hides the value."""

    __slots__ = ("kind", "value")

    def __init__(self, kind, value):
        self.kind = kind
        self.value = value

    def same_as(self, other):
        return other is not None and self.kind == other.kind and hmac.compare_digest(
            self.value.encode("utf-8"), other.value.encode("utf-8"))

    def __repr__(self):
        return "Credential(kind=%r, value=<%d characters, hidden>)" % (self.kind, len(self.value))

    __str__ = __repr__


def checked_credential(kind, value, origin):
    """A Credential from `value`, or CredentialError naming `origin` (never the value)."""
    if kind not in KINDS:
        raise CredentialError("%s must be %s or %s" % (KIND_VARIABLE, TOKEN, HMAC_SECRET))
    if not isinstance(value, str) or not value:
        raise CredentialError("%s: %s is missing or not a non-empty string" % (origin, kind))
    if kind == TOKEN and any(not ("!" <= c <= "~") for c in value):
        # It goes into a header: a newline or a space (an `echo` in the secret) would be refused
        # by http.client with the header's value in the message, or split the header.
        raise CredentialError("%s: %s holds whitespace, control or non-ASCII characters" % (origin, kind))
    return Credential(kind, value)


def secrets_manager_client():
    """The Secrets Manager client of the Lambda runtime's boto3 (imported only when used)."""
    import boto3  # noqa: PLC0415 - in the Lambda runtime; not needed for local runs without an ARN
    from botocore.config import Config  # noqa: PLC0415
    return boto3.client("secretsmanager", config=Config(
        connect_timeout=2, read_timeout=2, retries={"max_attempts": 2, "mode": "standard"}))


class CredentialSource:
    """Where the hook's credential comes from, and its cached value.

    With SWITCHBOARD_HOOK_CREDENTIAL_SECRET_ARN the value is the secret's JSON key
    SWITCHBOARD_HOOK_CREDENTIAL_KIND (token | hmacSecret), read by `load()` (at initialisation)
    and again by `refresh()` (after a 401). Otherwise SWITCHBOARD_HOOK_HMAC_SECRET, else
    SWITCHBOARD_HOOK_TOKEN, else no credential; `refresh()` then has nothing to re-read.
    `client` replaces the Secrets Manager client (tests); it needs `get_secret_value(SecretId=)`.
    """

    def __init__(self, environ, client=None):
        self.arn = environ.get(SECRET_ARN_VARIABLE) or None
        self.kind = environ.get(KIND_VARIABLE) or TOKEN
        self._environ = environ
        self._client = client
        self._lock = threading.Lock()
        self._credential = None
        self._known = []  # every value seen, for scrub()
        self.reads = 0
        if self.arn is None:
            secret = environ.get("SWITCHBOARD_HOOK_HMAC_SECRET")
            token = environ.get("SWITCHBOARD_HOOK_TOKEN")
            if secret:
                self._remember(Credential(HMAC_SECRET, secret))
            elif token:
                self._remember(Credential(TOKEN, token))

    @property
    def from_secrets_manager(self):
        return self.arn is not None

    def _remember(self, credential):
        self._credential = credential
        if credential.value not in self._known:
            self._known.append(credential.value)

    def _read(self):
        """Reads the secret once (GetSecretValue); the Credential, or CredentialError."""
        self.reads += 1
        origin = "secret %s" % self.arn
        try:
            if self._client is None:
                self._client = secrets_manager_client()
            response = self._client.get_secret_value(SecretId=self.arn)
        except Exception as error:  # noqa: BLE001 - botocore's errors, ImportError, ...
            raise CredentialError(self.scrub("GetSecretValue of %s failed: %s: %s"
                                             % (self.arn, type(error).__name__, error))) from None
        text = (response or {}).get("SecretString")
        if not isinstance(text, str):
            raise CredentialError("%s has no SecretString (a JSON object {\"%s\": \"...\"} is expected)"
                                  % (origin, self.kind))
        try:
            document = json.loads(text)
        except ValueError:
            raise CredentialError("%s: SecretString is not JSON (a JSON object {\"%s\": \"...\"} is expected)"
                                  % (origin, self.kind)) from None
        if not isinstance(document, dict):
            raise CredentialError("%s: SecretString is not a JSON object" % origin)
        value = document.get(self.kind)
        if isinstance(value, str) and value and value not in self._known:
            self._known.append(value)  # scrubbed even if refused below
        return checked_credential(self.kind, value, origin)

    def load(self):
        """At initialisation: reads the secret (Secrets Manager) unless already read. Never raises:
        a failure is logged, and the first call tries again."""
        if not self.from_secrets_manager:
            return
        try:
            self.current()
        except CredentialError as error:
            log_line("error", "hook credential not read at initialisation (the first call tries again): %s" % error)

    def current(self):
        """The credential (None: send none); reads the secret if no read has succeeded yet.
        Raises CredentialError."""
        with self._lock:
            if self._credential is None and self.from_secrets_manager:
                self._remember(self._read())
            return self._credential

    def refresh(self, refused):
        """After the hook refused `refused` (401): reads the secret again. The new credential when
        it differs from `refused` (worth one more call), else None. Never raises."""
        if not self.from_secrets_manager:
            return None
        with self._lock:
            if self._credential is not None and not self._credential.same_as(refused):
                return self._credential  # another call re-read it meanwhile
            try:
                credential = self._read()
            except CredentialError as error:
                log_line("error", "hook credential not re-read after a 401: %s" % error)
                return None
            changed = not credential.same_as(refused)
            self._remember(credential)
            log_line("info", "hook credential re-read after a 401: %s" % ("changed" if changed else "unchanged"))
            return credential if changed else None

    def scrub(self, text):
        """`text` with every credential value this source has seen replaced by ***."""
        for value in sorted(self._known, key=len, reverse=True):
            text = text.replace(value, "***")
        return text


# ------------------------------------------------------------------------------ the request
def hook_url(environ, event):
    """The one URL of the call: the base's scheme, host and path, /v1/hooks/{flow}, the base's query."""
    base = urllib.parse.urlsplit(environ["SWITCHBOARD_HOOK_URL"])
    parameters = ((event or {}).get("Details") or {}).get("Parameters") or {}
    flow = parameters.get("flow") or environ.get("SWITCHBOARD_HOOK_FLOW", "main")
    path = base.path.rstrip("/") + "/v1/hooks/" + urllib.parse.quote(flow, safe="")
    return urllib.parse.urlunsplit((base.scheme, base.netloc, path, base.query, ""))


def request_target(request):
    """The request target as the request line carries it (urllib sends `selector`, "/" if empty)."""
    return request.selector or "/"


def signature_v2(secret, timestamp, method, target, body):
    """X-Switchboard-Signature's value: v2= and the hex HMAC-SHA256 of
    timestamp \n METHOD \n target \n body."""
    message = ("%s\n%s\n%s\n" % (timestamp, method.upper(), target)).encode("utf-8") + body
    return "v2=" + hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def request_for(event, environ, credential=None, now=time.time):
    """The HTTP request to the hook for `event` (the body is the event as Connect sent it),
    with `credential` (a Credential, or None for no credential)."""
    body = json.dumps(event, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    request = urllib.request.Request(hook_url(environ, event), data=body, headers=headers, method="POST")
    if credential is not None and credential.kind == HMAC_SECRET:
        timestamp = str(int(now()))
        request.add_header(TIMESTAMP_HEADER, timestamp)
        request.add_header(SIGNATURE_HEADER, signature_v2(
            credential.value, timestamp, request.get_method(), request_target(request), body))
    elif credential is not None:
        request.add_header("Authorization", "Bearer " + credential.value)
    return request


class RefuseRedirects(urllib.request.HTTPRedirectHandler):
    """Follows no redirect: urllib's default would resend the credential's headers to wherever the
    Location points (another host, plain http) and turn the POST into a GET. The 3xx is raised as
    an HTTPError, answered as `hook_refused`."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: PLR0913 - urllib's signature
        return None


# The opener of every call: urllib's defaults but for redirects.
_OPENER = urllib.request.build_opener(RefuseRedirects)


def call_hook(request, timeout):
    """Sends `request`; the decoded JSON answer (raises what urllib raises)."""
    with _OPENER.open(request, timeout=timeout) as response:
        return json.loads(response.read(64 * 1024).decode("utf-8"))


def exchange(event, environ, credentials, timeout):
    """The whole exchange, run on a worker within the budget: the credential, the call, and after a
    401 with a credential from Secrets Manager one re-read and, if it changed, one more call."""
    credential = credentials.current()
    try:
        return call_hook(request_for(event, environ, credential), timeout)
    except urllib.error.HTTPError as error:
        if error.code != 401 or credential is None:
            raise
        renewed = credentials.refresh(credential)
        if renewed is None:
            raise
        error.close()
    return call_hook(request_for(event, environ, renewed), timeout)


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


# Read once per execution environment, at initialisation (import), not in a call's budget.
CREDENTIALS = CredentialSource(os.environ)
CREDENTIALS.load()


def lambda_handler(event, context, environ=None, credentials=None):
    """The Lambda entry point (handler: handler.lambda_handler). Tests pass `environ` (then the
    credential comes from it, unless `credentials` is given too)."""
    if environ is None:
        environ = os.environ
        credentials = credentials or CREDENTIALS
    elif credentials is None:
        credentials = CredentialSource(environ)
    answer = answer_for(event, context, environ, credentials)
    if isinstance(answer, FallbackAnswer):
        answer["errorMessage"] = credentials.scrub(answer.get("errorMessage", ""))[:MESSAGE_LIMIT]
        log_fallback(answer, event, environ)
        return dict(answer)
    return answer


def answer_for(event, context, environ, credentials):
    """The hook's flat answer for `event`, or the fallback map."""
    if not environ.get("SWITCHBOARD_HOOK_URL"):
        return fallback("hook_unreachable", "SWITCHBOARD_HOOK_URL is not set")
    timeout = budget_seconds(context, environ)
    try:
        future = _executor.submit(exchange, event, environ, credentials, timeout)
        answer = future.result(timeout=timeout)
        if not isinstance(answer, dict):
            return fallback("hook_refused", "the hook's answer is not a JSON object")
        return flat_strings(answer)
    except concurrent.futures.TimeoutError:
        return fallback("hook_unreachable", "no answer within %d ms" % int(timeout * 1000))
    except CredentialError as error:
        return fallback("credential_unavailable", str(error))
    except urllib.error.HTTPError as error:
        with error:
            reason = error.read(2048).decode("utf-8", "replace")
        code = "hook_refused" if 300 <= error.code < 500 else "hook_unreachable"
        return fallback(code, "HTTP %d: %s" % (error.code, reason))
    except (urllib.error.URLError, socket.timeout, TimeoutError, ConnectionError, OSError,
            http.client.HTTPException) as error:
        return fallback("hook_unreachable", str(getattr(error, "reason", error)))
    except (ValueError, UnicodeDecodeError) as error:
        return fallback("hook_refused", "unreadable answer: %s" % error)
