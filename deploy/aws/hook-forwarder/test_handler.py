"""Tests of the hook forwarder: against the real hook (`switchboard-bench bench-hook-serve`,
ForwarderTests), and against a stub hook and a stub Secrets Manager (the other classes, which need
no binary and no AWS).

Run by scripts/test.sh (make test):
    SWITCHBOARD_BENCH_BINARY=.build/debug/switchboard-bench python3 deploy/aws/hook-forwarder/test_handler.py
Without the binary:
    python3 deploy/aws/hook-forwarder/test_handler.py SignatureTests SecretsManagerTests FallbackMetricTests
"""

import contextlib
import hashlib
import hmac
import http.server
import importlib.util
import io
import json
import os
import pathlib
import socket
import subprocess
import sys
import threading
import time
import types
import unittest
import unittest.mock
import urllib.error
import urllib.request

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE))
import handler  # noqa: E402

TOKEN = "forwarder-test-token"
SECRET = "forwarder-test-secret"
EVENTS = sorted(HERE.glob("events/*.json"))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class FakeContext:
    def __init__(self, remaining_ms):
        self.remaining_ms = remaining_ms

    def get_remaining_time_in_millis(self):
        return self.remaining_ms


class ForwarderTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        binary = os.environ.get("SWITCHBOARD_BENCH_BINARY") or str(ROOT / ".build/debug/switchboard-bench")
        cls.port = free_port()
        environment = dict(os.environ)
        environment.update({
            "SWITCHBOARD_HTTP_PORT": str(cls.port),
            "SWITCHBOARD_FLOWS_DIR": str(ROOT / "flows"),
            "SWITCHBOARD_HOOK_TOKENS": TOKEN,
            "SWITCHBOARD_HOOK_HMAC_SECRET": SECRET,
            "SWITCHBOARD_LOG_LEVEL": "warning",
        })
        cls.server = subprocess.Popen([binary, "bench-hook-serve"], env=environment)
        cls.base = "http://127.0.0.1:%d" % cls.port
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(cls.base + "/ready", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        cls.server.kill()
        raise RuntimeError("the hook did not become ready")

    @classmethod
    def tearDownClass(cls):
        cls.server.terminate()
        cls.server.wait(timeout=30)

    def direct(self, event, flow="main"):
        """The hook's own answer for `event`, asked directly with the bearer token."""
        request = urllib.request.Request(
            "%s/v1/hooks/%s" % (self.base, flow), data=json.dumps(event).encode(),
            headers={"Content-Type": "application/json", "Authorization": "Bearer " + TOKEN}, method="POST")
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.loads(response.read())

    def environ(self, **extra):
        environ = {"SWITCHBOARD_HOOK_URL": self.base, "SWITCHBOARD_HOOK_BUDGET_MS": "3000"}
        environ.update(extra)
        return environ

    def test_every_sample_event_gets_the_hooks_answer(self):
        self.assertGreaterEqual(len(EVENTS), 5)
        for path in EVENTS:
            event = json.loads(path.read_text())
            flow = event["Details"]["Parameters"].get("flow", "main")
            for auth in ({"SWITCHBOARD_HOOK_TOKEN": TOKEN}, {"SWITCHBOARD_HOOK_HMAC_SECRET": SECRET}):
                with self.subTest(event=path.name, auth=sorted(auth)):
                    before = self.direct(event, flow)
                    answer = handler.lambda_handler(event, FakeContext(8000), self.environ(**auth))
                    self.assertNotEqual(answer.get("error"), "hook_unreachable", answer)
                    self.assertNotEqual(answer.get("error"), "hook_refused", answer)
                    self.assertTrue(all(isinstance(v, str) for v in answer.values()), answer)
                    self.assertIn(answer["result"], ("open", "closed", "error"))
                    after = self.direct(event, flow)
                    if "at" in event["Details"]["Parameters"]:
                        self.assertEqual(answer, after)
                    else:
                        # Evaluated at "now", between the two direct answers: it is one of them,
                        # whichever side of a store's opening or closing it fell on.
                        self.assertIn(answer, (before, after))

    def test_a_refused_credential_is_a_fallback_not_a_failure(self):
        event = json.loads(EVENTS[0].read_text())
        answer = handler.lambda_handler(event, None, self.environ(SWITCHBOARD_HOOK_TOKEN="wrong"))
        self.assertEqual(answer["result"], "error")
        self.assertEqual(answer["error"], "hook_refused")
        self.assertIn("401", answer["errorMessage"])

    def test_a_signed_call_with_a_query_is_accepted(self):
        event = json.loads(EVENTS[0].read_text())
        for base in (self.base + "?lang=ja", self.base + "/?lang=ja&note=a%20b"):
            with self.subTest(base=base):
                answer = handler.lambda_handler(event, FakeContext(8000), {
                    "SWITCHBOARD_HOOK_URL": base, "SWITCHBOARD_HOOK_HMAC_SECRET": SECRET,
                    "SWITCHBOARD_HOOK_BUDGET_MS": "3000"})
                self.assertNotIn(answer.get("error"), ("hook_refused", "hook_unreachable"), answer)
                self.assertIn(answer["result"], ("open", "closed"))

    def test_a_signature_moved_to_another_target_is_refused(self):
        event = json.loads(EVENTS[0].read_text())
        signed = handler.request_for(event, {"SWITCHBOARD_HOOK_URL": self.base + "?lang=ja"},
                                     handler.Credential(handler.HMAC_SECRET, SECRET))
        headers = dict(signed.header_items())
        self.assertEqual(self.status(self.base + "/v1/hooks/main?lang=ja", headers, signed.data), 200)
        for moved in ("/v1/hooks/main", "/v1/hooks/main?lang=en", "/v1/hooks/reservations?lang=ja"):
            with self.subTest(moved=moved):
                self.assertEqual(self.status(self.base + moved, headers, signed.data), 401)

    def test_a_percent_encoded_flow_name_is_signed_as_the_hook_receives_it(self):
        # An unknown flow whose name needs encoding: the signature passes (the hook answers that the
        # flow is unknown), and the same call with a wrong secret is refused, so the hook did check it.
        event = {"Details": {"Parameters": {"flow": "ない flow/1"}, "ContactData": {}}}
        answers = {}
        for secret in (SECRET, "not-the-hook-secret-0123456789"):
            with contextlib.redirect_stdout(io.StringIO()):
                answers[secret] = handler.lambda_handler(event, FakeContext(8000), {
                    "SWITCHBOARD_HOOK_URL": self.base + "?lang=ja", "SWITCHBOARD_HOOK_HMAC_SECRET": secret})
        self.assertEqual(answers["not-the-hook-secret-0123456789"]["errorMessage"][:8], "HTTP 401")
        self.assertNotEqual(answers[SECRET].get("errorMessage", "")[:8], "HTTP 401", answers[SECRET])

    def status(self, url, headers, body):
        request = urllib.request.Request(url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status
        except urllib.error.HTTPError as error:
            with error:
                return error.code

    def test_a_stopped_hook_answers_the_fallback_at_once(self):
        event = json.loads(EVENTS[0].read_text())
        start = time.monotonic()
        answer = handler.lambda_handler(
            event, None, {"SWITCHBOARD_HOOK_URL": "http://127.0.0.1:%d" % free_port(), "SWITCHBOARD_HOOK_TOKEN": TOKEN})
        self.assertEqual(answer, {**answer, "result": "error", "error": "hook_unreachable"})
        self.assertLess(time.monotonic() - start, 2.5)

    def test_a_hook_that_never_answers_gets_the_fallback_within_the_budget(self):
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        accepted = []
        threading.Thread(target=lambda: accepted.append(listener.accept()), daemon=True).start()
        event = json.loads(EVENTS[0].read_text())
        environ = {"SWITCHBOARD_HOOK_URL": "http://127.0.0.1:%d" % listener.getsockname()[1],
                   "SWITCHBOARD_HOOK_BUDGET_MS": "800"}
        start = time.monotonic()
        answer = handler.lambda_handler(event, FakeContext(8000), environ)
        elapsed = time.monotonic() - start
        listener.close()
        for connection, _ in accepted:
            connection.close()
        self.assertEqual(answer["error"], "hook_unreachable")
        self.assertGreaterEqual(elapsed, 0.7, "it waited for the hook")
        self.assertLess(elapsed, 0.8 + 1.0, "it answered within the budget (plus scheduling slack)")

    def test_the_lambdas_own_deadline_shortens_the_budget(self):
        self.assertAlmostEqual(handler.budget_seconds(FakeContext(1000), {"SWITCHBOARD_HOOK_BUDGET_MS": "2500"}), 0.75)
        self.assertAlmostEqual(handler.budget_seconds(None, {}), 2.5)

    def test_non_string_values_are_flattened(self):
        self.assertEqual(handler.flat_strings({"a": "x", "n": 3, "b": True, "o": {"x": 1}, "z": None}),
                         {"a": "x", "n": "3", "b": "true"})


class RedirectTests(unittest.TestCase):
    """A hook URL that answers a redirect (a misconfigured proxy, a hijacked name) gets nothing of
    the credential: the forwarder follows no redirect and answers the fallback `hook_refused`."""

    def test_no_redirect_is_followed_and_each_is_refused(self):
        elsewhere = StubHook(tokens=[TOKEN], secrets=[SECRET])
        self.addCleanup(elsewhere.close)

        class Redirect(http.server.BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's naming
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                self.send_response(int(self.path.rsplit("/", 1)[-1].split("-", 1)[0]))
                self.send_header("Location", elsewhere.base + "/v1/hooks/main")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *arguments):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        event = json.loads(EVENTS[0].read_text())
        for status in (301, 302, 303, 307, 308):
            for auth in ({"SWITCHBOARD_HOOK_TOKEN": TOKEN}, {"SWITCHBOARD_HOOK_HMAC_SECRET": SECRET}):
                with self.subTest(status=status, auth=sorted(auth)):
                    event["Details"]["Parameters"] = {"flow": "%d-redirect" % status}
                    environ = {"SWITCHBOARD_HOOK_URL": "http://127.0.0.1:%d" % server.server_address[1], **auth}
                    answer = handler.lambda_handler(event, FakeContext(8000), environ)
                    self.assertEqual(answer["result"], "error", answer)
                    self.assertEqual(answer["error"], "hook_refused", answer)
                    self.assertIn("HTTP %d" % status, answer["errorMessage"])
        self.assertEqual(elsewhere.requests, [], "a redirect was followed")


# ---------------------------------------------------------------------------------- the signature
def expected_signature(secret, timestamp, method, target, body):
    """The hook's v2 signature, written out from its definition (not handler.signature_v2):
    lowercase hex HMAC-SHA256(secret, timestamp "\n" METHOD "\n" target "\n" body)."""
    message = timestamp.encode("ascii") + b"\n" + method.encode("ascii") + b"\n" + target.encode("ascii") + b"\n" + body
    return "v2=" + hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


class StubHook:
    """A hook on a loopback port that records each request's line, headers and body as received,
    and accepts a request when it carries one of `tokens` or a valid v2 signature under one of
    `secrets` (over the target it received): 200 with a small answer, else 401."""

    def __init__(self, tokens=(), secrets=()):
        self.tokens = list(tokens)
        self.secrets = list(secrets)
        self.requests = []
        stub = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's naming
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                record = {"method": self.command, "target": self.path, "headers": self.headers, "body": body}
                stub.requests.append(record)
                accepted = stub.accepts(record)
                answer = {"result": "open", "storeId": "stub-store", "open": True} if accepted \
                    else {"error": "unauthorized", "reason": "the signature does not match"}
                data = json.dumps(answer).encode()
                self.send_response(200 if accepted else 401)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST  # noqa: N815 - a redirected POST arrives as a GET

            def log_message(self, *arguments):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()
        self.base = "http://127.0.0.1:%d" % self.server.server_address[1]

    def accepts(self, record):
        authorization = record["headers"].get("Authorization", "")
        if authorization.startswith("Bearer ") and authorization[7:] in self.tokens:
            return True
        timestamp = record["headers"].get("X-Switchboard-Timestamp")
        signature = record["headers"].get("X-Switchboard-Signature")
        return bool(timestamp and signature) and any(
            hmac.compare_digest(signature, expected_signature(secret, timestamp, record["method"], record["target"], record["body"]))
            for secret in self.secrets)

    def close(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


class SignatureTests(unittest.TestCase):
    """The v2 signature the forwarder sends (no binary needed)."""

    def setUp(self):
        self.hook = StubHook(secrets=[SECRET])
        self.addCleanup(self.hook.close)

    def test_a_known_vector(self):
        # Computed outside Python: printf '1767225600\nPOST\n/v1/hooks/main?lang=ja\n{"Name":...}' |
        #   openssl dgst -sha256 -hmac forwarder-test-secret
        event = {"Name": "ContactFlowEvent", "Details": {"Parameters": {}}}
        request = handler.request_for(event, {"SWITCHBOARD_HOOK_URL": "https://switchboard.example.com?lang=ja"},
                                      handler.Credential(handler.HMAC_SECRET, SECRET), now=lambda: 1767225600.7)
        self.assertEqual(request.full_url, "https://switchboard.example.com/v1/hooks/main?lang=ja")
        self.assertEqual(request.data, b'{"Name":"ContactFlowEvent","Details":{"Parameters":{}}}')
        self.assertEqual(request.get_header("X-switchboard-timestamp"), "1767225600")
        self.assertEqual(request.get_header("X-switchboard-signature"),
                         "v2=b201bb1cd6c305b9c00c32752a0e117ac30b43b642412a925d0e75ecd28db03e")

    def test_a_percent_encoded_path_with_a_query_is_signed_as_sent(self):
        event = {"Details": {"Parameters": {"flow": "ja/店 1"}}}
        base = self.hook.base + "/base/?lang=ja&x=a%20b"
        before = int(time.time())
        answer = handler.lambda_handler(event, FakeContext(8000), {"SWITCHBOARD_HOOK_URL": base, "SWITCHBOARD_HOOK_HMAC_SECRET": SECRET})
        self.assertEqual(answer, {"result": "open", "storeId": "stub-store", "open": "true"})
        [received] = self.hook.requests
        target = "/base/v1/hooks/ja%2F%E5%BA%97%201?lang=ja&x=a%20b"
        self.assertEqual(received["target"], target, "the request line carries the encoded path and the query")
        self.assertEqual(received["method"], "POST")
        timestamp = received["headers"]["X-Switchboard-Timestamp"]
        self.assertRegex(timestamp, r"^[0-9]+$")
        self.assertLessEqual(abs(int(timestamp) - before), 5)
        signature = received["headers"]["X-Switchboard-Signature"]
        self.assertRegex(signature, r"^v2=[0-9a-f]{64}$")
        self.assertEqual(signature, expected_signature(SECRET, timestamp, "POST", target, received["body"]))
        self.assertEqual(received["body"], json.dumps(event, separators=(",", ":"), ensure_ascii=False).encode())
        self.assertIsNone(received["headers"].get("Authorization"))
        # the signature binds the target: the same signature does not verify for another query or path
        for other in ("/base/v1/hooks/ja%2F%E5%BA%97%201?lang=en&x=a%20b", "/base/v1/hooks/main?lang=ja&x=a%20b",
                      "/v1/hooks/ja%2F%E5%BA%97%201?lang=ja&x=a%20b", "/base/v1/hooks/ja/%E5%BA%97%201?lang=ja&x=a%20b"):
            self.assertNotEqual(signature, expected_signature(SECRET, timestamp, "POST", other, received["body"]), other)

    def test_the_known_percent_encoded_vector(self):
        # printf '1767225600\nPOST\n/base/v1/hooks/ja%%2F%%E5%%BA%%97%%201?lang=ja&x=a%%20b\n{"Details":...}' |
        #   openssl dgst -sha256 -hmac forwarder-test-secret
        event = {"Details": {"Parameters": {"flow": "ja/店 1"}}}
        request = handler.request_for(event, {"SWITCHBOARD_HOOK_URL": "https://h.example/base/?lang=ja&x=a%20b"},
                                      handler.Credential(handler.HMAC_SECRET, SECRET), now=lambda: 1767225600)
        self.assertEqual(request.get_header("X-switchboard-signature"),
                         "v2=3c9d91dbc03f6b606ab8b02c8cd0c68e70a921f795dbb6f4beec9eeffccb9c86")

    def test_the_bearer_token_mode_is_unchanged(self):
        hook = StubHook(tokens=[TOKEN])
        self.addCleanup(hook.close)
        answer = handler.lambda_handler({}, None, {"SWITCHBOARD_HOOK_URL": hook.base, "SWITCHBOARD_HOOK_TOKEN": TOKEN})
        self.assertEqual(answer["result"], "open")
        [received] = hook.requests
        self.assertEqual(received["target"], "/v1/hooks/main")
        self.assertEqual(received["headers"]["Authorization"], "Bearer " + TOKEN)
        self.assertIsNone(received["headers"].get("X-Switchboard-Signature"))

    def test_the_hmac_secret_takes_precedence_over_the_token(self):
        answer = handler.lambda_handler({}, None, {"SWITCHBOARD_HOOK_URL": self.hook.base,
                                                   "SWITCHBOARD_HOOK_TOKEN": TOKEN, "SWITCHBOARD_HOOK_HMAC_SECRET": SECRET})
        self.assertEqual(answer["result"], "open")
        self.assertIsNone(self.hook.requests[0]["headers"].get("Authorization"))


# ------------------------------------------------------------------------------ Secrets Manager
ARN = "arn:aws:secretsmanager:ap-northeast-1:123456789012:secret:switchboard/hook-AbCdEf"
OLD = "old-hmac-secret-0123456789abcdef"
NEW = "new-hmac-secret-fedcba9876543210"
OTHER = "other-hmac-secret-00112233445566"


class StubSecretsManager:
    """Secrets Manager's GetSecretValue for one secret: its current SecretString, the calls made,
    and an optional error to raise instead."""

    def __init__(self, value, kind=handler.HMAC_SECRET):
        self.kind = kind
        self.secret_string = json.dumps({kind: value})
        self.calls = []
        self.error = None

    def set(self, value):
        self.secret_string = json.dumps({self.kind: value})

    def get_secret_value(self, SecretId):  # noqa: N803 - boto3's parameter name
        self.calls.append(SecretId)
        if self.error is not None:
            raise self.error
        return {"ARN": ARN, "Name": "switchboard/hook", "SecretString": self.secret_string}


class SecretsManagerTests(unittest.TestCase):
    """The credential from Secrets Manager: read at initialisation, re-read after a 401 (no binary,
    no AWS: a stub client and a stub hook)."""

    def environ(self, hook, kind=handler.HMAC_SECRET):
        return {"SWITCHBOARD_HOOK_URL": hook.base, "SWITCHBOARD_HOOK_BUDGET_MS": "3000",
                "SWITCHBOARD_HOOK_CREDENTIAL_SECRET_ARN": ARN, "SWITCHBOARD_HOOK_CREDENTIAL_KIND": kind}

    def hook(self, **credentials):
        hook = StubHook(**credentials)
        self.addCleanup(hook.close)
        return hook

    def source(self, environ, client):
        source = handler.CredentialSource(environ, client=client)
        with contextlib.redirect_stdout(io.StringIO()):
            source.load()
        return source

    def call(self, environ, source, output=None):
        with contextlib.redirect_stdout(output or io.StringIO()):
            return handler.lambda_handler({"Details": {"Parameters": {}}}, FakeContext(8000), environ, credentials=source)

    def test_the_secret_is_read_at_initialisation_not_per_call(self):
        """The module as the Lambda runtime imports it: os.environ carries the ARN, boto3 is the
        runtime's (here a stand-in module whose client is the stub)."""
        hook = self.hook(secrets=[OLD])
        stub = StubSecretsManager(OLD)
        made = []
        boto3 = types.ModuleType("boto3")
        boto3.client = lambda service, **options: made.append((service, options)) or stub
        botocore = types.ModuleType("botocore")
        botocore_config = types.ModuleType("botocore.config")
        botocore_config.Config = lambda **options: options
        botocore.config = botocore_config
        spec = importlib.util.spec_from_file_location("handler_at_init", HERE / "handler.py")
        module = importlib.util.module_from_spec(spec)
        output = io.StringIO()
        with unittest.mock.patch.dict(sys.modules, {"boto3": boto3, "botocore": botocore, "botocore.config": botocore_config}), \
                unittest.mock.patch.dict(os.environ, self.environ(hook)), contextlib.redirect_stdout(output):
            spec.loader.exec_module(module)
            self.addCleanup(module._executor.shutdown)
            self.assertEqual(stub.calls, [ARN], "read once, at initialisation")
            self.assertEqual([service for service, _ in made], ["secretsmanager"])
            self.assertEqual(len(hook.requests), 0, "initialisation does not call the hook")
            for _ in range(3):
                answer = module.lambda_handler({"Details": {"Parameters": {}}}, FakeContext(8000))
                self.assertEqual(answer["result"], "open", answer)
        self.assertEqual(stub.calls, [ARN], "no call reads the secret again")
        self.assertEqual(len(hook.requests), 3)
        self.assertNotIn(OLD, output.getvalue())

    def test_after_a_401_the_secret_is_read_again_and_the_call_retried_once(self):
        hook = self.hook(secrets=[NEW])  # the hook was given the new secret, the forwarder holds the old
        stub = StubSecretsManager(OLD)
        environ = self.environ(hook)
        source = self.source(environ, stub)
        stub.set(NEW)  # the rotation reached Secrets Manager after the forwarder's initialisation
        output = io.StringIO()
        answer = self.call(environ, source, output)
        self.assertEqual(answer["result"], "open", answer)
        self.assertEqual(len(stub.calls), 2, "read at initialisation and once after the 401")
        self.assertEqual(len(hook.requests), 2, "the refused call and its one retry")
        self.assertIn("re-read after a 401: changed", output.getvalue())
        self.assertEqual(self.call(environ, source)["result"], "open")
        self.assertEqual(len(stub.calls), 2, "the new value is kept")
        self.assertEqual(len(hook.requests), 3)

    def test_a_second_401_is_not_retried(self):
        hook = self.hook(secrets=[OTHER])  # neither value is accepted
        stub = StubSecretsManager(OLD)
        environ = self.environ(hook)
        source = self.source(environ, stub)
        stub.set(NEW)
        answer = self.call(environ, source)
        self.assertEqual((answer["result"], answer["error"]), ("error", "hook_refused"))
        self.assertIn("401", answer["errorMessage"])
        self.assertEqual(len(hook.requests), 2, "one retry, not more")
        self.assertEqual(len(stub.calls), 2)
        answer = self.call(environ, source)  # the next call: once more one re-read, no retry (unchanged)
        self.assertEqual(answer["error"], "hook_refused")
        self.assertEqual(len(hook.requests), 3)
        self.assertEqual(len(stub.calls), 3)

    def test_an_unchanged_secret_is_not_sent_again(self):
        hook = self.hook(secrets=[OTHER])
        stub = StubSecretsManager(OLD)
        environ = self.environ(hook)
        source = self.source(environ, stub)
        answer = self.call(environ, source)
        self.assertEqual(answer["error"], "hook_refused")
        self.assertEqual(len(hook.requests), 1, "the same value would be refused again")
        self.assertEqual(len(stub.calls), 2)

    def test_a_401_with_a_plain_environment_credential_is_not_retried(self):
        hook = self.hook(secrets=[OTHER])
        with contextlib.redirect_stdout(io.StringIO()):
            answer = handler.lambda_handler({}, None, {"SWITCHBOARD_HOOK_URL": hook.base, "SWITCHBOARD_HOOK_HMAC_SECRET": OLD})
        self.assertEqual(answer["error"], "hook_refused")
        self.assertEqual(len(hook.requests), 1)

    def test_a_token_from_secrets_manager_is_sent_as_the_bearer(self):
        hook = self.hook(tokens=[TOKEN])
        stub = StubSecretsManager(TOKEN, kind=handler.TOKEN)
        environ = self.environ(hook, kind=handler.TOKEN)
        answer = self.call(environ, self.source(environ, stub))
        self.assertEqual(answer["result"], "open", answer)
        self.assertEqual(hook.requests[0]["headers"]["Authorization"], "Bearer " + TOKEN)

    def test_a_failed_read_at_initialisation_is_tried_again_by_the_first_call(self):
        hook = self.hook(secrets=[OLD])
        stub = StubSecretsManager(OLD)
        stub.error = RuntimeError("An error occurred (ThrottlingException) when calling the GetSecretValue operation")
        environ = self.environ(hook)
        source = handler.CredentialSource(environ, client=stub)
        output = io.StringIO()
        with contextlib.redirect_stdout(output):
            source.load()
        [line] = [json.loads(l) for l in output.getvalue().splitlines()]
        self.assertEqual(line["level"], "error")
        self.assertIn("ThrottlingException", line["message"])
        self.assertIn(ARN, line["message"])
        stub.error = None
        self.assertEqual(self.call(environ, source)["result"], "open")
        self.assertEqual(len(stub.calls), 2)

    def test_an_unusable_secret_is_a_fallback_and_no_call(self):
        hook = self.hook(secrets=[OLD])
        cases = {
            "not JSON": "plain-" + OLD,
            "not an object": json.dumps([OLD]),
            "no key": json.dumps({"token": OLD}),
            "empty": json.dumps({"hmacSecret": ""}),
        }
        for name, secret_string in cases.items():
            with self.subTest(name):
                stub = StubSecretsManager(OLD)
                stub.secret_string = secret_string
                environ = self.environ(hook)
                output = io.StringIO()
                answer = self.call(environ, self.source(environ, stub), output)
                self.assertEqual((answer["result"], answer["error"]), ("error", "credential_unavailable"))
                self.assertIn(ARN, answer["errorMessage"])
                self.assertNotIn(OLD, answer["errorMessage"] + output.getvalue())
        self.assertEqual(hook.requests, [], "no call without the credential")

    def test_a_wrong_kind_is_named(self):
        environ = dict(self.environ(self.hook()), SWITCHBOARD_HOOK_CREDENTIAL_KIND="password")
        answer = self.call(environ, self.source(environ, StubSecretsManager(OLD)))
        self.assertEqual(answer["error"], "credential_unavailable")
        self.assertIn("SWITCHBOARD_HOOK_CREDENTIAL_KIND must be token or hmacSecret", answer["errorMessage"])

    def test_no_secret_value_in_any_output(self):
        """Every path that logs or answers: success, a rotation, refusals, a failed re-read whose
        error text carries the value, an unusable token; the values appear nowhere, nor escaped."""
        token_with_newline = "token-with-newline-0123456789\n"
        values = [OLD, NEW, OTHER, TOKEN, token_with_newline.strip()]
        captured = io.StringIO()
        answers = []

        def scenario(hook_secrets, secret, rotate_to=None, error_on_reread=None, kind=handler.HMAC_SECRET):
            hook = self.hook(secrets=hook_secrets, tokens=[TOKEN])
            stub = StubSecretsManager(secret, kind=kind)
            environ = dict(self.environ(hook, kind=kind), AWS_LAMBDA_FUNCTION_NAME="forwarder")
            with contextlib.redirect_stderr(captured):
                source = self.source(environ, stub)
                if rotate_to:
                    stub.set(rotate_to)
                stub.error = error_on_reread
                answers.append(self.call(environ, source, captured))
                captured.write(repr(source.current()) + str(source.current()))

        scenario([OLD], OLD)                                       # accepted
        scenario([NEW], OLD, rotate_to=NEW)                        # rotated, retried
        scenario([OTHER], OLD, rotate_to=NEW)                      # refused twice
        scenario([OTHER], OLD, error_on_reread=RuntimeError("denied for the value %s" % OLD))  # a failed re-read
        stub = StubSecretsManager(token_with_newline, kind=handler.TOKEN)
        environ = self.environ(self.hook(tokens=[TOKEN]), kind=handler.TOKEN)
        with contextlib.redirect_stderr(captured):
            answers.append(self.call(environ, self.source(environ, stub), captured))
        self.assertEqual([a["result"] for a in answers], ["open", "open", "error", "error", "error"])
        self.assertEqual(answers[-1]["error"], "credential_unavailable")
        self.assertIn("whitespace", answers[-1]["errorMessage"])
        text = captured.getvalue() + json.dumps(answers) + json.dumps(answers, ensure_ascii=False)
        self.assertIn("hook fallback answered", text)
        for value in values:
            for form in (value, json.dumps(value)[1:-1], repr(value)[1:-1]):
                self.assertNotIn(form, text)
        self.assertEqual(repr(handler.Credential(handler.TOKEN, TOKEN)), "Credential(kind='token', value=<20 characters, hidden>)")

    def test_a_credential_in_an_error_text_is_scrubbed_before_the_message_is_cut(self):
        source = handler.CredentialSource({"SWITCHBOARD_HOOK_TOKEN": TOKEN})
        self.assertEqual(source.scrub("HTTP 401: the token %s is refused" % TOKEN), "HTTP 401: the token *** is refused")
        real = handler.answer_for
        try:  # the token straddles the 500-character cut
            handler.answer_for = lambda event, context, environ, credentials: handler.fallback(
                "hook_refused", "x" * 490 + TOKEN + " and more")
            with contextlib.redirect_stdout(io.StringIO()) as output:
                answer = handler.lambda_handler({}, None, {"SWITCHBOARD_HOOK_URL": "http://127.0.0.1:1"}, credentials=source)
        finally:
            handler.answer_for = real
        self.assertEqual(answer["errorMessage"], ("x" * 490 + "*** and more")[:500])
        self.assertNotIn(TOKEN[:10], answer["errorMessage"] + output.getvalue())


class FallbackMetricTests(unittest.TestCase):
    """Every fallback is logged and counted (EMF); needs no hook, so it runs without the binary:
    python3 -m unittest deploy/aws/hook-forwarder/test_handler.py -k FallbackMetricTests"""

    def logged(self, event, environ):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            answer = handler.lambda_handler(event, None, environ)
        return answer, [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]

    def test_a_fallback_is_one_emf_line_with_its_reason(self):
        event = json.loads(EVENTS[0].read_text())
        answer, lines = self.logged(event, {"SWITCHBOARD_HOOK_URL": "http://127.0.0.1:%d" % free_port(),
                                            "AWS_LAMBDA_FUNCTION_NAME": "switchboard-hook-forwarder"})
        self.assertEqual(answer["error"], "hook_unreachable")
        self.assertIs(type(answer), dict, "Connect gets a plain map")
        self.assertEqual(len(lines), 1, lines)
        line = lines[0]
        directive = line["_aws"]["CloudWatchMetrics"][0]
        self.assertEqual(directive["Namespace"], "Switchboard/HookForwarder")
        self.assertEqual(directive["Metrics"], [{"Name": "FallbackAnswers", "Unit": "Count"}])
        for dimensions in directive["Dimensions"]:
            for name in dimensions:
                self.assertIn(name, line, "every dimension is a member of the line")
        self.assertEqual(line["FallbackAnswers"], 1)
        self.assertEqual(line["FunctionName"], "switchboard-hook-forwarder")
        self.assertEqual(line["Reason"], "hook_unreachable")
        self.assertEqual(line["contactId"], event["Details"]["ContactData"]["ContactId"])
        self.assertIsInstance(line["_aws"]["Timestamp"], int)

    def test_a_missing_url_is_counted_too(self):
        answer, lines = self.logged({}, {})
        self.assertEqual(answer["error"], "hook_unreachable")
        self.assertEqual([l["Reason"] for l in lines], ["hook_unreachable"])

    def test_a_hook_answer_is_not_counted(self):
        real = handler.answer_for
        try:
            handler.answer_for = lambda event, context, environ, credentials: {"result": "error", "error": "hook_refused"}
            answer, lines = self.logged({}, {"SWITCHBOARD_HOOK_URL": "http://127.0.0.1:1"})
        finally:
            handler.answer_for = real
        self.assertEqual(answer, {"result": "error", "error": "hook_refused"})
        self.assertEqual(lines, [], "only the forwarder's own fallbacks are counted")


if __name__ == "__main__":
    unittest.main(verbosity=2)
