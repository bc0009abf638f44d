"""The checks moved to the tools (deploycheck.tools) still fail: each tool gets a good input, which
passes, and deliberately broken ones, each of which it must report. The tools must be installed
(scripts/validate-deploy.sh installs them first): a missing tool fails these tests, never skips them.
"""
import copy
import os
import shutil
import tempfile
import unittest

import yaml

from .. import tools
from .support import CheckerTest, report

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

GOOD_POD = {
    "automountServiceAccountToken": False,
    "securityContext": {"runAsNonRoot": True, "runAsUser": 10001, "seccompProfile": {"type": "RuntimeDefault"}},
    "containers": [{
        "name": "app", "image": tools.RELEASE_IMAGE,
        "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"cpu": "1", "memory": "256Mi"}},
        "securityContext": {"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True,
                            "capabilities": {"drop": ["ALL"]}},
    }],
}


def deployment(name, pod=None, api="apps/v1", annotations=None):
    labels = {"app": name}
    meta = {"name": name, "namespace": "t", **({"annotations": annotations} if annotations else {})}
    return {"apiVersion": api, "kind": "Deployment", "metadata": meta,
            "spec": {"selector": {"matchLabels": labels},
                     "template": {"metadata": {"labels": labels}, "spec": pod or copy.deepcopy(GOOD_POD)}}}


def broken_pod(change):
    pod = copy.deepcopy(GOOD_POD)
    change(pod, pod["containers"][0])
    return pod


# One Deployment per broken pod security or resources setting: (name, the check that fails, change).
K8S_BROKEN = (
    ("may-run-as-root", "CKV_K8S_23", lambda p, c: [p["securityContext"].pop(k) for k in ("runAsNonRoot", "runAsUser")]),
    ("writable-root", "CKV_K8S_22", lambda p, c: c["securityContext"].pop("readOnlyRootFilesystem")),
    ("capabilities-kept", "CKV_K8S_37", lambda p, c: c["securityContext"].pop("capabilities")),
    ("privilege-escalation", "CKV_K8S_20", lambda p, c: c["securityContext"].update(allowPrivilegeEscalation=True)),
    ("no-memory-request", "CKV_K8S_12", lambda p, c: c["resources"]["requests"].pop("memory")),
    ("no-memory-limit", "CKV_K8S_13", lambda p, c: c["resources"]["limits"].pop("memory")),
    ("no-cpu-request", "CKV_K8S_10", lambda p, c: c["resources"]["requests"].pop("cpu")),
    ("token-mounted", "CKV_K8S_38", lambda p, c: p.pop("automountServiceAccountToken")),
)
GOOD_DOCKERFILE = """FROM debian:bookworm-slim
# hadolint ignore=DL3008
RUN apt-get update && apt-get install -y --no-install-recommends curl && rm -rf /var/lib/apt/lists/*
USER 10001:10001
HEALTHCHECK CMD ["curl", "-fsS", "http://127.0.0.1:8080/health"]
ENTRYPOINT ["/bin/true"]
"""
GOOD_TEMPLATE = {
    "AWSTemplateFormatVersion": "2010-09-09",
    "Resources": {
        "Role": {"Type": "AWS::IAM::Role", "Properties": {
            "AssumeRolePolicyDocument": {"Version": "2012-10-17", "Statement": [{
                "Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"}]},
            "Policies": [{"PolicyName": "read", "PolicyDocument": {"Version": "2012-10-17", "Statement": [{
                "Effect": "Allow", "Action": ["secretsmanager:GetSecretValue"],
                "Resource": "arn:aws:secretsmanager:eu-west-1:123456789012:secret:x"}]}}]}},
        "Logs": {"Type": "AWS::Logs::LogGroup", "Properties": {"LogGroupName": "x", "RetentionInDays": 90}},
    },
}


def write(directory, name, text):
    path = os.path.join(directory, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text if isinstance(text, str) else yaml.safe_dump_all(text, sort_keys=False))
    return path


class Tools(CheckerTest):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="deploycheck-tools-")
        inputs = {}
        docs = [deployment("good")] + [deployment(name, broken_pod(change)) for name, _, change in K8S_BROKEN]
        docs.append(deployment("skipped", broken_pod(K8S_BROKEN[0][2]),
                               annotations={"checkov.io/skip1": "CKV_K8S_23=a reason beside the resource"}))
        inputs[write(cls.dir, "k8s/deployments.yaml", docs)] = "deployments"
        inputs[write(cls.dir, "good/Dockerfile", GOOD_DOCKERFILE)] = "good Dockerfile"
        inputs[write(cls.dir, "no-user/Dockerfile", GOOD_DOCKERFILE.replace("USER 10001:10001\n", ""))] = "no USER"
        inputs[write(cls.dir, "cfn/good.yaml", [GOOD_TEMPLATE])] = "good template"
        wildcard = copy.deepcopy(GOOD_TEMPLATE)
        wildcard["Resources"]["Role"]["Properties"]["Policies"][0]["PolicyDocument"]["Statement"][0].update(
            Action="*", Resource="*")
        inputs[write(cls.dir, "cfn/wildcard.yaml", [wildcard])] = "wildcard policy"
        forever = copy.deepcopy(GOOD_TEMPLATE)
        del forever["Resources"]["Logs"]["Properties"]["RetentionInDays"]
        inputs[write(cls.dir, "cfn/forever.yaml", [forever])] = "log group kept forever"
        # checkov (seconds to start) runs once, in the background, while the other tests run.
        cls.checkov_report = report()
        cls.checkov_inputs = inputs
        cls.checkov = tools.start_checkov(cls.checkov_report, ROOT, list(inputs))
        cls.checkov_failed = None

    @property
    def failed(self):
        cls = type(self)
        if cls.checkov_failed is None:
            cls.checkov_failed = tools.finish_checkov(cls.checkov_report, ROOT, cls.checkov, cls.checkov_inputs)
        return cls.checkov_failed

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def problems(self, check, *args):
        r = report()
        check(r, ROOT, *args)
        return r.problems

    # ------------------------------------------------------------------ checkov
    def test_z_checkov_ran(self):
        self.assertIn("deployments", self.failed, self.checkov_report.problems)
        self.assertNotIn("not installed", " ".join(self.checkov_report.problems))

    def test_z_checkov_reports_each_broken_pod_setting(self):
        deployments = self.failed.get("deployments", {})
        for name, check, _ in K8S_BROKEN:
            with self.subTest(name):
                self.assertIn(f"Deployment.t.{name}", deployments.get(check, []), self.checkov_report.problems)
                self.assertNotIn("Deployment.t.good", deployments.get(check, []))

    def test_z_checkov_skip_annotation_beside_the_resource(self):
        self.assertNotIn("Deployment.t.skipped", self.failed.get("deployments", {}).get("CKV_K8S_23", []))

    def test_z_checkov_reports_a_dockerfile_without_user(self):
        self.assertIn("CKV_DOCKER_3", self.failed.get("no USER", {}))
        self.assertNotIn("CKV_DOCKER_3", self.failed.get("good Dockerfile", {}))

    def test_z_checkov_reports_iam_wildcards_and_log_retention(self):
        self.assertIn("CKV_AWS_63", self.failed.get("wildcard policy", {}))   # "*" as actions
        self.assertIn("CKV_AWS_66", self.failed.get("log group kept forever", {}))
        good = self.failed.get("good template", {})
        self.assertNotIn("CKV_AWS_63", good)
        self.assertNotIn("CKV_AWS_66", good)

    def test_z_release_render_pins_the_image(self):
        source = write(self.dir, "render.yaml", [deployment("x", broken_pod(lambda p, c: c.update(image="switchboard:latest")))])
        target = os.path.join(self.dir, "release.yaml")
        tools.release_render(source, target)
        with open(target, encoding="utf-8") as f:
            doc = yaml.safe_load(f)
        self.assertEqual(doc["spec"]["template"]["spec"]["containers"][0]["image"], tools.RELEASE_IMAGE)

    # ------------------------------------------------------------------ kubernetes-validate
    def test_kubernetes_validate_good(self):
        path = write(self.dir, "kv/good.yaml", [deployment("good")])
        self.assertClean(self.problems(tools.kubernetes_validate, [(path, "good")]))

    def test_kubernetes_validate_reports_an_unknown_api_version(self):
        path = write(self.dir, "kv/api.yaml", [deployment("old", api="extensions/v1beta1")])
        self.assertReports(self.problems(tools.kubernetes_validate, [(path, "old api")]), "kubernetes-validate", "old api",
                           "extensions/v1beta1")

    def test_kubernetes_validate_reports_an_unknown_field(self):
        path = write(self.dir, "kv/field.yaml", [deployment("typo", broken_pod(lambda p, c: c.update(imagePullPolicyy="Always")))])
        self.assertReports(self.problems(tools.kubernetes_validate, [(path, "typo")]), "typo", "imagePullPolicyy")

    def test_kubernetes_validate_reports_a_missing_selector(self):
        d = deployment("no-selector")
        del d["spec"]["selector"]
        path = write(self.dir, "kv/selector.yaml", [d])
        self.assertReports(self.problems(tools.kubernetes_validate, [(path, "no selector")]), "selector")

    def test_kubernetes_validate_accepts_the_custom_kinds(self):
        path = write(self.dir, "kv/topic.yaml", [{"apiVersion": "kafka.strimzi.io/v1beta2", "kind": "KafkaTopic",
                                                  "metadata": {"name": "t"}, "spec": {"partitions": 3}}])
        self.assertClean(self.problems(tools.kubernetes_validate, [(path, "topic")]))

    # ------------------------------------------------------------------ hadolint
    def test_hadolint_good(self):
        self.assertClean(self.problems(tools.hadolint, write(self.dir, "h/good/Dockerfile", GOOD_DOCKERFILE)))

    def test_hadolint_reports_user_root(self):
        path = write(self.dir, "h/root/Dockerfile", GOOD_DOCKERFILE.replace("USER 10001:10001", "USER root"))
        self.assertReports(self.problems(tools.hadolint, path), "hadolint", "DL3002")

    def test_hadolint_reports_apt_hygiene(self):
        path = write(self.dir, "h/apt/Dockerfile", GOOD_DOCKERFILE.replace(" --no-install-recommends", "")
                     .replace(" && rm -rf /var/lib/apt/lists/*", ""))
        problems = self.problems(tools.hadolint, path)
        self.assertReports(problems, "DL3015")   # --no-install-recommends
        self.assertReports(problems, "DL3009")   # the apt lists kept in the layer

    def test_hadolint_reports_a_parse_error(self):
        path = write(self.dir, "h/parse/Dockerfile", GOOD_DOCKERFILE + "COPY\nFROBNICATE all\n")
        self.assertReports(self.problems(tools.hadolint, path), "hadolint", "Dockerfile:7", "does not parse")

    # ------------------------------------------------------------------ yamllint
    def test_yamllint_good(self):
        self.assertClean(self.problems(tools.yamllint, [write(self.dir, "y/good.yaml", "a: [1, 2]\nb: true\n")]))

    def test_yamllint_reports_a_syntax_error(self):
        path = write(self.dir, "y/syntax.yaml", "a: [1, 2\nb: 3\n")
        self.assertReports(self.problems(tools.yamllint, [path]), "yamllint", "syntax")

    def test_yamllint_reports_a_duplicate_key(self):
        path = write(self.dir, "y/duplicate.yaml", "a: 1\na: 2\n")
        self.assertReports(self.problems(tools.yamllint, [path]), "yamllint", "key-duplicates")

    # ------------------------------------------------------------------ cfn-lint
    def test_cfn_lint_reports_an_unknown_resource_type(self):
        broken = copy.deepcopy(GOOD_TEMPLATE)
        broken["Resources"]["Logs"]["Type"] = "AWS::Logs::LogGrup"
        paths = [write(self.dir, "cl/broken.yaml", [broken]), write(self.dir, "cl/good.yaml", [GOOD_TEMPLATE])]
        problems = self.problems(tools.cfn_lint, paths)   # one run: cfn-lint takes seconds to start
        self.assertReports(problems, "cfn-lint", "E3006", "broken.yaml")
        self.assertNotIn("good.yaml", " ".join(problems))

    # ------------------------------------------------------------------ a missing tool fails
    def test_a_missing_tool_is_a_problem(self):
        r = report()
        self.assertIsNone(tools.run(r, self.dir, "no-such-deploy-tool"))
        self.assertReports(r.problems, "not installed")


if __name__ == "__main__":
    unittest.main()
