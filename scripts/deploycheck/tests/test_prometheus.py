import copy
import unittest

from .. import prometheus
from .support import CheckerTest, report

DEFINED = {"switchboard_hook_requests_total", "switchboard_hook_duration_seconds"}
README = "# Deploy\n\n## Alerts\n\n### Hook: errors and latency\n"
RULES = {"groups": [{"name": "switchboard", "rules": [
    {"alert": "SwitchboardHookErrors",
     "expr": 'sum(rate(switchboard_hook_requests_total{outcome="error"}[5m])) > 0',
     "annotations": {"summary": "hook errors", "description": "the hook answers errors",
                     "runbook": "deploy/README.md#hook-errors-and-latency"}},
    {"alert": "SwitchboardHookSlow",
     "expr": "histogram_quantile(0.99, sum by (le) (rate(switchboard_hook_duration_seconds_bucket[5m]))) > 0.5",
     "annotations": {"summary": "hook slow", "description": "p99 above 500 ms"}},
]}]}
TESTS = {"tests": [{"alert_rule_test": [
    {"alertname": "SwitchboardHookErrors", "eval_time": "10m", "exp_alerts": [{"exp_labels": {}}]},
    {"alertname": "SwitchboardHookSlow", "eval_time": "10m", "exp_alerts": [{"exp_labels": {}}]},
]}]}


def checked(rules=RULES, tests=TESTS, defined=DEFINED, readme=README):
    r = report()
    prometheus.check(r, rules, tests, defined, readme)
    return r.problems, r.out.getvalue()


class PrometheusTest(CheckerTest):
    def test_good_rules_pass(self):
        problems, _ = checked()
        self.assertClean(problems)

    def test_rule_on_an_unexported_metric(self):
        rules = copy.deepcopy(RULES)
        rules["groups"][0]["rules"][0]["expr"] = "rate(switchboard_hook_failures_total[5m]) > 0"
        problems, _ = checked(rules)
        self.assertReports(problems, "prometheus: deploy/prometheus/alerts.yaml: SwitchboardHookErrors: "
                                     "metric switchboard_hook_failures_total is not defined in Sources/")

    def test_planned_metric_is_listed_not_failed(self):
        rules = copy.deepcopy(RULES)
        rules["groups"][0]["rules"][0]["expr"] = "min(switchboard_ready) == 0"
        problems, out = checked(rules)
        self.assertClean(problems)
        self.assertIn("not exported yet (the binary must add them): ['switchboard_ready']", out)

    def test_missing_annotation(self):
        rules = copy.deepcopy(RULES)
        del rules["groups"][0]["rules"][1]["annotations"]["description"]
        problems, _ = checked(rules)
        self.assertReports(problems, "SwitchboardHookSlow: annotation description missing")

    def test_runbook_to_no_section(self):
        rules = copy.deepcopy(RULES)
        rules["groups"][0]["rules"][0]["annotations"]["runbook"] = "deploy/README.md#hook-errors"
        problems, _ = checked(rules)
        self.assertReports(problems, "SwitchboardHookErrors: runbook deploy/README.md#hook-errors names no section")

    def test_runbook_to_a_page(self):
        rules = copy.deepcopy(RULES)
        rules["groups"][0]["rules"][0]["annotations"]["runbook"] = "deploy/docs/runbook.md#lag"
        r = report()
        prometheus.check(r, rules, TESTS, DEFINED, README, {"deploy/docs/runbook.md": "# Runbook\n\n## Lag\n"})
        self.assertClean(r.problems)
        problems, _ = checked(rules)
        self.assertReports(problems, "SwitchboardHookErrors: runbook deploy/docs/runbook.md#lag names no page")

    def test_runbook_to_a_comment_in_fenced_code(self):
        readme = "# Deploy\n\n```sh\n# hook errors and latency\n```\n"
        problems, _ = checked(readme=readme)
        self.assertReports(problems, "runbook deploy/README.md#hook-errors-and-latency names no section of deploy/README.md")

    def test_alert_no_test_makes_fire(self):
        tests = copy.deepcopy(TESTS)
        tests["tests"][0]["alert_rule_test"][1]["exp_alerts"] = []
        problems, _ = checked(tests=tests)
        self.assertReports(problems, "deploy/prometheus/alerts.test.yaml: no test makes SwitchboardHookSlow fire")

    def test_readme_anchors(self):
        self.assertEqual(prometheus.readme_anchors("## Serve: spread and fenced\n### `up`, scraped\n"),
                         {"serve-spread-and-fenced", "up-scraped"})


if __name__ == "__main__":
    unittest.main()
