import contextlib
import io
import json
import os
import tempfile
import unittest

from .. import grafana
from .support import CheckerTest, report

HISTOGRAMS = {"switchboard_ingest_batch_duration_seconds", "switchboard_hook_duration_seconds"}
DEFINED = set(grafana.REQUIRED)


def expr(metric):
    if metric in HISTOGRAMS:
        return f"histogram_quantile(0.99, sum by (le) (rate({metric}_bucket[5m])))"
    return f"sum(rate({metric}[5m]))"


def panel(i, metric):
    return {"id": i, "type": "timeseries", "title": metric, "datasource": {"type": "prometheus", "uid": "${DS_PROMETHEUS}"},
            "targets": [{"refId": "A", "expr": expr(metric)}]}


def good():
    panels = [panel(i + 2, m) for i, m in enumerate(sorted(grafana.REQUIRED))]
    return {"schemaVersion": 39, "__inputs": [{"name": "DS_PROMETHEUS", "type": "datasource"}],
            "panels": [{"id": 1, "type": "row", "title": "Switchboard", "panels": panels}]}


def checked(dash, defined=DEFINED):
    r = report()
    grafana.check(r, "dash.json", dash, defined)
    return r.problems


def first(dash):
    return dash["panels"][0]["panels"][0]


class GrafanaTest(CheckerTest):
    def test_good_dashboard_passes(self):
        self.assertClean(checked(good()))

    def test_old_schema_and_no_datasource_input(self):
        dash = good()
        dash["schemaVersion"] = 27
        dash["__inputs"] = []
        problems = checked(dash)
        self.assertReports(problems, "schemaVersion missing or older than 36")
        self.assertReports(problems, "needs a DS_PROMETHEUS datasource input")

    def test_duplicate_panel_ids(self):
        dash = good()
        first(dash)["id"] = 1   # the row's id
        self.assertReports(checked(dash), "duplicate panel ids")

    def test_panel_on_another_datasource(self):
        dash = good()
        first(dash)["datasource"] = {"uid": "prometheus-prod"}
        self.assertReports(checked(dash), "datasource must be ${DS_PROMETHEUS}")

    def test_panel_without_targets_or_expr(self):
        dash = good()
        dash["panels"].append({"id": 99, "type": "stat", "title": "Empty", "datasource": "${DS_PROMETHEUS}"})
        dash["panels"].append({"id": 98, "type": "stat", "title": "Blank", "datasource": "${DS_PROMETHEUS}",
                               "targets": [{"refId": "B"}]})
        problems = checked(dash)
        self.assertReports(problems, "panel 'Empty'", "no targets")
        self.assertReports(problems, "panel 'Blank'", "target B has no PromQL expr")

    def test_unbalanced_brackets(self):
        dash = good()
        first(dash)["targets"][0]["expr"] += ")"
        self.assertReports(checked(dash), "unbalanced brackets in")

    def test_expr_without_switchboard_metric(self):
        dash = good()
        first(dash)["targets"].append({"refId": "B", "expr": "up"})
        self.assertReports(checked(dash), "expr names no switchboard_ metric: up")

    def test_undefined_metric(self):
        dash = good()
        first(dash)["targets"][0]["expr"] = "sum(switchboard_console_viewers)"
        problems = checked(dash)
        self.assertReports(problems, "metric switchboard_console_viewers is not defined in Sources/")
        self.assertReports(problems, f"no panel shows {sorted(grafana.REQUIRED)[0]}")

    def test_bucket_without_histogram_quantile(self):
        dash = good()
        first(dash)["targets"].append({"refId": "B", "expr": "sum(rate(switchboard_hook_duration_seconds_bucket[5m]))"})
        self.assertReports(checked(dash), "switchboard_hook_duration_seconds_bucket used without histogram_quantile")

    def test_required_metric_without_panel(self):
        dash = good()
        dash["panels"][0]["panels"] = [p for p in dash["panels"][0]["panels"] if p["title"] != "switchboard_ingest_lag_records"]
        self.assertReports(checked(dash), "dash.json: no panel shows switchboard_ingest_lag_records")


class GrafanaMainTest(CheckerTest):
    def test_no_dashboard(self):
        with tempfile.TemporaryDirectory() as root:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
                self.assertEqual(grafana.main([root]), 1)
            self.assertIn("grafana: deploy/grafana: no dashboard", err.getvalue())

    def test_broken_json_fails_the_run(self):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "deploy", "grafana"))
            os.makedirs(os.path.join(root, "Sources", "Metrics"))
            with open(os.path.join(root, "Sources", "Metrics", "Names.swift"), "w", encoding="utf-8") as f:
                f.write("\n".join(f'let m{i} = "{m}"' for i, m in enumerate(sorted(DEFINED))))
            with open(os.path.join(root, "deploy", "grafana", "good.json"), "w", encoding="utf-8") as f:
                json.dump(good(), f)
            with open(os.path.join(root, "deploy", "grafana", "broken.json"), "w", encoding="utf-8") as f:
                f.write('{"panels": [')
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
                status = grafana.main([root])
            self.assertEqual(status, 1)
            self.assertIn("grafana: deploy/grafana/broken.json: JSON does not parse", err.getvalue())
            self.assertNotIn("good.json", err.getvalue())


if __name__ == "__main__":
    unittest.main()
