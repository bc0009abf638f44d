import copy
import os
import tempfile
import unittest

import yaml

from .. import kubernetes
from .support import CheckerTest, report

NS = "switchboard"
CA_VOLUMES = [
    {"name": "postgres-ca", "secret": {"secretName": "switchboard-postgres-ca", "optional": True}},
    {"name": "kafka-ca", "secret": {"secretName": "switchboard-kafka-ca", "optional": True}},
]
POSTGRES_CA = {"name": "postgres-ca", "mountPath": "/etc/switchboard/postgres-ca", "readOnly": True}
KAFKA_CA = {"name": "kafka-ca", "mountPath": "/etc/switchboard/kafka-ca", "readOnly": True}

# The Secrets deploy/docs/kubernetes.md's steps create, as documented_secrets gives them.
def database_secret(user):
    return {"stringData": {"SWITCHBOARD_DATABASE_URL": f"postgres://{user}:$PASSWORD@db:5432/switchboard"
                                                       "?sslmode=verify-full&sslrootcert=/etc/switchboard/postgres-ca/ca.crt"}}


SECRETS = {
    "switchboard-database-owner": database_secret("switchboard_owner"),
    "switchboard-database-staffing": {"stringData": {
        "SWITCHBOARD_STAFFING_DATABASE_URL": database_secret("switchboard_serve")["stringData"]["SWITCHBOARD_DATABASE_URL"]}},
    "switchboard-database-writer": database_secret("switchboard_ingest"),
    "switchboard-database-retention": database_secret("switchboard_retention_job"),
    "switchboard-kafka": {"stringData": {"SWITCHBOARD_KAFKA_PROPERTIES": "security.protocol=SSL,ssl.ca.location=/etc/switchboard/kafka-ca/ca.crt"}},
    "switchboard-serve": {"stringData": {"SWITCHBOARD_HOOK_TOKENS": "<file hook>", "SWITCHBOARD_CONSOLE_TOKENS": "<file console>"}},
    "switchboard-receiver": {"stringData": {"SWITCHBOARD_FIREHOSE_ACCESS_KEYS": "key"}},
}


def meta(name, **extra):
    return {"name": name, "namespace": NS, **extra}


def container(role, secrets, mounts, **extra):
    return {
        "name": role, "image": "switchboard:latest", "args": [role],
        "envFrom": [{"configMapRef": {"name": "switchboard-settings"}}] + [{"secretRef": {"name": s}} for s in secrets],
        "ports": [{"name": "http", "containerPort": 8080}],
        "resources": {"requests": {"cpu": "250m", "memory": "256Mi"}, "limits": {"memory": "1Gi"}},
        "volumeMounts": mounts,
        **extra,
    }


def http(path, **extra):
    return {"httpGet": {"path": path, "port": "http"}, **extra}


def deployment(name, replicas, pod, role):
    labels = {"app.kubernetes.io/name": name}
    return {
        "apiVersion": "apps/v1", "kind": "Deployment", "metadata": meta(name),
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": dict(labels)},
            "strategy": {"rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1}},
            "template": {
                "metadata": {"labels": dict(labels),
                             "annotations": {"prometheus.io/scrape": "true", "prometheus.io/path": "/metrics"}},
                "spec": dict(pod),
            },
        },
    }


def pdb(name, **budget):
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": meta(name),
            "spec": {**budget, "selector": {"matchLabels": {"app.kubernetes.io/name": name}}}}


def good_render():
    ingest = container("ingest", ["switchboard-database-writer", "switchboard-kafka"], [POSTGRES_CA, KAFKA_CA],
                       readinessProbe=http("/ready"), livenessProbe=http("/health"))
    ingest["resources"] = {"requests": {"cpu": "500m", "memory": "320Mi"}, "limits": {"memory": "512Mi"}}
    serve = container("serve", ["switchboard-serve", "switchboard-receiver", "switchboard-kafka",
                                "switchboard-database-staffing"], [KAFKA_CA, POSTGRES_CA],
                      readinessProbe=http("/ready/hook"), livenessProbe=http("/health"),
                      startupProbe=http("/ready", periodSeconds=5, failureThreshold=120),
                      lifecycle={"preStop": {"exec": {"command": ["/bin/sleep", "10"]}}})
    migrate = container("migrate", ["switchboard-database-owner"], [POSTGRES_CA])
    retention = container("retention", ["switchboard-database-retention"], [POSTGRES_CA])
    return [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS}},
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta("switchboard-settings"),
         "data": {"SWITCHBOARD_HTTP_HOST": "0.0.0.0"}},
        {"apiVersion": "v1", "kind": "Service", "metadata": meta("switchboard-serve"),
         "spec": {"selector": {"app.kubernetes.io/name": "switchboard-serve"}, "ports": [{"port": 80, "targetPort": "http"}]}},
        deployment("switchboard-ingest", 2, {"terminationGracePeriodSeconds": 60, "containers": [ingest],
                                             "volumes": copy.deepcopy(CA_VOLUMES)}, "ingest"),
        deployment("switchboard-serve", 3, {"terminationGracePeriodSeconds": 45, "containers": [serve],
                                            "volumes": copy.deepcopy(CA_VOLUMES)}, "serve"),
        {"apiVersion": "batch/v1", "kind": "Job", "metadata": meta("switchboard-migrate"),
         "spec": {"template": {"spec": {"restartPolicy": "OnFailure", "containers": [migrate],
                                        "volumes": copy.deepcopy(CA_VOLUMES[:1])}}}},
        {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta("switchboard-retention"),
         "spec": {"jobTemplate": {"spec": {"template": {"spec": {
             "restartPolicy": "OnFailure", "containers": [retention], "volumes": copy.deepcopy(CA_VOLUMES[:1])}}}}}},
        pdb("switchboard-ingest", maxUnavailable=1),
        pdb("switchboard-serve", minAvailable=2),
    ]


def find(docs, kind, name):
    return next(d for d in docs if d["kind"] == kind and d["metadata"]["name"] == name)


def pod(docs, name):
    return find(docs, "Deployment", name)["spec"]["template"]["spec"]


def job_container(docs, kind, name):
    spec = find(docs, kind, name)["spec"]
    spec = spec["jobTemplate"]["spec"] if kind == "CronJob" else spec
    return spec["template"]["spec"]["containers"][0]


def checked(docs, live_flows=False, secrets=SECRETS, external=(), text=None):
    r = report()
    text = yaml.safe_dump_all(docs) if text is None else text
    kubernetes.Render(r, docs, text, "render", live_flows, secrets, external).check()
    return r.problems


class RenderTest(CheckerTest):
    def test_good_render_passes(self):
        self.assertClean(checked(good_render()))

    def test_nothing_rendered(self):
        self.assertReports(checked([]), "render: rendered nothing")

    def test_http_host_not_all_interfaces(self):
        docs = good_render()
        pod(docs, "switchboard-ingest")["containers"][0]["env"] = [{"name": "SWITCHBOARD_HTTP_HOST", "value": "127.0.0.1"}]
        self.assertReports(checked(docs), "container ingest", "SWITCHBOARD_HTTP_HOST must be 0.0.0.0")

    def test_ingest_memory_below_the_measured_rss(self):
        docs = good_render()
        pod(docs, "switchboard-ingest")["containers"][0]["resources"]["requests"]["memory"] = "128Mi"
        self.assertReports(checked(docs), "memory request 128Mi is below the measured 253 MiB")

    def test_ingest_limit_without_headroom(self):
        docs = good_render()
        pod(docs, "switchboard-ingest")["containers"][0]["resources"]["limits"]["memory"] = "330Mi"
        problems = checked(docs)
        self.assertReports(problems, "memory limit 330Mi leaves no headroom over the request")
        self.assertReports(problems, "memory limit 330Mi is below the measured RSS")

    def test_ingest_request_far_above_the_measurement(self):
        docs = good_render()
        resources = pod(docs, "switchboard-ingest")["containers"][0]["resources"]
        resources["requests"]["memory"], resources["limits"]["memory"] = "2Gi", "4Gi"
        self.assertReports(checked(docs), "memory request 2Gi is over twice the measured 253 MiB")

    def test_a_secret_in_the_render(self):
        docs = good_render() + [{"apiVersion": "v1", "kind": "Secret", "metadata": meta("switchboard-serve"),
                                 "stringData": {"SWITCHBOARD_HOOK_TOKENS": "x"}}]
        self.assertReports(checked(docs), "Secret/switchboard-serve", "`kubectl apply -k` would overwrite the real one")

    def test_placeholder_value(self):
        docs = good_render()
        find(docs, "ConfigMap", "switchboard-settings")["data"]["SWITCHBOARD_KAFKA_BOOTSTRAP"] = "CHANGE-ME:9093"
        text = yaml.safe_dump_all(docs)
        line = next(i for i, l in enumerate(text.splitlines(), 1) if "CHANGE-ME" in l)
        self.assertReports(checked(docs, text=text), f"render line {line}", "placeholder value 'CHANGE-ME'")

    def test_wrong_namespace(self):
        docs = good_render()
        find(docs, "Service", "switchboard-serve")["metadata"]["namespace"] = "default"
        self.assertReports(checked(docs), "Service/switchboard-serve", "namespace should be switchboard")

    def test_serve_readiness_on_ready(self):
        docs = good_render()
        pod(docs, "switchboard-serve")["containers"][0]["readinessProbe"] = http("/ready")
        self.assertReports(checked(docs), "readinessProbe must be httpGet /ready/hook, got /ready",
                           "readiness must not depend on Kafka")

    def test_probe_on_an_unnamed_port(self):
        docs = good_render()
        pod(docs, "switchboard-ingest")["containers"][0]["livenessProbe"]["httpGet"]["port"] = "metrics"
        self.assertReports(checked(docs), "livenessProbe port metrics is not a named container port")

    def test_serve_startup_budget_too_short(self):
        docs = good_render()
        pod(docs, "switchboard-serve")["containers"][0]["startupProbe"] = http("/ready", periodSeconds=10, failureThreshold=6)
        self.assertReports(checked(docs), "startupProbe allows 60 s")

    def test_serve_without_prestop(self):
        docs = good_render()
        del pod(docs, "switchboard-serve")["containers"][0]["lifecycle"]
        self.assertReports(checked(docs), "lifecycle.preStop must sleep >= 5 s")

    def test_serve_prestop_sleep_action(self):
        docs = good_render()
        pod(docs, "switchboard-serve")["containers"][0]["lifecycle"] = {"preStop": {"sleep": {"seconds": 10}}}
        self.assertClean(checked(docs))

    def test_serve_grace_shorter_than_prestop_drain_and_close(self):
        docs = good_render()
        pod(docs, "switchboard-serve")["terminationGracePeriodSeconds"] = 25
        self.assertReports(checked(docs), "terminationGracePeriodSeconds 25 < preStop 10 + drain 5 + consumer close 15 s")

    def test_ingest_grace_too_short(self):
        docs = good_render()
        pod(docs, "switchboard-ingest")["terminationGracePeriodSeconds"] = 20
        self.assertReports(checked(docs), "terminationGracePeriodSeconds 20 is too short to finish a batch")

    def test_one_replica_and_unavailable_rollout(self):
        docs = good_render()
        spec = find(docs, "Deployment", "switchboard-ingest")["spec"]
        spec["replicas"] = 1
        spec["strategy"]["rollingUpdate"]["maxUnavailable"] = "25%"
        problems = checked(docs)
        self.assertReports(problems, "replicas should be >= 2")
        self.assertReports(problems, "rollingUpdate.maxUnavailable must be 0")

    def test_selector_not_matching_the_pods(self):
        docs = good_render()
        find(docs, "Deployment", "switchboard-ingest")["spec"]["selector"]["matchLabels"]["app.kubernetes.io/name"] = "ingest"
        self.assertReports(checked(docs), "selector app.kubernetes.io/name=ingest does not match template labels")

    def test_without_prometheus_annotations(self):
        docs = good_render()
        del find(docs, "Deployment", "switchboard-serve")["spec"]["template"]["metadata"]["annotations"]
        self.assertReports(checked(docs), "prometheus.io/scrape and prometheus.io/path=/metrics")

    def test_role_receiving_a_secret_it_does_not_need(self):
        docs = good_render()
        pod(docs, "switchboard-ingest")["containers"][0]["envFrom"].append({"secretRef": {"name": "switchboard-serve"}})
        self.assertReports(checked(docs), "`ingest` must not receive SWITCHBOARD_CONSOLE_TOKENS")

    def test_role_missing_a_secret(self):
        docs = good_render()
        find(docs, "Job", "switchboard-migrate")["spec"]["template"]["spec"]["containers"][0]["envFrom"].pop()
        self.assertReports(checked(docs), "Job/switchboard-migrate", "`migrate` needs SWITCHBOARD_DATABASE_URL from a Secret")

    def test_ingest_reusing_the_owner_secret(self):
        docs = good_render()
        pod(docs, "switchboard-ingest")["containers"][0]["envFrom"][1] = {"secretRef": {"name": "switchboard-database-owner"}}
        problems = checked(docs)
        self.assertReports(problems, "Secret switchboard-database-owner gives SWITCHBOARD_DATABASE_URL to ingest, migrate",
                           "one Secret per role")
        self.assertReports(problems, "`ingest` connects as switchboard_owner, the schema's owner (migrate's login)")

    def test_retention_as_the_owner_from_a_secret_of_its_own(self):
        secrets = copy.deepcopy(SECRETS)
        secrets["switchboard-database-retention"] = database_secret("switchboard_owner")
        self.assertReports(checked(good_render(), secrets=secrets), "`retention` connects as switchboard_owner, the schema's owner")

    def test_owner_url_by_a_single_key_reference(self):
        docs = good_render()
        c = pod(docs, "switchboard-ingest")["containers"][0]
        c["envFrom"] = [e for e in c["envFrom"] if (e.get("secretRef") or {}).get("name") != "switchboard-database-writer"]
        c["env"] = [{"name": "SWITCHBOARD_DATABASE_URL",
                     "valueFrom": {"secretKeyRef": {"name": "switchboard-database-owner", "key": "SWITCHBOARD_DATABASE_URL"}}}]
        self.assertReports(checked(docs), "Secret switchboard-database-owner gives SWITCHBOARD_DATABASE_URL to ingest, migrate")

    def test_administrator_logins(self):
        secrets = copy.deepcopy(SECRETS)
        secrets["switchboard-database-writer"] = database_secret("postgres")
        secrets["switchboard-database-owner"] = database_secret("rdsadmin")
        problems = checked(good_render(), secrets=secrets)
        self.assertReports(problems, "container ingest", "`ingest` connects as postgres, an administrator's login")
        self.assertReports(problems, "container migrate", "`migrate` connects as rdsadmin, an administrator's login")

    def test_roles_sharing_a_login(self):
        secrets = copy.deepcopy(SECRETS)
        secrets["switchboard-database-retention"] = database_secret("switchboard_ingest")
        self.assertReports(checked(good_render(), secrets=secrets), "ingest, retention share the login switchboard_ingest")

    def test_database_url_without_a_user(self):
        secrets = copy.deepcopy(SECRETS)
        secrets["switchboard-database-writer"]["stringData"]["SWITCHBOARD_DATABASE_URL"] = "postgres://db:5432/switchboard"
        self.assertReports(checked(good_render(), secrets=secrets), "container ingest",
                           "the database URL of Secret switchboard-database-writer names no user")

    def test_two_database_secrets_in_one_role(self):
        docs = good_render()
        job_container(docs, "CronJob", "switchboard-retention")["envFrom"].append(
            {"secretRef": {"name": "switchboard-database-writer"}})
        problems = checked(docs)
        self.assertReports(problems, "`retention` takes SWITCHBOARD_DATABASE_URL from several Secrets")
        self.assertReports(problems, "Secret switchboard-database-writer gives SWITCHBOARD_DATABASE_URL to ingest, retention")

    def test_serve_staffing_reader(self):
        secrets = copy.deepcopy(SECRETS)
        secrets["switchboard-database-staffing"]["stringData"]["SWITCHBOARD_STAFFING_DATABASE_URL"] = \
            database_secret("switchboard_owner")["stringData"]["SWITCHBOARD_DATABASE_URL"]
        self.assertReports(checked(good_render(), secrets=secrets),
                           "`serve` connects as switchboard_owner, the schema's owner")
        docs = good_render()
        pod(docs, "switchboard-ingest")["containers"][0]["envFrom"].append(
            {"secretRef": {"name": "switchboard-database-staffing"}})
        self.assertReports(checked(docs), "`ingest` must not receive SWITCHBOARD_STAFFING_DATABASE_URL")
        docs = good_render()
        c = pod(docs, "switchboard-serve")["containers"][0]
        c["volumeMounts"] = [m for m in c["volumeMounts"] if m["name"] != "postgres-ca"]
        problems = checked(docs)
        self.assertReports(problems, "container serve", "mount the optional PostgreSQL CA")
        self.assertReports(problems, "SWITCHBOARD_STAFFING_DATABASE_URL's sslrootcert "
                                     "/etc/switchboard/postgres-ca/ca.crt is not on a mounted volume")

    def test_serve_with_an_open_hook(self):
        secrets = copy.deepcopy(SECRETS)
        del secrets["switchboard-serve"]["stringData"]["SWITCHBOARD_HOOK_TOKENS"]
        self.assertReports(checked(good_render(), secrets=secrets), "serve needs SWITCHBOARD_HOOK_TOKENS or SWITCHBOARD_HOOK_HMAC_SECRET")

    def test_undefined_references(self):
        docs = good_render()
        p = pod(docs, "switchboard-ingest")
        p["containers"][0]["envFrom"].append({"configMapRef": {"name": "switchboard-extra"}})
        p["containers"][0]["volumeMounts"].append({"name": "scratch", "mountPath": "/tmp"})
        p["volumes"].append({"name": "flows", "configMap": {"name": "switchboard-flows"}})
        problems = checked(docs)
        self.assertReports(problems, "envFrom configMapRef switchboard-extra is not defined")
        self.assertReports(problems, "volumeMount scratch has no volume")
        self.assertReports(problems, "volume flows", "configMap switchboard-flows is not defined and not optional")

    def test_ca_file_not_mounted(self):
        secrets = copy.deepcopy(SECRETS)
        secrets["switchboard-database-writer"]["stringData"]["SWITCHBOARD_DATABASE_URL"] = \
            "postgres://switchboard_ingest@db/switchboard?sslrootcert=/etc/ssl/db/ca.crt"
        self.assertReports(checked(good_render(), secrets=secrets), "sslrootcert /etc/ssl/db/ca.crt is not on a mounted volume")

    def test_optional_kafka_ca_not_mounted(self):
        docs = good_render()
        pod(docs, "switchboard-serve")["containers"][0]["volumeMounts"] = []
        problems = checked(docs)
        self.assertReports(problems, "container serve", "mount the optional Kafka CA")
        self.assertReports(problems, "ssl.ca.location /etc/switchboard/kafka-ca/ca.crt is not on a mounted volume")

    def test_postgres_ca_mounted_but_required(self):
        docs = good_render()
        pod(docs, "switchboard-ingest")["volumes"][0]["secret"]["optional"] = False
        self.assertReports(checked(docs), "container ingest", "mount the optional PostgreSQL CA")

    def test_without_migrate_job_or_a_role(self):
        docs = [d for d in good_render() if d["kind"] != "Job" and d["metadata"]["name"] != "switchboard-ingest"]
        problems = checked(docs)
        self.assertReports(problems, "no Job runs `switchboard migrate`")
        self.assertReports(problems, "no Deployment runs `switchboard ingest`")

    def test_job_restart_policy(self):
        docs = good_render()
        find(docs, "Job", "switchboard-migrate")["spec"]["template"]["spec"]["restartPolicy"] = "Always"
        self.assertReports(checked(docs), "Job restartPolicy must be OnFailure or Never")

    def test_service_to_a_missing_port(self):
        docs = good_render()
        find(docs, "Service", "switchboard-serve")["spec"]["ports"][0]["targetPort"] = "web"
        self.assertReports(checked(docs), "targetPort web is not a port of Deployment switchboard-serve")

    def test_service_selecting_nothing(self):
        docs = good_render()
        find(docs, "Service", "switchboard-serve")["spec"]["selector"] = {"app": "serve"}
        self.assertReports(checked(docs), "Service selector {'app': 'serve'} matches no Deployment's pod labels")

    def test_deployment_without_pdb(self):
        docs = [d for d in good_render() if not (d["kind"] == "PodDisruptionBudget" and d["metadata"]["name"] == "switchboard-ingest")]
        self.assertReports(checked(docs), "Deployment switchboard-ingest has no PodDisruptionBudget")

    def test_pdb_with_both_bounds(self):
        docs = good_render()
        find(docs, "PodDisruptionBudget", "switchboard-serve")["spec"]["maxUnavailable"] = 1
        self.assertReports(checked(docs), "PDB needs exactly one of minAvailable / maxUnavailable")

    def test_flows_dir_in_the_base(self):
        docs = good_render()
        find(docs, "ConfigMap", "switchboard-settings")["data"]["SWITCHBOARD_FLOWS_DIR"] = "/flows"
        self.assertReports(checked(docs), "base: SWITCHBOARD_FLOWS_DIR=/flows overrides the image's flows")

    def live_flows_render(self):
        docs = good_render()
        p = pod(docs, "switchboard-serve")
        p["containers"][0]["env"] = [{"name": "SWITCHBOARD_FLOWS_DIR", "value": "/flows"}]
        p["containers"][0]["volumeMounts"].append({"name": "flows", "mountPath": "/flows", "readOnly": True})
        p["volumes"].append({"name": "flows", "configMap": {"name": "switchboard-flows"}})
        return docs

    def test_live_flows_from_the_configmap(self):
        self.assertClean(checked(self.live_flows_render(), live_flows=True, external=("switchboard-flows",)))

    def test_live_flows_without_the_configmap_mount(self):
        docs = self.live_flows_render()
        pod(docs, "switchboard-serve")["volumes"][-1] = {"name": "flows", "emptyDir": {}}
        self.assertReports(checked(docs, live_flows=True, external=("switchboard-flows",)),
                           "live-flows: SWITCHBOARD_FLOWS_DIR (/flows) must be the mount of ConfigMap switchboard-flows")


README = """\
# Kubernetes

## Deployment steps

```sh
kubectl create namespace switchboard
kubectl -n switchboard create secret generic switchboard-database-owner \\
    --from-literal=SWITCHBOARD_DATABASE_URL="postgres://switchboard_owner:${POSTGRES_OWNER_PASSWORD}@db/switchboard"
kubectl -n switchboard create secret generic switchboard-database-writer \\
    --from-literal=SWITCHBOARD_DATABASE_URL="postgres://switchboard_ingest:${POSTGRES_INGEST_PASSWORD}@db/switchboard"
kubectl -n switchboard create secret generic switchboard-database-retention \\
    --from-literal=SWITCHBOARD_DATABASE_URL='postgres://switchboard_retention_job:'"$RETENTION"'@db/switchboard'
kubectl -n switchboard create secret generic switchboard-database-staffing-plan \\
    --from-literal=SWITCHBOARD_DATABASE_URL="postgres://switchboard_staffing_job:${POSTGRES_STAFFING_JOB_PASSWORD}@db/switchboard"
kubectl -n switchboard create secret generic switchboard-database-staffing \\
    --from-literal=SWITCHBOARD_STAFFING_DATABASE_URL="postgres://switchboard_serve:${POSTGRES_SERVE_PASSWORD}@db/switchboard"
kubectl -n switchboard create secret generic switchboard-serve \\
    --from-file=SWITCHBOARD_HOOK_TOKENS=hook.txt --from-literal=SWITCHBOARD_CONSOLE_TOKENS="$CONSOLE"
kubectl -n switchboard create secret generic switchboard-kafka --from-literal=SWITCHBOARD_KAFKA_PROPERTIES=
kubectl apply -k deploy/kubernetes
```
"""


class DocumentedSecretsTest(CheckerTest):
    def secrets(self, readme):
        r = report()
        return kubernetes.documented_secrets(r, readme), r.problems

    def test_documented_steps(self):
        secrets, problems = self.secrets(README)
        self.assertClean(problems)
        self.assertEqual(sorted(secrets), ["switchboard-database-owner", "switchboard-database-retention",
                                           "switchboard-database-staffing", "switchboard-database-staffing-plan",
                                           "switchboard-database-writer",
                                           "switchboard-kafka", "switchboard-serve"])
        self.assertEqual(secrets["switchboard-database-retention"]["stringData"]["SWITCHBOARD_DATABASE_URL"],
                         "postgres://switchboard_retention_job:$RETENTION@db/switchboard")
        self.assertEqual(secrets["switchboard-serve"]["stringData"],
                         {"SWITCHBOARD_HOOK_TOKENS": "<file hook.txt>", "SWITCHBOARD_CONSOLE_TOKENS": "$CONSOLE"})

    def test_secret_applied_instead_of_created(self):
        readme = README.replace(
            "kubectl -n switchboard create secret generic switchboard-kafka --from-literal=SWITCHBOARD_KAFKA_PROPERTIES=",
            "kubectl -n switchboard create secret generic switchboard-kafka --from-literal=SWITCHBOARD_KAFKA_PROPERTIES= "
            "--dry-run=client -o yaml | kubectl apply -f -")
        _, problems = self.secrets(readme)
        self.assertReports(problems, "step 2 must `kubectl create secret` switchboard-kafka")

    def test_a_manifest_applied(self):
        readme = README.replace("kubectl apply -k deploy/kubernetes", "kubectl apply -f secrets.yaml\nkubectl apply -k deploy/kubernetes")
        _, problems = self.secrets(readme)
        self.assertReports(problems, "the deployment steps apply a file (kubectl apply -f secrets.yaml)")

    def test_secret_not_created(self):
        readme = README.replace("kubectl -n switchboard create secret generic switchboard-kafka", "# kafka: later")
        _, problems = self.secrets(readme)
        self.assertReports(problems, "the deployment steps do not create the Secret switchboard-kafka")

    def test_step_that_does_not_parse(self):
        readme = README.replace("kubectl apply -k deploy/kubernetes", "kubectl apply -k 'deploy/kubernetes")
        _, problems = self.secrets(readme)
        self.assertReports(problems, "step does not parse (No closing quotation)")

    def test_no_steps(self):
        _, problems = self.secrets("# Kubernetes\n\n## Deployment steps\n\nApply it.\n")
        self.assertReports(problems, "deploy/docs/kubernetes.md", "no ```sh block of deployment steps under ## Deployment steps")

    def test_steps_under_another_heading(self):
        _, problems = self.secrets(README.replace("## Deployment steps", "## Steps"))
        self.assertReports(problems, "no ```sh block of deployment steps under ## Deployment steps")


class SourcesTest(CheckerTest):
    def sources(self, files):
        with tempfile.TemporaryDirectory() as root:
            for name, text in files.items():
                path = os.path.join(root, "deploy", "kubernetes", name)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
            r = report()
            kubernetes.sources(r, root)
            return r.problems

    NAMESPACE = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: switchboard\n"

    def test_listed_files_pass(self):
        self.assertClean(self.sources({
            "kustomization.yaml": "kind: Kustomization\nresources:\n  - namespace.yaml\n",
            "namespace.yaml": self.NAMESPACE,
            "components/extra/kustomization.yaml": "kind: Component\n",
        }))

    def test_file_not_listed(self):
        problems = self.sources({
            "kustomization.yaml": "kind: Kustomization\nresources:\n  - namespace.yaml\n",
            "namespace.yaml": self.NAMESPACE,
            "serve.yaml": self.NAMESPACE.replace("switchboard", "other"),
        })
        self.assertReports(problems, "serve.yaml is not listed in resources")

    def test_generator_outside_the_directory(self):
        problems = self.sources({
            "kustomization.yaml": "kind: Kustomization\nconfigMapGenerator:\n  - name: flows\n    files:\n      - ../../flows/a.json\n",
        })
        self.assertReports(problems, "generator file ../../flows/a.json is outside deploy/kubernetes")

    def test_no_kustomization(self):
        self.assertReports(self.sources({"namespace.yaml": self.NAMESPACE}), "no kustomization.yaml")



class QuantityTest(unittest.TestCase):
    def test_quantities(self):
        self.assertEqual(kubernetes.quantity("512Mi"), 512 * 1024**2)
        self.assertEqual(kubernetes.quantity("1G"), 1e9)
        self.assertEqual(kubernetes.quantity("250"), 250)
        self.assertIsNone(kubernetes.quantity("lots"))


if __name__ == "__main__":
    unittest.main()
