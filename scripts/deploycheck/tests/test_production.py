import contextlib
import copy
import io
import os
import tempfile
import unittest

import yaml

from ..production import Checker
from .support import CheckerTest

LABELS = {"app.kubernetes.io/name": "switchboard-serve"}
SELECTOR = {"matchLabels": dict(LABELS)}


def serve_render():
    spread = lambda key, when: {"topologyKey": key, "maxSkew": 1, "whenUnsatisfiable": when, "labelSelector": copy.deepcopy(SELECTOR)}
    return [
        {"kind": "PriorityClass", "metadata": {"name": "switchboard-serve"}},
        {"kind": "Deployment", "metadata": {"name": "switchboard-serve"}, "spec": {
            "replicas": 3,
            "template": {"metadata": {"labels": dict(LABELS)}, "spec": {
                "priorityClassName": "switchboard-serve",
                "topologySpreadConstraints": [spread("topology.kubernetes.io/zone", "DoNotSchedule"),
                                              spread("kubernetes.io/hostname", "ScheduleAnyway")],
                "containers": [{"name": "serve", "envFrom": [{"secretRef": {"name": "switchboard-receiver"}}]}],
            }}}},
        {"kind": "PodDisruptionBudget", "metadata": {"name": "switchboard-serve"}, "spec": {"selector": copy.deepcopy(SELECTOR)}},
        {"kind": "NetworkPolicy", "metadata": {"name": "default-deny"},
         "spec": {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]}},
        {"kind": "NetworkPolicy", "metadata": {"name": "switchboard-serve"}, "spec": {
            "podSelector": copy.deepcopy(SELECTOR), "policyTypes": ["Ingress", "Egress"],
            "ingress": [{"from": [{"namespaceSelector": {}}]}],
            "egress": [{"to": [{"namespaceSelector": {}}], "ports": [{"port": 9093}]}]}},
        {"kind": "Ingress", "metadata": {"name": "switchboard-public"}, "spec": {"rules": [{"http": {"paths": [
            {"path": p, "backend": {"service": {"name": "switchboard-serve"}}}
            for p in ("/v1/hooks/", "/v1/firehose/", "/v1/eventbridge/", "/mcp", "/.well-known/oauth-protected-resource/mcp")]}}]}},
    ]


def checker():
    return Checker("/nonexistent", "/nonexistent")


def quietly(function, *args):
    with contextlib.redirect_stdout(io.StringIO()):
        function(*args)


class FencedTest(CheckerTest):
    def fenced(self, docs):
        c = checker()
        quietly(c.fenced, docs, "render", "switchboard-serve", {5432})
        return c.problems

    def test_good_render_passes(self):
        self.assertClean(self.fenced(serve_render()))

    def test_two_replicas_without_zone_spread(self):
        docs = serve_render()
        spec = docs[1]["spec"]
        spec["replicas"] = 2
        spec["template"]["spec"]["topologySpreadConstraints"][0]["whenUnsatisfiable"] = "ScheduleAnyway"
        problems = self.fenced(docs)
        self.assertReports(problems, "Deployment/switchboard-serve", "replicas 2 < 3")
        self.assertReports(problems, "topology.kubernetes.io/zone, maxSkew 1, DoNotSchedule")

    def test_postgres_egress_and_open_ingress(self):
        docs = serve_render()
        policy = docs[4]["spec"]
        policy["egress"][0]["ports"].append({"port": 5432})
        policy["ingress"].append({"ports": [{"port": 8080}]})
        problems = self.fenced(docs)
        self.assertReports(problems, "switchboard-serve may connect to port 5432, which it never needs")
        self.assertReports(problems, "an ingress rule without `from` admits every source")

    def test_without_default_deny(self):
        docs = [d for d in serve_render() if d["metadata"]["name"] != "default-deny"]
        self.assertReports(self.fenced(docs), "no default-deny NetworkPolicy")


class IngressTest(CheckerTest):
    def ingresses(self, docs, receiver="switchboard-serve"):
        c = checker()
        quietly(c.ingresses, docs, "render", receiver)
        return c.problems

    def test_public_paths_pass(self):
        self.assertClean(self.ingresses(serve_render()))

    def test_metrics_routed(self):
        docs = serve_render()
        docs[-1]["spec"]["rules"][0]["http"]["paths"].append({"path": "/metrics", "backend": {"service": {"name": "switchboard-serve"}}})
        problems = self.ingresses(docs)
        self.assertReports(problems, "path /metrics exposes /metrics")
        self.assertReports(problems, "must be exactly")

    def test_receiver_paths_to_the_wrong_service(self):
        self.assertReports(self.ingresses(serve_render(), "switchboard-receive"),
                           "/v1/firehose/ goes to switchboard-serve, not switchboard-receive")


class MetricNamesTest(unittest.TestCase):
    def test_names_without_functions_labels_and_keywords(self):
        expr = ('sum by (namespace, pod) (rate(switchboard_hook_requests_total{outcome="error"}[5m])) '
                '/ on (pod) group_left sum(up{namespace="switchboard"}) > 0 and time() > 0')
        self.assertEqual(Checker.metric_names(expr), {"switchboard_hook_requests_total", "up"})


class TopicsTest(CheckerTest):
    def test_weak_topic(self):
        with tempfile.TemporaryDirectory() as root:
            work = os.path.join(root, "work")
            os.makedirs(work)
            os.makedirs(os.path.join(root, "deploy", "docs"))
            settings = {"kind": "ConfigMap", "metadata": {"name": "switchboard-settings"},
                        "data": {"SWITCHBOARD_TOPIC_CONTACT_RECORDS": "contact-records", "SWITCHBOARD_TOPIC_AGENT_EVENTS": "agent-events"}}
            topic = {"kind": "KafkaTopic", "metadata": {"name": "contact-records", "labels": {"strimzi.io/cluster": "kafka"}},
                     "spec": {"partitions": 12, "replicas": 1, "config": {
                         "min.insync.replicas": 2, "cleanup.policy": "compact", "max.message.bytes": 1048576, "retention.ms": 864000000}}}
            with open(os.path.join(work, "kubernetes.yaml"), "w", encoding="utf-8") as f:
                yaml.safe_dump(settings, f)
            with open(os.path.join(work, "kafka-topics.yaml"), "w", encoding="utf-8") as f:
                yaml.safe_dump(topic, f)
            with open(os.path.join(root, "deploy", "docs", "kubernetes.md"), "w", encoding="utf-8") as f:
                f.write("Retention: 864,000,000 ms.\n\n    kafka-topics.sh --create --topic contact-records "
                        "--replication-factor 3 --config min.insync.replicas=2 --config retention.ms=864000000\n")
            c = Checker(root, work)
            quietly(c.topics)
            self.assertReports(c.problems, "no KafkaTopic for agent-events")
            self.assertReports(c.problems, "contact-records", "replicas 1 < 3")
            self.assertReports(c.problems, "cleanup.policy must be delete, got compact")
            self.assertReports(c.problems, "max.message.bytes 1048576 is not above the 1048576-byte record limit")
            self.assertEqual(len(c.problems), 4, c.problems)


def write(root, path, text):
    os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
    with open(os.path.join(root, path), "w", encoding="utf-8") as f:
        f.write(text)


TEMPLATE = """\
Parameters:
  FailedDeliveryDays:
    Type: Number
    Default: 30
Resources:
  Records:
    Type: AWS::KinesisFirehose::DeliveryStream
    Properties:
      HttpEndpointDestinationConfiguration:
        RetryOptions: {DurationInSeconds: 7200}
        S3BackupMode: FailedDataOnly
  RecordsFailing:
    Type: AWS::CloudWatch::Alarm
    Properties:
      MetricName: DeliveryToHttpEndpoint.Success
      Dimensions: [{Name: DeliveryStreamName, Value: !Ref Records}]
  RecordsLate:
    Type: AWS::CloudWatch::Alarm
    Properties:
      MetricName: DeliveryToHttpEndpoint.DataFreshness
      Dimensions: [{Name: DeliveryStreamName, Value: !Ref Records}]
  Forwarder:
    Type: AWS::Serverless::Function
  ForwarderLogs:
    Type: AWS::Logs::LogGroup
    Properties:
      LogGroupName: !Sub "/aws/lambda/${Forwarder}"
      RetentionInDays: 90
  RuleRole:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument:
        Statement:
          - Effect: Allow
            Principal: {Service: events.amazonaws.com}
            Action: sts:AssumeRole
            Condition:
              ArnEquals: {"aws:SourceArn": !Sub "arn:aws:events:${AWS::Region}:${AWS::AccountId}:rule/r"}
  ForwarderRole:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument:
        Statement:
          - {Effect: Allow, Principal: {Service: lambda.amazonaws.com}, Action: sts:AssumeRole}
  ForwarderFallbacks:
    Type: AWS::CloudWatch::Alarm
    Properties:
      Namespace: Switchboard/HookForwarder
      MetricName: FallbackAnswers
      Dimensions: [{Name: FunctionName, Value: !Ref Forwarder}]
  Failed:
    Type: AWS::S3::Bucket
    Properties:
      LifecycleConfiguration:
        Rules: [{ExpirationInDays: !Ref FailedDeliveryDays}]
"""
HANDLER = 'METRIC_NAMESPACE = "Switchboard/HookForwarder"\nMETRIC_NAME = "FallbackAnswers"\n'


class CloudFormationTest(CheckerTest):
    def alarms(self, template):
        with tempfile.TemporaryDirectory() as root:
            write(root, "deploy/aws/connect-to-switchboard.yaml", template)
            write(root, "deploy/aws/hook-forwarder/handler.py", HANDLER)
            c = Checker(root, root)
            quietly(c.cloudformation)
            return c.problems

    def test_good_template_passes(self):
        self.assertClean(self.alarms(TEMPLATE))

    def test_missing_freshness_alarm_and_short_retry(self):
        template = TEMPLATE.replace("DeliveryToHttpEndpoint.DataFreshness", "ThrottledRecords").replace("7200", "300")
        problems = self.alarms(template)
        self.assertReports(problems, "no alarm on DeliveryToHttpEndpoint.DataFreshness of Records")
        self.assertReports(problems, "Records: RetryOptions.DurationInSeconds must be 7200")

    def test_fallback_alarm_in_another_namespace_and_short_lifecycle(self):
        template = TEMPLATE.replace("Namespace: Switchboard/HookForwarder", "Namespace: Other").replace("Default: 30", "Default: 7")
        problems = self.alarms(template)
        self.assertReports(problems, "no alarm on Switchboard/HookForwarder FallbackAnswers of Forwarder")
        self.assertReports(problems, "Failed: failed deliveries expire after 7 days")

    def test_a_service_role_for_anyone_and_no_log_group(self):
        condition = TEMPLATE[TEMPLATE.index("            Condition:"):TEMPLATE.index("  ForwarderRole:")]
        problems = self.alarms(TEMPLATE.replace(condition, ""))
        self.assertReports(problems, "RuleRole: events.amazonaws.com may assume it for anyone")
        self.assertNotIn("ForwarderRole", " ".join(problems))
        problems = self.alarms(TEMPLATE.replace("${Forwarder}", "other"))
        self.assertReports(problems, "Forwarder: no AWS::Logs::LogGroup")


README = """\
# Kubernetes

```sh
(cd deploy/kubernetes && kustomize edit set image "switchboard=${IMAGE}")
docker inspect --format '{{index .RepoDigests 0}}' switchboard
kubectl create secret generic switchboard-receiver \\
  --from-literal=SWITCHBOARD_FIREHOSE_ACCESS_KEYS="$FIREHOSE_KEY"
aws secretsmanager create-secret --name switchboard/receiver-access-key \\
  --secret-string "$FIREHOSE_KEY"
```

## PostgreSQL connection budget

`SWITCHBOARD_DATABASE_POOL_SIZE`, `SWITCHBOARD_INGEST_LANES`, `max_connections`.

| Who | Count | Total |
| --- | --- | --- |
| ingest | 3 | 30 |
| migrate | 1 | 8 |
| **Sum** | | **38** |

## Next
"""


class ReadmeTest(CheckerTest):
    def readme(self, text):
        with tempfile.TemporaryDirectory() as root:
            write(root, "deploy/docs/kubernetes.md", text)
            c = Checker(root, root)
            quietly(c.readme)
            return c.problems

    def test_good_readme_passes(self):
        self.assertClean(self.readme(README))

    def test_budget_that_does_not_add_up(self):
        self.assertReports(self.readme(README.replace("**38**", "**40**")), "the connection budget's rows add up to 38, not its Sum 40")

    def test_budget_as_the_last_section(self):
        self.assertReports(self.readme(README.replace("## Next\n", "").replace("**38**", "**40**")),
                           "the connection budget's rows add up to 38, not its Sum 40")

    def test_no_budget(self):
        self.assertReports(self.readme(README.replace("## PostgreSQL connection budget", "## Connections")),
                           "deploy/docs/kubernetes.md", "no '## PostgreSQL connection budget' section")

    def test_two_firehose_keys(self):
        self.assertReports(self.readme(README.replace('--secret-string "$FIREHOSE_KEY"', '--secret-string "$OTHER_KEY"')),
                           "step 2 does not give the same key ($FIREHOSE_KEY) to the stack's Secrets Manager secret")


class UpSelectorTest(CheckerTest):
    def test_up_selected_by_a_label_discovery_does_not_set(self):
        with tempfile.TemporaryDirectory() as root:
            write(root, "deploy/prometheus/alerts.yaml", yaml.safe_dump({"groups": [{"name": "g", "rules": [
                {"alert": "Down", "expr": 'up{job="switchboard", app="serve"} == 0'}]}]}))
            write(root, "deploy/prometheus/alerts.test.yaml", yaml.safe_dump({"tests": []}))
            write(root, "deploy/prometheus/scrape-config.yaml", yaml.safe_dump({"scrape_configs": [
                {"job_name": "kubernetes-pods", "relabel_configs": [{"target_label": "namespace"}, {"target_label": "pod"}]}]}))
            c = Checker(root, root)
            quietly(c.prometheus)
            self.assertReports(c.problems, "Down: up{job=\"switchboard\", app=\"serve\"} selects label app")
            self.assertReports(c.problems, "Down: selects up by job name")
            self.assertReports(c.problems, "alerts.test.yaml: no test of Down")


if __name__ == "__main__":
    unittest.main()
