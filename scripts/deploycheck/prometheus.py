"""Checks of deploy/prometheus/alerts.yaml beyond promtool, run by scripts/validate-deploy.sh:

    PYTHONPATH=scripts python3 -m deploycheck.prometheus ROOT

The shell runs `promtool check rules` and `promtool test rules`; this checks what promtool does
not: every switchboard_ metric a rule names is defined in Sources/ (or is one the binary is
expected to add, listed in PLANNED and in deploy/docs/image.md), every rule has a summary and a
description, every runbook link names a section of the index deploy/README.md (or of a page in
deploy/docs/), and a test in
alerts.test.yaml makes every alert fire. (deploycheck.production checks the other metric names
and that `up` is selected by labels the discovery job sets.)

Prints the summary; exits 1 with the list of problems.
"""

import glob
import os
import re
import sys

from .common import Report, anchors, exported_metrics, load_all, metric_base, read

P = "prometheus"
RULES = "deploy/prometheus/alerts.yaml"
TESTS = "deploy/prometheus/alerts.test.yaml"
# Metrics the manifests and rules already expect from the binary (deploy/docs/image.md lists them).
PLANNED = {"switchboard_ready", "switchboard_ingest_oldest_unwritten_batch_age_seconds"}


def rules_of(rules_doc):
    """Every rule of every group of a rules file."""
    return [rule for group in ((rules_doc or {}).get("groups") or []) for rule in group.get("rules") or []]


def readme_anchors(readme):
    """The anchors GitHub gives a Markdown text's headings (fenced code holds none)."""
    return set(anchors(readme))


def check(report, rules_doc, tests_doc, defined, readme, pages=None):
    """`rules_doc` and `tests_doc` are the parsed alerts.yaml and alerts.test.yaml, `defined` the
    metric names Sources/ exports, `readme` deploy/README.md's text, `pages` {path: text} of the
    pages in deploy/docs/."""
    rules = rules_of(rules_doc)
    alert_names, pending = [], set()
    for rule in rules:
        alert_names.append(rule.get("alert") or rule.get("record"))
        for name in re.findall(r"\b(switchboard_[a-z0-9_]+)", rule.get("expr", "")):
            base = metric_base(name)
            if name in defined or base in defined:
                continue
            if base in PLANNED:
                pending.add(base)
            else:
                report.problem(P, RULES, f"{rule.get('alert')}: metric {name} is not defined in Sources/")
        for key in ("summary", "description"):
            if not (rule.get("annotations") or {}).get(key):
                report.problem(P, RULES, f"{rule.get('alert')}: annotation {key} missing")
    documents = {"deploy/README.md": readme, **(pages or {})}
    for rule in rules:
        runbook = (rule.get("annotations") or {}).get("runbook", "")
        if not runbook:
            continue
        path, _, anchor = runbook.partition("#")
        if path not in documents:
            report.problem(P, RULES, f"{rule.get('alert')}: runbook {runbook} names no page of the deployment's "
                                     "documentation (deploy/README.md, deploy/docs/*.md)")
        elif anchor not in readme_anchors(documents[path]):
            report.problem(P, RULES, f"{rule.get('alert')}: runbook {runbook} names no section of {path}")
    firing = {t.get("alertname") for test in ((tests_doc or {}).get("tests") or [])
              for t in test.get("alert_rule_test") or [] if t.get("exp_alerts")}
    for name in alert_names:
        if name not in firing:
            report.problem(P, TESTS, f"no test makes {name} fire")
    report.say(f"deploy/prometheus: {len(alert_names)} alerts, every metric defined in Sources/, each fires in a test"
               + (f"; not exported yet (the binary must add them): {sorted(pending)}" if pending else ""))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python3 -m deploycheck.prometheus ROOT", file=sys.stderr)
        return 2
    root = argv[0]
    report = Report("deploycheck.prometheus")
    rules = load_all(report, os.path.join(root, RULES), root)
    tests = load_all(report, os.path.join(root, TESTS), root)
    pages = {os.path.relpath(p, root): read(p) for p in sorted(glob.glob(os.path.join(root, "deploy", "docs", "*.md")))}
    check(report, rules[0] if rules else {}, tests[0] if tests else {}, exported_metrics(root),
          read(root, "deploy", "README.md"), pages)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
