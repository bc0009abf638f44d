"""Checks of the Grafana dashboards deploy/grafana/*.json, run by scripts/validate-deploy.sh:

    PYTHONPATH=scripts python3 -m deploycheck.grafana ROOT

Each dashboard parses, has schemaVersion >= 36 and a DS_PROMETHEUS datasource input, unique panel
ids; every data panel queries ${DS_PROMETHEUS} with PromQL targets whose brackets balance and
whose switchboard_ metrics are defined in Sources/ (a _bucket only under histogram_quantile); the
metrics in REQUIRED each have a panel.

Prints each dashboard's summary; exits 1 with the list of problems.
"""

import glob
import json
import os
import re
import sys

from .common import Report, exported_metrics, metric_base

G = "grafana"
# What the dashboard must show: ingest throughput, lag, failures and latency; the hook; the console.
REQUIRED = {
    "switchboard_ingest_rows_total", "switchboard_ingest_lag_records", "switchboard_ingest_dead_letters_total",
    "switchboard_ingest_batch_duration_seconds", "switchboard_ingest_fenced_writes_total",
    "switchboard_ingest_write_retries_total", "switchboard_hook_duration_seconds", "switchboard_hook_requests_total",
    "switchboard_console_clients", "switchboard_console_messages_sent_total", "switchboard_console_resnapshots_total",
}


def panels_of(dash):
    """Every panel of a dashboard, the ones inside rows included."""
    panels = []

    def walk(ps):
        for p in ps:
            panels.append(p)
            walk(p.get("panels") or [])
    walk(dash.get("panels") or [])
    return panels


def check(report, rel, dash, defined):
    """Checks one parsed dashboard (`rel` names it); `defined` is the metric names Sources/ exports."""
    if not isinstance(dash.get("schemaVersion"), int) or dash["schemaVersion"] < 36:
        report.problem(G, rel, "schemaVersion missing or older than 36")
    if not any(i.get("name") == "DS_PROMETHEUS" for i in dash.get("__inputs", [])):
        report.problem(G, rel, "needs a DS_PROMETHEUS datasource input")
    panels = panels_of(dash)
    data_panels = [p for p in panels if p.get("type") != "row"]
    ids = [p.get("id") for p in panels]
    if len(ids) != len(set(ids)):
        report.problem(G, rel, "duplicate panel ids")
    used = set()
    for p in data_panels:
        where = f"{rel} panel '{p.get('title')}'"
        targets = p.get("targets") or []
        if not targets:
            report.problem(G, where, "no targets")
        if "${DS_PROMETHEUS}" not in json.dumps(p.get("datasource")):
            report.problem(G, where, "datasource must be ${DS_PROMETHEUS}")
        for t in targets:
            expr = t.get("expr") or ""
            if not expr:
                report.problem(G, where, f"target {t.get('refId')} has no PromQL expr")
                continue
            if expr.count("(") != expr.count(")") or expr.count("{") != expr.count("}"):
                report.problem(G, where, f"unbalanced brackets in {expr}")
            names = re.findall(r"\b(switchboard_[a-z0-9_]+)", expr)
            if not names:
                report.problem(G, where, f"expr names no switchboard_ metric: {expr}")
            for name in names:
                base = metric_base(name)
                if name not in defined and base not in defined:
                    report.problem(G, where, f"metric {name} is not defined in Sources/")
                if name.endswith("_bucket") and "histogram_quantile" not in expr:
                    report.problem(G, where, f"{name} used without histogram_quantile")
                used.add(base if base in defined else name)
    for missing in sorted(REQUIRED - used):
        report.problem(G, rel, f"no panel shows {missing}")
    report.say(f"{rel}: {len(data_panels)} panels, {len(used)} metrics, all defined in Sources/")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python3 -m deploycheck.grafana ROOT", file=sys.stderr)
        return 2
    root = argv[0]
    report = Report("deploycheck.grafana")
    defined = exported_metrics(root)
    dashboards = sorted(glob.glob(os.path.join(root, "deploy", "grafana", "*.json")))
    if not dashboards:
        report.problem(G, "deploy/grafana", "no dashboard")
    for path in dashboards:
        rel = os.path.relpath(path, root)
        try:
            with open(path, encoding="utf-8") as f:
                dash = json.load(f)
        except ValueError as error:
            report.problem(G, rel, f"JSON does not parse: {error}")
            continue
        check(report, rel, dash, defined)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
