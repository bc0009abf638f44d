"""The generic checks, left to well-kept tools, run by scripts/validate-deploy.sh:

    PYTHONPATH=scripts python3 -m deploycheck.tools ROOT WORK

WORK holds the shell's renders (kubernetes.yaml, kubernetes-receive.yaml, kubernetes-live-flows.yaml,
kafka-topics.yaml). The PyPI tools are pinned in tools.txt and installed by the shell into
.build-deploy/tools; yamllint is Debian's. A tool that is not installed is a problem, never a skip.

- yamllint (yamllint.yaml): every YAML file of docker-compose.yml and deploy/: syntax, duplicate
  keys, indentation, truthy values;
- kubernetes-validate --strict, against the schemas of Kubernetes KUBERNETES_VERSION: each render's
  objects (kind, apiVersion, fields and their types); an apiVersion without a schema (removed or
  misspelled) is a problem, except the custom resources of CUSTOM_KINDS;
- hadolint: deploy/Dockerfile (parsing, USER not root, apt hygiene, shell pitfalls); an ignore is a
  `# hadolint ignore=DLxxxx` comment with its reason above the instruction;
- checkov, once over every input (it takes seconds to start): the renders as the release step
  deploys them (the image by digest, RELEASE_IMAGE: deploy/docs/kubernetes.md pins one and
  production.py checks that it does), for pod and container security contexts, resources,
  service account tokens, probes; deploy/Dockerfile (a USER, a HEALTHCHECK); the CloudFormation
  templates (IAM policies and trusts, encryption, log retention). A skip sits beside its resource,
  with its reason: a `checkov.io/skipN: CKV_…=reason` annotation in a manifest, a
  `# checkov:skip=CKV_…:reason` comment in a template; the summary lists them;
- cfn-lint: the templates of deploy/aws.

Prints each tool's summary; exits 1 with the list of problems.
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

from .common import Report, where_of

KUBERNETES_VERSION = "1.37.0"   # kubernetes-validate 1.37.0's newest schemas
CUSTOM_KINDS = {"KafkaTopic"}   # Strimzi's CRD: no schema here (production.py checks the topics)
RELEASE_IMAGE = "registry.invalid/switchboard@sha256:" + "0" * 64
RENDERS = (
    ("kubernetes.yaml", "kustomize deploy/kubernetes"),
    ("kubernetes-receive.yaml", "kustomize +receive"),
    ("kubernetes-live-flows.yaml", "kustomize +live-flows"),
)
TEMPLATES = ("deploy/aws/connect-to-switchboard.yaml", "deploy/aws/agentcore-gateway.yaml")
HERE = os.path.dirname(os.path.abspath(__file__))
YAMLLINT_CONFIG = os.path.join(HERE, "yamllint.yaml")


def tool(root, name):
    """The tool's path: .build-deploy/tools/bin first (the pinned venv), then the PATH."""
    local = os.path.join(root, ".build-deploy", "tools", "bin", name)
    return local if os.access(local, os.X_OK) else shutil.which(name)


def run(report, root, name, *args):
    """Runs a tool; None (and a problem) when it is not installed."""
    path = tool(root, name)
    if not path:
        report.problem(name, "-", f"{name} is not installed: scripts/validate-deploy.sh installs it "
                                  "(scripts/deploycheck/tools.txt, or apt for yamllint)")
        return None
    return subprocess.run([path, *args], capture_output=True, text=True, check=False, cwd=root)


def version(root, name):
    """A tool's version: the pin of tools.txt for the PyPI ones (starting checkov or cfn-lint only to
    ask takes seconds), else `NAME --version`."""
    with open(os.path.join(HERE, "tools.txt"), encoding="utf-8") as f:
        pins = dict(l.strip().split("==", 1) for l in f if "==" in l and not l.startswith("#"))
    pin = pins.get(name) or pins.get(f"{name}-bin")
    if pin:
        return f"{name} {pin}"
    out = subprocess.run([tool(root, name) or name, "--version"], capture_output=True, text=True, check=False)
    return (out.stdout or out.stderr or "?").strip().splitlines()[0]


def unexplained(report, name, where, out):
    """A tool that failed without a finding we parsed: its output is the problem."""
    text = (out.stdout + out.stderr).strip()
    report.problem(name, where, f"exit {out.returncode}: {text[-600:] or 'no output'}")


# ---------------------------------------------------------------------------------- yamllint
def yamllint(report, root, paths):
    out = run(report, root, "yamllint", "-c", YAMLLINT_CONFIG, "-f", "parsable", *paths)
    if out is None:
        return
    findings = [l for l in out.stdout.splitlines() if re.match(r"^\S+:\d+:\d+: \[", l)]
    for line in findings:
        where, _, message = line.partition(": ")
        report.problem("yamllint", where_of(where, root), message)
    if out.returncode != 0 and not findings:
        unexplained(report, "yamllint", "-", out)
    report.say(f"yamllint ({version(root, 'yamllint')}): {len(paths)} YAML files, {len(findings)} finding(s)")


def yaml_files(root):
    files = glob.glob(os.path.join(root, "deploy", "**", "*.yaml"), recursive=True) \
        + glob.glob(os.path.join(root, "deploy", "**", "*.yml"), recursive=True)
    return ["docker-compose.yml"] + sorted(os.path.relpath(f, root) for f in files)


# ---------------------------------------------------------------------------------- kubernetes-validate
def kubernetes_validate(report, root, renders):
    """renders: [(path, label)]. Fails on an object without a schema (WARN), not only on an ERROR."""
    if not renders:
        return
    out = run(report, root, "kubernetes-validate", "--strict", "--quiet", "-k", KUBERNETES_VERSION,
              *(path for path, _ in renders))
    if out is None:
        return
    labels = dict(renders)
    findings = 0
    for line in (out.stdout + out.stderr).splitlines():
        m = re.match(r"^(ERROR|WARN) (\S+) (.*)$", line)
        if not m:
            continue
        kind = re.search(r"schema for kind (\S+) with api version", m.group(3))
        if m.group(1) == "WARN" and kind and kind.group(1) in CUSTOM_KINDS:
            continue
        findings += 1
        report.problem("kubernetes-validate", labels.get(m.group(2), m.group(2)), m.group(3))
    if out.returncode != 0 and not findings:
        unexplained(report, "kubernetes-validate", "-", out)
    report.say(f"{version(root, 'kubernetes-validate')} --strict, Kubernetes {KUBERNETES_VERSION} "
               f"schemas: {', '.join(label for _, label in renders)}; {findings} finding(s)")


# ---------------------------------------------------------------------------------- hadolint
def hadolint(report, root, dockerfile):
    out = run(report, root, "hadolint", "--no-color", dockerfile)
    if out is None:
        return
    where = where_of(dockerfile, root)
    # `FILE:LINE CODE level: message`, or `FILE:LINE:COLUMN message` when the file does not parse
    findings = [l for l in out.stdout.splitlines() if re.match(r"^\S+:\d+(:\d+)? ", l)]
    for line in findings:
        located, _, message = line.partition(" ")
        position = re.search(r":\d+(:\d+)?$", located).group(0)
        report.problem("hadolint", where + position, message.strip() if re.match(r"DL|SC", message)
                       else f"does not parse: {message.strip()}")
    if out.returncode != 0 and not findings:
        unexplained(report, "hadolint", where, out)
    report.say(f"hadolint ({version(root, 'hadolint')}): {where}, {len(findings)} finding(s)")


# ---------------------------------------------------------------------------------- checkov
def pods(doc):
    """The pod specs of a workload object."""
    spec = (doc or {}).get("spec") or {}
    if doc.get("kind") == "CronJob":
        spec = ((spec.get("jobTemplate") or {}).get("spec")) or {}
    pod = ((spec.get("template") or {}).get("spec")) if doc.get("kind") != "Pod" else spec
    return [pod] if pod else []


def release_render(source, target):
    """A render with the image by digest, as the release step (kustomize edit set image) sets it."""
    with open(source, encoding="utf-8") as f:
        docs = [d for d in yaml.safe_load_all(f) if d]
    for doc in docs:
        for pod in pods(doc):
            for c in (pod.get("containers") or []) + (pod.get("initContainers") or []):
                if re.match(r"^switchboard(:[^/]*)?$", str(c.get("image", ""))):
                    c["image"] = RELEASE_IMAGE
    with open(target, "w", encoding="utf-8") as f:
        yaml.safe_dump_all(docs, f, sort_keys=False)


def start_checkov(report, root, paths):
    """Starts checkov over `paths` (renders, Dockerfiles, templates); finish_checkov reads it."""
    path = tool(root, "checkov")
    if not path:
        run(report, root, "checkov")
        return None
    output = tempfile.NamedTemporaryFile("w+", suffix=".json", delete=False)
    command = [path, "--compact", "--skip-download", "--output", "json",
               "--framework", "kubernetes", "cloudformation", "dockerfile"]
    for p in paths:
        command += ["--file", p]
    process = subprocess.Popen(command, stdout=output, stderr=subprocess.PIPE, text=True, cwd=root)
    return process, output


def finish_checkov(report, root, started, labels):
    """The failures of a checkov run as problems ({absolute path: label} names the inputs); returns
    {label: {check id: [resources]}} of the failures, for the tests."""
    if started is None:
        return {}
    process, output = started
    _, stderr = process.communicate()
    output.seek(0)
    text = output.read()
    output.close()
    os.unlink(output.name)
    try:
        results = json.loads(text) if text.strip() else []
    except ValueError:
        report.problem("checkov", "-", f"exit {process.returncode}, output is not JSON: {(text + stderr)[-600:]}")
        return {}
    results = results if isinstance(results, list) else [results]
    failed, skipped, passed = {}, {}, 0
    for result in results:
        summary = result.get("summary") or {}
        passed += summary.get("passed", 0)
        if summary.get("parsing_errors"):
            report.problem("checkov", result.get("check_type", "-"), f"{summary['parsing_errors']} file(s) do not parse")
        checks = result.get("results") or {}
        for f in checks.get("failed_checks") or []:
            where = labels.get(f.get("file_abs_path"), f.get("file_abs_path") or f.get("file_path"))
            failed.setdefault(where, {}).setdefault(f["check_id"], []).append(f["resource"])
            report.problem("checkov", f"{where} {f['resource']}", f"{f['check_id']} {f['check_name']}")
        for s in checks.get("skipped_checks") or []:
            where = labels.get(s.get("file_abs_path"), s.get("file_abs_path") or s.get("file_path"))
            reason = (s.get("check_result") or {}).get("suppress_comment", "")
            skipped.setdefault((s["check_id"], s["resource"], reason), set()).add(where)
    if process.returncode not in (0, 1) or (process.returncode == 1 and not failed):
        report.problem("checkov", "-", f"exit {process.returncode}: {(stderr or text)[-600:]}")
    report.say(f"{version(root, 'checkov')}: {len(labels)} inputs, {passed} checks passed, "
               f"{sum(len(r) for c in failed.values() for r in c.values())} failed, {len(skipped)} skip(s) beside their resource:")
    for (check, resource, reason), inputs in sorted(skipped.items()):
        report.note(f"skip {check} {resource} ({len(inputs)} input(s)): {reason}")
    return failed


# ---------------------------------------------------------------------------------- cfn-lint
def cfn_lint(report, root, templates):
    out = run(report, root, "cfn-lint", *templates)
    if out is None:
        return
    findings = [l for l in out.stdout.splitlines() if re.match(r"^[EWI]\d{4} ", l)]
    for i, line in enumerate(out.stdout.splitlines()):
        if re.match(r"^[EWI]\d{4} ", line):
            following = out.stdout.splitlines()[i + 1:i + 2]
            report.problem("cfn-lint", following[0] if following else "-", line)
    if out.returncode != 0 and not findings:
        unexplained(report, "cfn-lint", "-", out)
    report.say(f"{version(root, 'cfn-lint')}: {', '.join(templates)}, {len(findings)} finding(s)")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print("usage: python3 -m deploycheck.tools ROOT WORK", file=sys.stderr)
        return 2
    root, work = (os.path.abspath(a) for a in argv)
    report = Report("deploycheck.tools")
    renders = [(os.path.join(work, name), label) for name, label in RENDERS
               if os.path.exists(os.path.join(work, name)) and os.path.getsize(os.path.join(work, name))]
    release = tempfile.mkdtemp(prefix="release-", dir=work)
    labels = {}
    for path, label in renders:
        target = os.path.join(release, os.path.basename(path))
        release_render(path, target)
        labels[target] = f"{label} (image by digest)"
    for path in ("deploy/Dockerfile",) + TEMPLATES:
        labels[os.path.join(root, path)] = path
    started = start_checkov(report, root, list(labels))   # runs while the others do
    yamllint(report, root, yaml_files(root))
    topics = os.path.join(work, "kafka-topics.yaml")
    kubernetes_validate(report, root, renders + ([(topics, "kustomize kafka-topics")] if os.path.exists(topics) else []))
    hadolint(report, root, "deploy/Dockerfile")
    cfn_lint(report, root, list(TEMPLATES))
    finish_checkov(report, root, started, labels)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
