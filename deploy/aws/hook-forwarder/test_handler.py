"""Tests of the hook forwarder against the real hook (`switchboard-bench bench-hook-serve`).

Run by scripts/test.sh (make test):
    SWITCHBOARD_BENCH_BINARY=.build/debug/switchboard-bench python3 deploy/aws/hook-forwarder/test_handler.py
"""

import json
import os
import pathlib
import socket
import subprocess
import sys
import threading
import time
import unittest
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
                    answer = handler.lambda_handler(event, FakeContext(8000), self.environ(**auth))
                    self.assertNotEqual(answer.get("error"), "hook_unreachable", answer)
                    self.assertNotEqual(answer.get("error"), "hook_refused", answer)
                    self.assertTrue(all(isinstance(v, str) for v in answer.values()), answer)
                    self.assertIn(answer["result"], ("open", "closed", "error"))
                    expected = self.direct(event, flow)
                    if "at" in event["Details"]["Parameters"]:
                        self.assertEqual(answer, expected)
                    else:  # evaluated at "now": the same store and decision, moments apart
                        self.assertEqual(answer["storeId"], expected["storeId"])
                        self.assertEqual(answer.keys(), expected.keys())

    def test_a_refused_credential_is_a_fallback_not_a_failure(self):
        event = json.loads(EVENTS[0].read_text())
        answer = handler.lambda_handler(event, None, self.environ(SWITCHBOARD_HOOK_TOKEN="wrong"))
        self.assertEqual(answer["result"], "error")
        self.assertEqual(answer["error"], "hook_refused")
        self.assertIn("401", answer["errorMessage"])

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


class FallbackMetricTests(unittest.TestCase):
    """Every fallback is logged and counted (EMF); needs no hook, so it runs without the binary:
    python3 -m unittest deploy/aws/hook-forwarder/test_handler.py -k FallbackMetricTests"""

    def logged(self, event, environ):
        import contextlib
        import io
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
            handler.answer_for = lambda event, context, environ: {"result": "error", "error": "hook_refused"}
            answer, lines = self.logged({}, {"SWITCHBOARD_HOOK_URL": "http://127.0.0.1:1"})
        finally:
            handler.answer_for = real
        self.assertEqual(answer, {"result": "error", "error": "hook_refused"})
        self.assertEqual(lines, [], "only the forwarder's own fallbacks are counted")


if __name__ == "__main__":
    unittest.main(verbosity=2)
