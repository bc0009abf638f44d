"""Production checks of the deployment material (issue 38), run by scripts/validate-deploy.sh:

    PYTHONPATH=scripts python3 -m deploycheck.production ROOT WORK

WORK holds the renders the shell made: kubernetes.yaml (the base), kubernetes-receive.yaml (the
base + components/receive), kafka-topics.yaml (deploy/kubernetes/kafka-topics). Checks:

- topics: a KafkaTopic per SWITCHBOARD_TOPIC_* of the settings ConfigMap, replicas >= 3,
  min.insync.replicas >= 2, cleanup.policy=delete, max.message.bytes above the 1 MiB record limit,
  retention.ms set; deploy/docs/kubernetes.md's kafka-topics.sh lines carry the same values;
- serve: >= 3 replicas, a zone spread with DoNotSchedule and a host spread, a PriorityClass that
  the render defines, a PodDisruptionBudget, a NetworkPolicy with Ingress and Egress that admits
  only listed sources (serve reaches PostgreSQL, 5432, for its read-only staffing; the separate
  receiver never does);
- ingress: the public Ingress routes exactly the hook and the receiver; no Ingress routes /metrics,
  /ready, /health or everything (/); with components/receive the receiver paths go to
  switchboard-receive, which has its Deployment, PDB and NetworkPolicy;
- Prometheus: every metric a rule or its test names is exported by Sources/ (string literals
  "switchboard_…"), or is on the explicit list of kube-state-metrics / cAdvisor / Prometheus names;
  every alert has a test in alerts.test.yaml; rules on `up` select only labels the annotation
  discovery job (deploy/prometheus/scrape-config.yaml) sets;
- CloudFormation: the alarms on Firehose DeliveryToHttpEndpoint.Success and .DataFreshness (each
  delivery stream), the Kinesis stream's GetRecords.IteratorAgeMilliseconds, the forwarder's
  fallback metric (the namespace and name handler.py writes), Firehose retry 7,200 s, failed-only
  S3 backup kept >= 14 days; a service's role names its source (aws:SourceArn, aws:SourceAccount or
  sts:ExternalId; checkov has no such check); each function's log group declared;
- deploy/docs/kubernetes.md: the release step pins a digest, step 2 gives the receiver's key to Kubernetes
  and to the stack's Secrets Manager secret from one value, the connection budget table adds up
  and names SWITCHBOARD_DATABASE_POOL_SIZE, SWITCHBOARD_INGEST_LANES and max_connections.

Prints each check's summary; exits 1 with the list of problems.
"""

import json
import os
import re
import sys

import yaml

from .common import STEPS, STEPS_PAGE, exported_metrics

# Metrics the rules may use that Switchboard does not export: Prometheus' own and kube-state-metrics'
# (and cAdvisor's, for the dashboard's throttling hints).
EXTERNAL_METRICS = {
    "up",
    "kube_pod_container_status_restarts_total",
    "kube_pod_container_status_last_terminated_reason",
    "kube_pod_status_phase",
    "kube_job_failed",
    "kube_cronjob_status_last_successful_time",
    "kube_deployment_spec_replicas",
    "kube_deployment_status_replicas_available",
    "container_memory_working_set_bytes",
    "container_cpu_cfs_throttled_periods_total",
}
PROMQL_WORDS = {
    "and", "or", "unless", "by", "without", "on", "ignoring", "group_left", "group_right", "offset",
    "bool", "inf", "nan", "le", "time",
}
PUBLIC_PATHS = {
    "/v1/hooks/", "/v1/firehose/", "/v1/eventbridge/", "/mcp", "/.well-known/oauth-protected-resource/mcp",
}
RECEIVER_PATHS = {"/v1/firehose/", "/v1/eventbridge/"}
RECORD_LIMIT = 1048576


class Checker:
    def __init__(self, root, work):
        self.root, self.work = root, work
        self.problems = []

    def problem(self, check, where, message):
        self.problems.append(f"{check}: {where}: {message}")

    def say(self, message):
        print(f"==> {message}")

    def load(self, path):
        try:
            with open(path, encoding="utf-8") as f:
                return [d for d in yaml.safe_load_all(f) if d]
        except (OSError, yaml.YAMLError) as error:
            self.problem("yaml", os.path.relpath(path, self.root), f"does not load: {error}")
            return []

    def read(self, *parts):
        with open(os.path.join(self.root, *parts), encoding="utf-8") as f:
            return f.read()

    # ------------------------------------------------------------------ topics
    def topics(self):
        base = self.load(os.path.join(self.work, "kubernetes.yaml"))
        settings = next((d.get("data") or {} for d in base if d.get("kind") == "ConfigMap"
                         and d["metadata"]["name"] == "switchboard-settings"), {})
        wanted = {v for k, v in settings.items() if k.startswith("SWITCHBOARD_TOPIC_")}
        if not wanted:
            self.problem("topics", "configmap-settings.yaml", "no SWITCHBOARD_TOPIC_* settings")
        docs = self.load(os.path.join(self.work, "kafka-topics.yaml"))
        topics = {(d.get("spec") or {}).get("topicName") or d["metadata"]["name"]: d
                  for d in docs if d.get("kind") == "KafkaTopic"}
        W = "deploy/kubernetes/kafka-topics"
        for name in sorted(wanted - set(topics)):
            self.problem("topics", W, f"no KafkaTopic for {name}")
        retention = set()
        for name, d in sorted(topics.items()):
            spec = d.get("spec") or {}
            config = spec.get("config") or {}
            if not (d.get("metadata") or {}).get("labels", {}).get("strimzi.io/cluster"):
                self.problem("topics", f"{W} {name}", "no strimzi.io/cluster label: the Topic Operator ignores it")
            if int(spec.get("replicas") or 0) < 3:
                self.problem("topics", f"{W} {name}", f"replicas {spec.get('replicas')} < 3")
            if int(config.get("min.insync.replicas") or 0) < 2:
                self.problem("topics", f"{W} {name}", f"min.insync.replicas {config.get('min.insync.replicas')} < 2 "
                                                      "(acks=all is only as strong as it)")
            if config.get("cleanup.policy") != "delete":
                self.problem("topics", f"{W} {name}", f"cleanup.policy must be delete, got {config.get('cleanup.policy')}")
            if int(config.get("max.message.bytes") or 0) <= RECORD_LIMIT:
                self.problem("topics", f"{W} {name}", f"max.message.bytes {config.get('max.message.bytes')} is not above the "
                                                      f"{RECORD_LIMIT}-byte record limit")
            if not config.get("retention.ms"):
                self.problem("topics", f"{W} {name}", "retention.ms not set (derive it: deploy/docs/kubernetes.md, Kafka topics)")
            retention.add(str(config.get("retention.ms")))
            if int(spec.get("partitions") or 0) < 2:
                self.problem("topics", f"{W} {name}", "partitions < 2: one ingest worker at most")
        readme = self.read(*STEPS)
        lines = re.sub(r"\\\n\s*", " ", readme)
        creates = [l for l in lines.splitlines() if "kafka-topics.sh" in l and "--create" in l]
        if not creates:
            self.problem("topics", STEPS_PAGE, "no documented kafka-topics.sh --create line")
        for line in creates:
            rf = re.search(r"--replication-factor\s+(\d+)", line)
            isr = re.search(r"min\.insync\.replicas=(\d+)", line)
            ret = re.search(r"retention\.ms=(\d+)", line)
            if not rf or int(rf.group(1)) < 3:
                self.problem("topics", STEPS_PAGE, "kafka-topics.sh --create without --replication-factor >= 3")
            if not isr or int(isr.group(1)) < 2:
                self.problem("topics", STEPS_PAGE, "kafka-topics.sh --create without min.insync.replicas >= 2")
            if not ret or ret.group(1) not in retention:
                self.problem("topics", STEPS_PAGE, f"kafka-topics.sh retention.ms differs from the KafkaTopics' {sorted(retention)}")
        if len(retention) == 1:
            value = next(iter(retention))
            if f"{int(value):,}" not in readme:
                self.problem("topics", STEPS_PAGE, f"retention.ms {value} is not derived there (no {int(value):,} ms)")
        self.say(f"topics: {sorted(topics)} RF >= 3, min ISR >= 2, delete, max.message.bytes > 1 MiB, "
                 f"retention.ms {sorted(retention)} (derived in {STEPS_PAGE}, kafka-topics.sh lines alike)")

    # ------------------------------------------------------------------ serve
    @staticmethod
    def selects(selector, labels):
        match = (selector or {}).get("matchLabels") or {}
        ok = all(labels.get(k) == v for k, v in match.items())
        for e in (selector or {}).get("matchExpressions") or []:
            if e.get("operator") == "In":
                ok = ok and labels.get(e.get("key")) in (e.get("values") or [])
        return ok and bool(match or (selector or {}).get("matchExpressions"))

    def fenced(self, docs, label, name, egress_forbidden):
        by = lambda kind: [d for d in docs if d.get("kind") == kind]
        deploy = next((d for d in by("Deployment") if d["metadata"]["name"] == name), None)
        if not deploy:
            self.problem("fenced", label, f"no Deployment {name}")
            return
        spec = deploy["spec"]
        pod = spec["template"]["spec"]
        labels = spec["template"]["metadata"].get("labels") or {}
        W = f"{label} Deployment/{name}"
        if (spec.get("replicas") or 1) < 3:
            self.problem("fenced", W, f"replicas {spec.get('replicas')} < 3")
        spreads = {c.get("topologyKey"): c for c in pod.get("topologySpreadConstraints") or []
                   if self.selects(c.get("labelSelector"), labels)}
        zone = spreads.get("topology.kubernetes.io/zone")
        if not zone or zone.get("whenUnsatisfiable") != "DoNotSchedule" or zone.get("maxSkew", 99) > 1:
            self.problem("fenced", W, "needs a topologySpreadConstraint on topology.kubernetes.io/zone, maxSkew 1, DoNotSchedule")
        if "kubernetes.io/hostname" not in spreads:
            self.problem("fenced", W, "needs a topologySpreadConstraint on kubernetes.io/hostname")
        classes = {d["metadata"]["name"] for d in by("PriorityClass")}
        if not pod.get("priorityClassName") or pod["priorityClassName"] not in classes:
            self.problem("fenced", W, f"priorityClassName {pod.get('priorityClassName')} is not a PriorityClass of the render")
        if not any(self.selects(p["spec"].get("selector"), labels) for p in by("PodDisruptionBudget")):
            self.problem("fenced", W, "no PodDisruptionBudget")
        policies = [p for p in by("NetworkPolicy") if self.selects(p["spec"].get("podSelector"), labels)]
        if not policies:
            self.problem("fenced", W, "no NetworkPolicy selects it")
        types = {t for p in policies for t in p["spec"].get("policyTypes") or []}
        if not {"Ingress", "Egress"} <= types:
            self.problem("fenced", W, f"its NetworkPolicies cover {sorted(types)}, not Ingress and Egress")
        for p in policies:
            for rule in p["spec"].get("ingress") or []:
                if not rule.get("from"):
                    self.problem("fenced", f"{label} NetworkPolicy/{p['metadata']['name']}", "an ingress rule without `from` admits every source")
            for rule in p["spec"].get("egress") or []:
                if not rule.get("to") or not rule.get("ports"):
                    self.problem("fenced", f"{label} NetworkPolicy/{p['metadata']['name']}", "an egress rule without `to` and `ports` allows everything")
                for port in rule.get("ports") or []:
                    if port.get("port") in egress_forbidden:
                        self.problem("fenced", f"{label} NetworkPolicy/{p['metadata']['name']}",
                                     f"{name} may connect to port {port.get('port')}, which it never needs")
        if not any(p["spec"].get("podSelector") == {} and {"Ingress", "Egress"} <= set(p["spec"].get("policyTypes") or [])
                   for p in by("NetworkPolicy")):
            self.problem("fenced", label, "no default-deny NetworkPolicy (podSelector {}, Ingress and Egress)")
        self.say(f"{label}: {name} {spec.get('replicas')} replicas, zone spread DoNotSchedule + hosts, "
                 f"PriorityClass {pod.get('priorityClassName')}, PDB, NetworkPolicies {sorted(p['metadata']['name'] for p in policies)}")

    def ingresses(self, docs, label, receiver_service):
        paths = {}
        for d in docs:
            if d.get("kind") != "Ingress":
                continue
            for rule in d["spec"].get("rules") or []:
                for p in (rule.get("http") or {}).get("paths") or []:
                    service = ((p.get("backend") or {}).get("service") or {}).get("name")
                    paths.setdefault(d["metadata"]["name"], {})[p.get("path")] = service
                    for internal in ("/metrics", "/ready", "/health", "/"):
                        if p.get("path") == internal or (internal != "/" and internal.startswith(p.get("path") or "\0")):
                            self.problem("ingress", f"{label} Ingress/{d['metadata']['name']}", f"path {p.get('path')} exposes {internal}")
        public = paths.get("switchboard-public", {})
        if set(public) != PUBLIC_PATHS:
            self.problem("ingress", f"{label} Ingress/switchboard-public", f"routes {sorted(public)}; must be exactly {sorted(PUBLIC_PATHS)}")
        for path in RECEIVER_PATHS:
            if public.get(path) != receiver_service:
                self.problem("ingress", f"{label} Ingress/switchboard-public", f"{path} goes to {public.get(path)}, not {receiver_service}")
        self.say(f"{label}: public Ingress routes {sorted(public)} only (receiver to {receiver_service}); no Ingress routes /metrics, /ready, /health")

    def kubernetes(self):
        base = self.load(os.path.join(self.work, "kubernetes.yaml"))
        self.fenced(base, "kustomize deploy/kubernetes", "switchboard-serve", set())
        self.ingresses(base, "kustomize deploy/kubernetes", "switchboard-serve")
        serve = next((d for d in base if d.get("kind") == "Deployment" and d["metadata"]["name"] == "switchboard-serve"), None)
        refs = {s["secretRef"]["name"] for c in (serve or {}).get("spec", {}).get("template", {}).get("spec", {}).get("containers", [])
                for s in c.get("envFrom") or [] if "secretRef" in s}
        if "switchboard-receiver" not in refs:
            self.problem("fenced", "serve", "does not read the Secret switchboard-receiver (SWITCHBOARD_FIREHOSE_ACCESS_KEYS)")
        receive = self.load(os.path.join(self.work, "kubernetes-receive.yaml"))
        self.fenced(receive, "kustomize +receive", "switchboard-receive", {5432})
        self.ingresses(receive, "kustomize +receive", "switchboard-receive")

    # ------------------------------------------------------------------ Prometheus
    @staticmethod
    def metric_names(expr):
        text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
        text = re.sub(r"\{[^}]*\}", " ", text)
        text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", text)
        text = re.sub(r"\[[^\]]*\]", " ", text)
        names = set()
        for m in re.finditer(r"(?<![\w.$])([a-zA-Z_:][a-zA-Z0-9_:]*)\b(\s*\()?", text):
            word, call = m.group(1), m.group(2)
            if call or word.lower() in PROMQL_WORDS:
                continue
            names.add(word)
        return names

    def prometheus(self):
        exported = exported_metrics(self.root)
        rules = self.load(os.path.join(self.root, "deploy", "prometheus", "alerts.yaml"))
        tests = self.load(os.path.join(self.root, "deploy", "prometheus", "alerts.test.yaml"))
        tested = {t.get("alertname") for test in ((tests[0] if tests else {}).get("tests") or [])
                  for t in test.get("alert_rule_test") or []}
        scrape = self.load(os.path.join(self.root, "deploy", "prometheus", "scrape-config.yaml"))
        target_labels = {"job", "instance"}
        for job in ((scrape[0] if scrape else {}).get("scrape_configs") or []):
            for r in job.get("relabel_configs") or []:
                if r.get("target_label") and not r["target_label"].startswith("__"):
                    target_labels.add(r["target_label"])
        used, alerts = set(), []
        for group in ((rules[0] if rules else {}).get("groups") or []):
            for rule in group.get("rules") or []:
                name = rule.get("alert") or rule.get("record")
                alerts.append(name)
                expr = rule.get("expr", "")
                for metric in self.metric_names(expr):
                    base = re.sub(r"_(bucket|sum|count)$", "", metric)
                    used.add(metric)
                    if metric in EXTERNAL_METRICS:
                        continue
                    if metric not in exported and base not in exported:
                        self.problem("prometheus", "deploy/prometheus/alerts.yaml",
                                     f"{name}: metric {metric} is neither exported by Sources/ nor on the external list")
                for selector in re.findall(r"\bup\s*\{([^}]*)\}", expr):
                    for label in re.findall(r"(\w+)\s*[=!]~?", selector):
                        if label not in target_labels:
                            self.problem("prometheus", "deploy/prometheus/alerts.yaml",
                                         f"{name}: up{{{selector}}} selects label {label}, which the discovery job "
                                         f"(scrape-config.yaml) does not set ({sorted(target_labels)})")
                if re.search(r'\bup\s*\{[^}]*\bjob\s*=', expr):
                    self.problem("prometheus", "deploy/prometheus/alerts.yaml",
                                 f"{name}: selects up by job name; annotation discovery names the job kubernetes-pods (select namespace/pod)")
                if name not in tested:
                    self.problem("prometheus", "deploy/prometheus/alerts.test.yaml", f"no test of {name}")
        self.say(f"prometheus: {len(alerts)} rules, every one tested; {len(used)} metrics used, "
                 f"{len([m for m in used if m not in EXTERNAL_METRICS])} exported by Sources/, "
                 f"external (kube-state-metrics, up): {sorted(m for m in used if m in EXTERNAL_METRICS)}; "
                 f"`up` selected by {sorted(target_labels)} only")

    # ------------------------------------------------------------------ CloudFormation
    def cloudformation(self):
        class Loader(yaml.SafeLoader):
            pass
        def intrinsic(loader, suffix, node):
            if isinstance(node, yaml.ScalarNode):
                value = loader.construct_scalar(node)
            elif isinstance(node, yaml.SequenceNode):
                value = loader.construct_sequence(node, deep=True)
            else:
                value = loader.construct_mapping(node, deep=True)
            return {suffix: value}
        Loader.add_multi_constructor("!", intrinsic)
        W = "deploy/aws/connect-to-switchboard.yaml"
        template = yaml.load(self.read(W), Loader=Loader)
        resources = template.get("Resources") or {}
        params = template.get("Parameters") or {}
        ref = lambda v: v.get("Ref") if isinstance(v, dict) else None
        alarms = [(n, r.get("Properties") or {}) for n, r in resources.items() if r.get("Type") == "AWS::CloudWatch::Alarm"]
        def alarmed(metric, target):
            return [n for n, p in alarms if p.get("MetricName") == metric
                    and any(ref(d.get("Value")) == target for d in p.get("Dimensions") or [])]
        streams = [n for n, r in resources.items() if r.get("Type") == "AWS::KinesisFirehose::DeliveryStream"]
        if not streams:
            self.problem("cloudformation", W, "no Firehose delivery stream")
        for s in streams:
            props = resources[s].get("Properties") or {}
            http = props.get("HttpEndpointDestinationConfiguration") or {}
            for metric in ("DeliveryToHttpEndpoint.Success", "DeliveryToHttpEndpoint.DataFreshness"):
                if not alarmed(metric, s):
                    self.problem("cloudformation", W, f"no alarm on {metric} of {s}")
            if (http.get("RetryOptions") or {}).get("DurationInSeconds") != 7200:
                self.problem("cloudformation", W, f"{s}: RetryOptions.DurationInSeconds must be 7200 (Firehose's maximum)")
            if http.get("S3BackupMode") != "FailedDataOnly":
                self.problem("cloudformation", W, f"{s}: S3BackupMode must be FailedDataOnly")
        for n, r in resources.items():
            if r.get("Type") == "AWS::Kinesis::Stream" and not alarmed("GetRecords.IteratorAgeMilliseconds", n):
                self.problem("cloudformation", W, f"no alarm on GetRecords.IteratorAgeMilliseconds of {n}")
        handler = self.read("deploy", "aws", "hook-forwarder", "handler.py")
        namespace = re.search(r'METRIC_NAMESPACE = "([^"]+)"', handler)
        metric = re.search(r'METRIC_NAME = "([^"]+)"', handler)
        functions = [n for n, r in resources.items() if r.get("Type") in ("AWS::Serverless::Function", "AWS::Lambda::Function")]
        if not namespace or not metric:
            self.problem("cloudformation", "deploy/aws/hook-forwarder/handler.py", "no METRIC_NAMESPACE / METRIC_NAME for the fallback metric")
        else:
            for f in functions:
                if not [n for n in alarmed(metric.group(1), f)
                        if dict(alarms)[n].get("Namespace") == namespace.group(1)]:
                    self.problem("cloudformation", W, f"no alarm on {namespace.group(1)} {metric.group(1)} of {f} (the forwarder's fallbacks)")
        # A role a service assumes on the stack's behalf names who may make it (the confused
        # deputy): the source's ARN, its account or an external id. Lambda's execution role is
        # assumed by the function itself.
        for n, r in resources.items():
            if r.get("Type") != "AWS::IAM::Role":
                continue
            trust = ((r.get("Properties") or {}).get("AssumeRolePolicyDocument") or {}).get("Statement") or []
            for statement in trust:
                services = (statement.get("Principal") or {}).get("Service") or []
                services = [services] if isinstance(services, str) else services
                keys = {k for c in (statement.get("Condition") or {}).values() if isinstance(c, dict) for k in c}
                for service in services:
                    if service != "lambda.amazonaws.com" and not keys & {"aws:SourceArn", "aws:SourceAccount", "sts:ExternalId"}:
                        self.problem("cloudformation", W, f"{n}: {service} may assume it for anyone: condition its trust on aws:SourceArn (or aws:SourceAccount, sts:ExternalId)")
        # Every function's log group is declared (checkov's CKV_AWS_66 then wants its retention):
        # the one Lambda creates keeps its lines (with contact ids) forever.
        groups = [(r.get("Properties") or {}) for r in resources.values() if r.get("Type") == "AWS::Logs::LogGroup"]
        for f in functions:
            if not [g for g in groups if f"${{{f}}}" in json.dumps(g.get("LogGroupName"))]:
                self.problem("cloudformation", W, f"{f}: no AWS::Logs::LogGroup /aws/lambda/${{{f}}}: Lambda's own keeps its logs forever")
        for n, r in resources.items():
            if r.get("Type") != "AWS::S3::Bucket":
                continue
            for rule in ((r.get("Properties") or {}).get("LifecycleConfiguration") or {}).get("Rules") or []:
                days = rule.get("ExpirationInDays")
                if isinstance(days, dict) and "Ref" in days:
                    days = (params.get(days["Ref"]) or {}).get("Default")
                if days is not None and int(days) < 14:
                    self.problem("cloudformation", W, f"{n}: failed deliveries expire after {days} days; keep them longer than a human response time (>= 14)")
        self.say(f"cloudformation: {len(alarms)} alarms: Success and DataFreshness of {streams}, iterator age, "
                 f"forwarder fallbacks ({namespace and namespace.group(1)} {metric and metric.group(1)}); retry 7,200 s; failed-only S3 backup kept >= 14 days; "
                 f"service roles conditioned on their source; {len(functions)} function log group(s) declared")

    # ------------------------------------------------------------------ the deployment steps
    def readme(self):
        text = self.read(*STEPS)
        W = STEPS_PAGE
        steps = re.sub(r"\\\n\s*", " ", text)
        if not re.search(r"kustomize edit set image [^\n]*(@sha256:|\$\{?IMAGE\}?)", steps) or \
                ("RepoDigests" not in text and "@sha256:" not in text):
            self.problem("readme", W, "the release step does not pin the image by digest (kustomize edit set image …@sha256:…)")
        key = re.search(r'SWITCHBOARD_FIREHOSE_ACCESS_KEYS="\$(\w+)"', steps)
        if not key:
            self.problem("readme", W, "step 2 does not put the receiver's key into a Kubernetes Secret")
        elif not re.search(r"aws secretsmanager create-secret[^\n]*\$" + key.group(1), steps):
            self.problem("readme", W, f"step 2 does not give the same key (${key.group(1)}) to the stack's Secrets Manager secret")
        section = re.search(r"(?ms)^##+ PostgreSQL connection budget\n(.*?)(?=^#|\Z)", text)
        if not section:
            self.problem("readme", W, "no '## PostgreSQL connection budget' section")
        else:
            body = section.group(1)
            for word in ("SWITCHBOARD_DATABASE_POOL_SIZE", "SWITCHBOARD_INGEST_LANES", "max_connections"):
                if word not in body:
                    self.problem("readme", W, f"the connection budget does not name {word}")
            rows = [r for r in body.splitlines() if r.startswith("|") and not r.startswith("| ---")][1:]
            total = None
            parts = []
            for r in rows:
                cells = [c.strip().strip("*") for c in r.strip("|").split("|")]
                if cells[0].lower() == "sum":
                    total = int(cells[-1])
                elif cells[-1].isdigit():
                    parts.append(int(cells[-1]))
            if total is None or total != sum(parts):
                self.problem("readme", W, f"the connection budget's rows add up to {sum(parts)}, not its Sum {total}")
        self.say(f"{W}: release pins a digest; one Firehose key for the Secret and the stack; connection budget adds up")

    def run(self):
        for check in (self.topics, self.kubernetes, self.prometheus, self.cloudformation, self.readme):
            try:
                check()
            except Exception as error:  # a malformed file must fail the check, not crash the rest
                self.problem(check.__name__, "-", f"{type(error).__name__}: {error}")
        if self.problems:
            print(f"\ndeploycheck: {len(self.problems)} problem(s):", file=sys.stderr)
            for p in self.problems:
                print(f"  - {p}", file=sys.stderr)
            return 1
        return 0


if __name__ == "__main__":
    sys.exit(Checker(sys.argv[1], sys.argv[2]).run())
