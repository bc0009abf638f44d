"""Checks of deploy/kubernetes and its renders, run by scripts/validate-deploy.sh:

    PYTHONPATH=scripts python3 -m deploycheck.kubernetes ROOT WORK

WORK holds the renders the shell made with `kubectl kustomize`: kubernetes.yaml (the base),
kubernetes-receive.yaml (+ components/receive), kubernetes-live-flows.yaml (+ components/live-flows);
a render that is missing or empty is skipped (the shell has reported why). Checks:

- sources: kustomization.yaml lists every file beside it and loads no generator file from outside
  (kustomize's default load restrictor refuses it);
- deploy/docs/kubernetes.md, "## Deployment steps": the steps `kubectl create` the Secrets (which
  never replaces one) and apply nothing but -k; the Secrets' names and keys are what the pods receive;
- each render: the switchboard namespace, no Secret and no placeholder value; per pod every
  referenced ConfigMap / Secret / volume defined; each role receives only the secrets it needs; the CA files
  the settings name are mounted, and the optional CA Secrets are; database logins
  (deploy/docs/database-roles.md): one Secret per role holds its SWITCHBOARD_DATABASE_URL (serve's:
  SWITCHBOARD_STAFFING_DATABASE_URL, read-only), each URL names a login of the role's own, none an administrator's (postgres, rdsadmin, …), and only migrate's is the
  schema's owner; per Deployment selectors, >= 2
  replicas, maxUnavailable 0, Prometheus annotations, probes per role (serve: startup /ready for
  >= 300 s, readiness /ready/hook, liveness /health, a preStop sleep and a grace period that covers
  it, the drain and the consumer close), ingest memory against its measured RSS; a Deployment for
  ingest and serve, a migrate Job; Services and PDBs select pods, every Deployment has a PDB; the
  flows directory (image's in the base, the ConfigMap's with live-flows).

The generic checks are deploycheck.tools': YAML syntax (yamllint), apiVersions and schemas
(kubernetes-validate), pod security contexts, resources and service account tokens (checkov).

Prints each check's summary; exits 1 with the list of problems.
"""

import glob
import os
import re
import shlex
import sys

from .common import PLACEHOLDER_WORDS, STEPS, STEPS_PAGE, Report, load_all, read

K = "kubernetes"
CLUSTER_SCOPED = {"Namespace", "PriorityClass"}
MiB = 1024**2

# What each role may receive from Secrets: (required, allowed), the least it needs.
SECRET_POLICY = {
    "migrate": ({"SWITCHBOARD_DATABASE_URL"}, {"SWITCHBOARD_DATABASE_URL"}),
    "retention": ({"SWITCHBOARD_DATABASE_URL"}, {"SWITCHBOARD_DATABASE_URL"}),
    "staffing": ({"SWITCHBOARD_DATABASE_URL"}, {"SWITCHBOARD_DATABASE_URL"}),
    "ingest": ({"SWITCHBOARD_DATABASE_URL", "SWITCHBOARD_KAFKA_PROPERTIES"},
               {"SWITCHBOARD_DATABASE_URL", "SWITCHBOARD_KAFKA_PROPERTIES"}),
    "serve": ({"SWITCHBOARD_KAFKA_PROPERTIES", "SWITCHBOARD_CONSOLE_TOKENS", "SWITCHBOARD_FIREHOSE_ACCESS_KEYS"},
              {"SWITCHBOARD_KAFKA_PROPERTIES", "SWITCHBOARD_HOOK_TOKENS", "SWITCHBOARD_HOOK_HMAC_SECRET",
               "SWITCHBOARD_HOOK_HMAC_PREVIOUS_SECRET", "SWITCHBOARD_CONSOLE_TOKENS", "SWITCHBOARD_FIREHOSE_ACCESS_KEYS",
               "SWITCHBOARD_MCP_TOKENS", "SWITCHBOARD_STAFFING_DATABASE_URL"}),
    "receive": ({"SWITCHBOARD_KAFKA_PROPERTIES", "SWITCHBOARD_FIREHOSE_ACCESS_KEYS"},
                {"SWITCHBOARD_KAFKA_PROPERTIES", "SWITCHBOARD_FIREHOSE_ACCESS_KEYS"}),
}
# The shutdown budget of the binary: the floor/ingest Kafka consumer's close is bounded by 15 s.
CONSUMER_CLOSE_SECONDS = 15
INGEST_MEASURED_RSS_MIB = 253   # docs/benchmarks.md: make bench-ingest, 246-265 MB (<= 253 MiB) peak worker RSS
INGEST_FETCH_MIB = 48           # IngestService.consumerProperties fetch.max.bytes; receive.message.max.bytes is twice it
# The Secrets the deployment steps must create: one database URL per role (its own login), then
# the others.
DOCUMENTED_SECRETS = ("switchboard-database-owner", "switchboard-database-writer", "switchboard-database-retention",
                      "switchboard-database-staffing-plan", "switchboard-database-staffing", "switchboard-serve",
                      "switchboard-kafka")
# The settings that hold a database URL: each role's own, and serve's read-only staffing reader's.
DATABASE_URL_KEYS = ("SWITCHBOARD_DATABASE_URL", "SWITCHBOARD_STAFFING_DATABASE_URL")
# Logins that administer a server (a superuser, RDS's and Cloud SQL's administrators, the usual
# master-user names): no role connects as one; migrate connects as the schema's owner instead.
ADMIN_LOGINS = ("postgres", "rdsadmin", "rds_superuser", "cloudsqladmin", "cloudsqlsuperuser", "azure_superuser",
                "azure_pg_admin", "root", "admin", "master")
# A postgres:// URL's user.
DATABASE_URL_USER = re.compile(r"^[a-z]+://(?:([^:@/]*)(?::[^@]*)?@)?")
# The renders of WORK: (file, label, live_flows, ConfigMaps created out of band).
RENDERS = (
    ("kubernetes.yaml", "kustomize deploy/kubernetes", False, ()),
    ("kubernetes-receive.yaml", "kustomize +receive", False, ()),
    ("kubernetes-live-flows.yaml", "kustomize +live-flows", True, ("switchboard-flows",)),
)


def quantity(text):
    """A Kubernetes quantity (512Mi, 1G, 250) in units; None when it is not one."""
    m = re.fullmatch(r"([0-9.]+)([KMGT]i?|[kmgt]|)", str(text))
    if not m:
        return None
    factor = {"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12,
              "Ki": 1024, "Mi": 1024**2, "Gi": 1024**3, "Ti": 1024**4}[m.group(2)]
    return float(m.group(1)) * factor


# ---------------------------------------------------------------------------------- sources
def sources(report, root):
    """kustomization.yaml lists every file beside it and loads no generator file from outside."""
    kdir = os.path.join(root, "deploy", "kubernetes")
    files = sorted(glob.glob(os.path.join(kdir, "*.yaml")) + glob.glob(os.path.join(kdir, "*.yml")))
    path = os.path.join(kdir, "kustomization.yaml")
    kustomization = next(iter(load_all(report, path, root)), None) if os.path.exists(path) else None
    if not isinstance(kustomization, dict):
        report.problem(K, "deploy/kubernetes", "no kustomization.yaml")
    else:
        listed = {os.path.normpath(os.path.join(kdir, r)) for r in kustomization.get("resources", [])}
        for path in files:
            if os.path.basename(path) != "kustomization.yaml" and os.path.normpath(path) not in listed:
                report.problem(K, "deploy/kubernetes/kustomization.yaml", f"{os.path.basename(path)} is not listed in resources")
        for generator in kustomization.get("configMapGenerator", []) + kustomization.get("secretGenerator", []):
            for f in generator.get("files", []) + generator.get("envs", []):
                f = f.split("=", 1)[-1]
                if os.path.relpath(os.path.normpath(os.path.join(kdir, f)), kdir).startswith(".."):
                    report.problem(K, "deploy/kubernetes/kustomization.yaml",
                                   f"generator file {f} is outside deploy/kubernetes: kustomize's default load restrictor refuses it")
    report.say(f"deploy/kubernetes: kustomization.yaml lists the {len(files) - 1} files beside it, no generator file from outside")


# ---------------------------------------------------------------------------------- steps
def documented_steps(report, page):
    """The commands of the first ```sh block under "## Deployment steps" (continuation lines joined)."""
    m = re.search(r"(?m)^## Deployment steps\s*$", page)
    block = re.search(r"```sh\n(.*?)```", page[m.end():], re.S) if m else None
    if not block:
        report.problem(K, STEPS_PAGE, "no ```sh block of deployment steps under ## Deployment steps")
        return []
    commands = re.sub(r"\\\n\s*", " ", block.group(1)).splitlines()
    return [c.strip() for c in commands if c.strip() and not c.strip().startswith("#")]


def documented_secrets(report, page):
    """The Secrets the steps of deploy/docs/kubernetes.md create, as {name: Secret with stringData}: their names
    and keys are what the Deployments' secretRefs get. The steps must only `create` them (which
    refuses to replace an existing Secret) and never apply a Secret manifest."""
    secrets = {}
    for command in documented_steps(report, page):
        try:
            words = shlex.split(command)
        except ValueError as error:
            report.problem(K, STEPS_PAGE, f"step does not parse ({error}): {command[:80]}")
            continue
        if "secret" in words and "generic" in words:
            name = words[words.index("generic") + 1]
            if "create" not in words or any(w.startswith("--dry-run") for w in words) or "|" in command:
                report.problem(K, STEPS_PAGE, f"step 2 must `kubectl create secret` {name} (which never replaces one), "
                                                      f"not apply it: {command[:90]}")
            data = {}
            for w in words:
                for flag in ("--from-literal=", "--from-file="):
                    if w.startswith(flag):
                        key, _, value = w[len(flag):].partition("=")
                        data[key] = value if flag == "--from-literal=" else f"<file {value}>"
            secrets[name] = {"metadata": {"name": name}, "stringData": data}
        elif "apply" in words and any(w in ("-f", "--filename") or w.startswith("--filename=") for w in words):
            report.problem(K, STEPS_PAGE, f"the deployment steps apply a file ({command[:80]}): Secrets are only created, "
                                                  "nothing else is applied but -k")
    for name in DOCUMENTED_SECRETS:
        if name not in secrets:
            report.problem(K, STEPS_PAGE, f"the deployment steps do not create the Secret {name}")
    report.say(f"{STEPS_PAGE} steps create Secrets {sorted(secrets)} with `kubectl create` (never replaced, never applied)")
    return secrets


# ---------------------------------------------------------------------------------- renders
def role_of(containers):
    """The role a pod runs: the first argument of its first container (`switchboard serve`...)."""
    return (containers[0].get("args") or [None])[0] if containers else None


def probe(c, name):
    p = c.get(name) or {}
    return p, (p.get("httpGet") or {})


def mount_covers(container, volumes, path):
    """The volume mounted where `path` lives in `container`, or None."""
    for m in container.get("volumeMounts") or []:
        if path == m.get("mountPath") or path.startswith(m.get("mountPath", "").rstrip("/") + "/"):
            return volumes.get(m.get("name"))
    return None


class Render:
    """The checks of one render: `docs` its objects, `text` its YAML (for placeholder lines), `secrets`
    the Secrets the documented steps create, `external` ConfigMaps created out of band."""

    def __init__(self, report, docs, text, label, live_flows, secrets, external=()):
        self.report, self.docs, self.text, self.label = report, docs, text, label
        self.live_flows = live_flows
        self.secrets = dict(secrets)
        self.entries = [(f"{label} {doc.get('kind')}/{(doc.get('metadata') or {}).get('name')}", doc) for doc in docs]
        self.by_kind = {}
        for where, doc in self.entries:
            self.by_kind.setdefault(doc.get("kind"), []).append((where, doc))
        self.configmaps = {d["metadata"]["name"]: d for _, d in self.by_kind.get("ConfigMap", [])}
        self.configmaps.update({name: {} for name in external})
        self.deployments = {}   # name -> (pod labels, containers, role)
        self.database_urls = []   # (where, role, Secret name, URL) of every SWITCHBOARD_DATABASE_URL

    def problem(self, where, message):
        self.report.problem(K, where, message)

    def check(self):
        if not self.docs:
            self.problem(self.label, "rendered nothing")
            return
        self.objects()
        for where, d in self.by_kind.get("Deployment", []):
            self.deployment(where, d)
        for where, j in self.by_kind.get("Job", []):
            pod = (((j.get("spec") or {}).get("template") or {}).get("spec")) or {}
            if pod.get("restartPolicy") not in ("OnFailure", "Never"):
                self.problem(where, "Job restartPolicy must be OnFailure or Never")
            self.pod(where, pod, role_of(pod.get("containers") or []))
        for where, cj in self.by_kind.get("CronJob", []):
            pod = (((((cj.get("spec") or {}).get("jobTemplate") or {}).get("spec") or {}).get("template") or {}).get("spec")) or {}
            self.pod(where, pod, role_of(pod.get("containers") or []))
        roles = {r for _, (_, _, r) in self.deployments.items()}
        for role in ("ingest", "serve"):
            if role not in roles:
                self.problem(self.label, f"no Deployment runs `switchboard {role}`")
        if not any(((j.get("spec") or {}).get("template", {}).get("spec", {}).get("containers") or [{}])[0].get("args") == ["migrate"]
                   for _, j in self.by_kind.get("Job", [])):
            self.problem(self.label, "no Job runs `switchboard migrate`")
        self.database_logins()
        self.services_and_budgets()
        kinds = {}
        for doc in self.docs:
            kinds[doc.get("kind")] = kinds.get(doc.get("kind"), 0) + 1
        self.report.say(f"{self.label}: {sum(kinds.values())} objects {dict(sorted(kinds.items()))}: probes per role, "
                        "preStop/grace, ingest memory, secrets per role, a database login per role, CA mounts, selectors, "
                        "every reference defined")

    def objects(self):
        """The namespace; no Secret and no placeholder anywhere in the render."""
        for where, doc in self.entries:
            kind = doc.get("kind")
            if kind not in CLUSTER_SCOPED and (doc.get("metadata") or {}).get("namespace") != "switchboard":
                self.problem(where, "namespace should be switchboard")
        # A Secret here would replace the real one (created out of band, step 2 of
        # deploy/docs/kubernetes.md) at every `kubectl apply -k`. The Secrets the pods read are the
        # ones those steps create.
        for where, _ in self.by_kind.get("Secret", []):
            self.problem(where, "a Secret in the rendered manifests: `kubectl apply -k` would overwrite the real one "
                                "(create Secrets out of band: deploy/docs/kubernetes.md, step 2)")
        for m in PLACEHOLDER_WORDS.finditer(self.text):
            line = self.text.count("\n", 0, m.start()) + 1
            self.problem(f"{self.label} line {line}", f"placeholder value {m.group(0)!r} in the rendered manifests "
                                                      f"({self.text.splitlines()[line - 1].strip()[:100]})")

    def env_sources(self, container):
        """(settings, secret keys, secret values) a container receives."""
        settings, secret_keys, values = {}, set(), {}
        for src in container.get("envFrom") or []:
            if "configMapRef" in src:
                cm = self.configmaps.get(src["configMapRef"].get("name"))
                if cm:
                    settings.update(cm.get("data") or {})
            if "secretRef" in src:
                sec = self.secrets.get(src["secretRef"].get("name"))
                if sec:
                    secret_keys |= set((sec.get("stringData") or {}).keys()) | set((sec.get("data") or {}).keys())
                    values.update(sec.get("stringData") or {})
        for e in container.get("env") or []:
            ref = (e.get("valueFrom") or {}).get("secretKeyRef")
            if ref:
                secret_keys.add(e.get("name"))
                sec = self.secrets.get(ref.get("name")) or {}
                values[e.get("name")] = (sec.get("stringData") or {}).get(ref.get("key"), "")
            elif "value" in e:
                settings[e.get("name")] = e.get("value")
        return settings, secret_keys, values

    def database_url_secrets(self, container):
        """The Secrets a container takes a database URL from (DATABASE_URL_KEYS), as (Secret, key in it)."""
        found = []
        for src in container.get("envFrom") or []:
            name = (src.get("secretRef") or {}).get("name")
            sec = self.secrets.get(name) or {}
            for key in DATABASE_URL_KEYS:
                if key in {**(sec.get("data") or {}), **(sec.get("stringData") or {})}:
                    found.append((name, key))
        for e in container.get("env") or []:
            ref = (e.get("valueFrom") or {}).get("secretKeyRef")
            if ref and e.get("name") in DATABASE_URL_KEYS:
                found.append((ref.get("name"), ref.get("key")))
        return found

    def database_logins(self):
        """One Secret per role holds its database URL; each role its own login; none an administrator,
        and only migrate the schema's owner (the login migrate's URL names)."""
        roles_of_secret, secrets_of_role, users = {}, {}, {}
        for where, role, secret, url in self.database_urls:
            roles_of_secret.setdefault(secret, set()).add(role)
            secrets_of_role.setdefault(role, set()).add(secret)
            m = DATABASE_URL_USER.match(url)
            user = m.group(1) if m else None
            if not user:
                self.problem(where, f"the database URL of Secret {secret} names no user: each role connects as "
                                    "a login of its own (deploy/docs/database-roles.md)")
                continue
            users.setdefault(role, set()).add(user)
            if user in ADMIN_LOGINS:
                self.problem(where, f"`{role}` connects as {user}, an administrator's login: use the role's own "
                                    "(deploy/docs/database-roles.md)")
        for secret, roles in sorted(roles_of_secret.items()):
            if len(roles) > 1:
                self.problem(self.label, f"Secret {secret} gives SWITCHBOARD_DATABASE_URL to {', '.join(sorted(roles))}: "
                                         "one Secret per role, so that each role holds only its own login")
        for role, secrets in sorted(secrets_of_role.items()):
            if len(secrets) > 1:
                self.problem(self.label, f"`{role}` takes SWITCHBOARD_DATABASE_URL from several Secrets "
                                         f"({', '.join(sorted(secrets))}): one")
        owners = users.get("migrate", set())
        for role, names in sorted(users.items()):
            if role != "migrate" and names & owners:
                self.problem(self.label, f"`{role}` connects as {', '.join(sorted(names & owners))}, the schema's owner "
                                         "(migrate's login): only migrate may")
        roles_of_user = {}
        for role, names in users.items():
            for user in names:
                roles_of_user.setdefault(user, set()).add(role)
        for user, roles in sorted(roles_of_user.items()):
            if len(roles) > 1 and not roles & {"migrate"}:
                self.problem(self.label, f"{', '.join(sorted(roles))} share the login {user}: each role gets its own")

    def pod(self, where, spec, role):
        """The references and the secrets of one pod spec."""
        containers = spec.get("containers") or []
        volumes = {v.get("name"): v for v in spec.get("volumes") or []}
        for name, v in volumes.items():
            for kind, key, known in (("configMap", "name", self.configmaps), ("secret", "secretName", self.secrets)):
                if kind in v and v[kind].get(key) not in known and v[kind].get("optional") is not True:
                    self.problem(f"{where} volume {name}", f"{kind} {v[kind].get(key)} is not defined and not optional")
        for c in containers:
            self.container(f"{where} container {c.get('name')}", c, volumes, role)
        return containers

    def container(self, cw, c, volumes, role):
        for src in c.get("envFrom") or []:
            for kind, known in (("configMapRef", self.configmaps), ("secretRef", self.secrets)):
                if kind in src and src[kind].get("name") not in known and src[kind].get("optional") is not True:
                    self.problem(cw, f"envFrom {kind} {src[kind].get('name')} is not defined")
        for m in c.get("volumeMounts") or []:
            if m.get("name") not in volumes:
                self.problem(cw, f"volumeMount {m.get('name')} has no volume")
        _, secret_keys, values = self.env_sources(c)
        for secret, key in self.database_url_secrets(c):
            url = ((self.secrets.get(secret) or {}).get("stringData") or {}).get(key, "")
            self.database_urls.append((cw, role, secret, url))
        # Secrets: what the role needs, nothing more.
        if role in SECRET_POLICY:
            required, allowed = SECRET_POLICY[role]
            for key in sorted(required - secret_keys):
                self.problem(cw, f"`{role}` needs {key} from a Secret")
            for key in sorted(secret_keys - allowed):
                self.problem(cw, f"`{role}` must not receive {key} (every role gets only the secrets it needs)")
            if role == "serve" and not secret_keys & {"SWITCHBOARD_HOOK_TOKENS", "SWITCHBOARD_HOOK_HMAC_SECRET"}:
                self.problem(cw, "serve needs SWITCHBOARD_HOOK_TOKENS or SWITCHBOARD_HOOK_HMAC_SECRET (an open hook is for development only)")
        # CA files named in the settings must be mounted.
        for key in DATABASE_URL_KEYS:
            m = re.search(r"[?&]sslrootcert=([^&]+)", values.get(key, ""))
            if m and m.group(1) != "system" and not mount_covers(c, volumes, m.group(1)):
                self.problem(cw, f"{key}'s sslrootcert {m.group(1)} is not on a mounted volume")
        m = re.search(r"(?:^|,)\s*ssl\.ca\.location=([^,]+)", values.get("SWITCHBOARD_KAFKA_PROPERTIES", ""))
        if m and m.group(1) != "probe" and not mount_covers(c, volumes, m.group(1)):
            self.problem(cw, f"SWITCHBOARD_KAFKA_PROPERTIES's ssl.ca.location {m.group(1)} is not on a mounted volume")
        if secret_keys & set(DATABASE_URL_KEYS):
            vol = mount_covers(c, volumes, "/etc/switchboard/postgres-ca/ca.crt")
            if not vol or (vol.get("secret") or vol.get("configMap") or {}).get("optional") is not True:
                self.problem(cw, "mount the optional PostgreSQL CA (Secret switchboard-postgres-ca, optional: true) at "
                                 "/etc/switchboard/postgres-ca for sslmode=verify-full")
        if "SWITCHBOARD_KAFKA_PROPERTIES" in secret_keys:
            vol = mount_covers(c, volumes, "/etc/switchboard/kafka-ca/ca.crt")
            if not vol or (vol.get("secret") or vol.get("configMap") or {}).get("optional") is not True:
                self.problem(cw, "mount the optional Kafka CA (Secret switchboard-kafka-ca, optional: true) at "
                                 "/etc/switchboard/kafka-ca for ssl.ca.location")

    def deployment(self, where, d):
        spec = d.get("spec") or {}
        selector = (spec.get("selector") or {}).get("matchLabels") or {}
        labels = ((spec.get("template") or {}).get("metadata") or {}).get("labels") or {}
        for k, v in selector.items():
            if labels.get(k) != v:
                self.problem(where, f"selector {k}={v} does not match template labels")
        if (spec.get("replicas") or 1) < 2:
            self.problem(where, "replicas should be >= 2")
        rolling = ((spec.get("strategy") or {}).get("rollingUpdate") or {})
        if str(rolling.get("maxUnavailable", "25%")) not in ("0", "0%"):
            self.problem(where, "rollingUpdate.maxUnavailable must be 0 (a rollout never lowers capacity)")
        pod = (spec.get("template") or {}).get("spec") or {}
        containers = list(pod.get("containers") or [])
        role = role_of(containers)
        self.pod(where, pod, role)
        ann = ((spec.get("template") or {}).get("metadata") or {}).get("annotations") or {}
        if ann.get("prometheus.io/scrape") != "true" or ann.get("prometheus.io/path") != "/metrics":
            self.problem(where, "pod template needs prometheus.io/scrape and prometheus.io/path=/metrics annotations")
        grace = pod.get("terminationGracePeriodSeconds", 30)
        for c in containers:
            self.probes_and_budget(where, f"{where} container {c.get('name')}", c, role, grace)
        self.deployments[d["metadata"]["name"]] = (labels, containers, role)
        if role == "serve":
            self.flows(where, pod, containers)

    def probes_and_budget(self, where, cw, c, role, grace):
        """Probes per role; serve's startup budget, preStop and grace; ingest's memory."""
        settings, _, _ = self.env_sources(c)
        if settings.get("SWITCHBOARD_HTTP_HOST") != "0.0.0.0":
            self.problem(cw, "SWITCHBOARD_HTTP_HOST must be 0.0.0.0 (settings ConfigMap or env)")
        ports = {p.get("name"): p.get("containerPort") for p in c.get("ports") or []}
        want = {"serve": {"readinessProbe": "/ready/hook", "livenessProbe": "/health", "startupProbe": "/ready"},
                "ingest": {"readinessProbe": "/ready", "livenessProbe": "/health"}}.get(role, {})
        for name, path in want.items():
            _, get = probe(c, name)
            if get.get("path") != path:
                self.problem(cw, f"{name} must be httpGet {path}, got {get.get('path')}"
                             + (" (the Service carries hook traffic: readiness must not depend on Kafka)"
                                if role == "serve" and name == "readinessProbe" else ""))
            if isinstance(get.get("port"), str) and get.get("port") not in ports:
                self.problem(cw, f"{name} port {get.get('port')} is not a named container port")
        if role == "serve":
            p, _ = probe(c, "startupProbe")
            budget = p.get("periodSeconds", 10) * p.get("failureThreshold", 3)
            if budget < 300:
                self.problem(cw, f"startupProbe allows {budget} s; the floor rebuild needs minutes (>= 300 s)")
            pre = ((c.get("lifecycle") or {}).get("preStop") or {})
            sleep = None
            if "sleep" in pre:
                sleep = (pre["sleep"] or {}).get("seconds")
            elif "exec" in pre:
                command = pre["exec"].get("command") or []
                if command and os.path.basename(command[0]) == "sleep" and len(command) == 2 and command[1].isdigit():
                    sleep = int(command[1])
            if not sleep or sleep < 5:
                self.problem(cw, "lifecycle.preStop must sleep >= 5 s so the endpoint removal reaches every proxy before SIGTERM")
            drain = int(settings.get("SWITCHBOARD_SHUTDOWN_DRAIN_SECONDS", 5))
            need = (sleep or 0) + drain + CONSUMER_CLOSE_SECONDS
            if grace < need:
                self.problem(where, f"terminationGracePeriodSeconds {grace} < preStop {sleep} + drain {drain} + "
                                    f"consumer close {CONSUMER_CLOSE_SECONDS} s")
        if role == "ingest":
            res = c.get("resources") or {}
            request_text = (res.get("requests") or {}).get("memory")
            limit_text = (res.get("limits") or {}).get("memory")
            request = quantity((res.get("requests") or {}).get("memory", "0")) or 0
            limit = quantity((res.get("limits") or {}).get("memory", "0")) or 0
            if request < INGEST_MEASURED_RSS_MIB * MiB:
                self.problem(cw, f"memory request {request_text} is below the measured {INGEST_MEASURED_RSS_MIB} MiB worker RSS")
            if limit < request * 1.25:
                self.problem(cw, f"memory limit {limit_text} leaves no headroom over the request (fetch buffers)")
            if limit < (INGEST_MEASURED_RSS_MIB + 2 * INGEST_FETCH_MIB) * MiB:
                self.problem(cw, f"memory limit {limit_text} is below the measured RSS ({INGEST_MEASURED_RSS_MIB} MiB) "
                                 f"+ one fetch response in flight (receive.message.max.bytes = 2 x {INGEST_FETCH_MIB} MiB)")
            if request > 2 * INGEST_MEASURED_RSS_MIB * MiB:
                self.problem(cw, f"memory request {request_text} is over twice the measured {INGEST_MEASURED_RSS_MIB} MiB: "
                                 "the numbers no longer match the code (deploy/docs/kubernetes.md, Resources)")
            if grace < CONSUMER_CLOSE_SECONDS + 15:
                self.problem(where, f"terminationGracePeriodSeconds {grace} is too short to finish a batch and close the consumer")

    def flows(self, where, pod, containers):
        """serve runs the image's flows in the base, the ConfigMap switchboard-flows with live-flows."""
        settings, _, _ = self.env_sources(containers[0]) if containers else ({}, set(), {})
        flows_dir = settings.get("SWITCHBOARD_FLOWS_DIR")
        mounts = {m.get("mountPath"): m.get("name") for m in containers[0].get("volumeMounts") or []} if containers else {}
        volumes = {v.get("name"): v for v in pod.get("volumes") or []}
        if self.live_flows:
            volume = volumes.get(mounts.get(flows_dir)) if flows_dir else None
            if not volume or (volume.get("configMap") or {}).get("name") != "switchboard-flows":
                self.problem(where, f"live-flows: SWITCHBOARD_FLOWS_DIR ({flows_dir}) must be the mount of ConfigMap switchboard-flows")
        elif flows_dir is not None:
            self.problem(where, f"base: SWITCHBOARD_FLOWS_DIR={flows_dir} overrides the image's flows (/app/flows) without a mounted set")

    def selects(self, selector, where, kind):
        matched = [n for n, (labels, _, _) in self.deployments.items()
                   if selector and all(labels.get(k) == v for k, v in selector.items())]
        if not matched:
            self.problem(where, f"{kind} selector {selector} matches no Deployment's pod labels")
        return matched

    def services_and_budgets(self):
        """Services reach a port of the pods they select; every Deployment has a PDB."""
        for where, s in self.by_kind.get("Service", []):
            spec = s.get("spec") or {}
            for p in spec.get("ports") or []:
                target = p.get("targetPort", p.get("port"))
                for n in self.selects(spec.get("selector") or {}, where, "Service"):
                    names = {cp.get("name") for c in self.deployments[n][1] for cp in c.get("ports") or []}
                    numbers = {cp.get("containerPort") for c in self.deployments[n][1] for cp in c.get("ports") or []}
                    if target not in names and target not in numbers:
                        self.problem(where, f"targetPort {target} is not a port of Deployment {n}")
        pdb_targets = set()
        for where, p in self.by_kind.get("PodDisruptionBudget", []):
            spec = p.get("spec") or {}
            if ("minAvailable" in spec) == ("maxUnavailable" in spec):
                self.problem(where, "PDB needs exactly one of minAvailable / maxUnavailable")
            pdb_targets.update(self.selects((spec.get("selector") or {}).get("matchLabels") or {}, where, "PodDisruptionBudget"))
        for n in self.deployments:
            if n not in pdb_targets:
                self.problem(self.label, f"Deployment {n} has no PodDisruptionBudget")


def check_render(report, path, label, live_flows, secrets, external=(), root=None):
    """Loads a render made by the shell and checks it."""
    docs = load_all(report, path, root)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    Render(report, docs, text, label, live_flows, secrets, external).check()


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print("usage: python3 -m deploycheck.kubernetes ROOT WORK", file=sys.stderr)
        return 2
    root, work = argv
    report = Report("deploycheck.kubernetes")
    sources(report, root)
    secrets = documented_secrets(report, read(root, *STEPS))
    for name, label, live_flows, external in RENDERS:
        path = os.path.join(work, name)
        if os.path.exists(path) and os.path.getsize(path):
            check_render(report, path, label, live_flows, secrets, external, root)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
