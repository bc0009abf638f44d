#!/usr/bin/env bash
# Validates the deployment files without a Docker engine or a Kubernetes cluster:
#   1. docker-compose.yml with `docker-compose config -q` (default and simulator profile);
#   2. every YAML under deploy/kubernetes: parse + schema sanity (names, selectors, probes,
#      resources, securityContext, Service/PDB selectors, referenced ConfigMaps/Secrets), and
#      `kubectl kustomize` when kubectl is installed;
#   3. deploy/Dockerfile and .dockerignore basics;
#   4. deploy/grafana/*.json: parses, every panel has PromQL naming a metric defined in Sources/.
# Exits non-zero on any problem. Installs docker-compose / python3-yaml with apt-get if missing.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

say() { printf '==> %s\n' "$*"; }

apt_install() {
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    say "installing $* with apt-get"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "$@" >/dev/null ||
        { $sudo apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "$@" >/dev/null; }
}

# --- 1. docker-compose -----------------------------------------------------------------------
if ! command -v docker-compose >/dev/null 2>&1; then
    apt_install docker-compose
fi
say "docker-compose $(docker-compose version --short 2>/dev/null || echo '?'): config -q (default profile)"
docker-compose -f docker-compose.yml config -q
say "docker-compose: config -q --profile simulator"
docker-compose -f docker-compose.yml --profile simulator config -q
# `config --services` of docker-compose 1.29 lists profiled services too; the profile itself is
# checked below on the parsed file.
services="$(docker-compose -f docker-compose.yml config --services | sort | tr '\n' ' ')"
say "services: $services"
for service in kafka kafka-init postgres migrate ingest-1 ingest-2 serve simulator; do
    case " $services " in *" $service "*) ;; *) echo "docker-compose.yml: service $service missing" >&2; exit 1 ;; esac
done

# --- 2.-4. Python checks -----------------------------------------------------------------------
if ! python3 -c 'import yaml' 2>/dev/null; then
    apt_install python3-yaml
fi

python3 - "$root" <<'PY'
import glob, json, os, re, sys
import yaml

root = sys.argv[1]
problems = []
def problem(where, message):
    problems.append(f"{where}: {message}")
def say(message):
    print(f"==> {message}")

# ---- compose semantics (the parsed file, beyond `config -q`) ----
compose = yaml.safe_load(open(os.path.join(root, "docker-compose.yml")))
services = compose.get("services", {})
for name in ("ingest-1", "ingest-2", "serve"):
    s = services.get(name, {})
    hc = json.dumps(s.get("healthcheck", {}))
    if "/ready" not in hc:
        problem("docker-compose.yml", f"{name}: healthcheck must probe /ready")
    env = s.get("environment", {})
    if env.get("SWITCHBOARD_HTTP_HOST") != "0.0.0.0":
        problem("docker-compose.yml", f"{name}: SWITCHBOARD_HTTP_HOST must be 0.0.0.0")
    if (s.get("build") or {}).get("dockerfile") != "deploy/Dockerfile":
        problem("docker-compose.yml", f"{name}: must build from deploy/Dockerfile")
groups = {services[n].get("environment", {}).get("SWITCHBOARD_INGEST_GROUP") for n in ("ingest-1", "ingest-2") if n in services}
if len(groups) != 1:
    problem("docker-compose.yml", f"ingest replicas must share one consumer group, got {groups}")
if not any(":ro" in str(v) and "flows" in str(v) for v in services.get("serve", {}).get("volumes", [])):
    problem("docker-compose.yml", "serve: flows must be mounted read-only")
if services.get("simulator", {}).get("profiles") != ["simulator"]:
    problem("docker-compose.yml", "simulator: profiles must be [simulator]")
if "healthcheck" not in services.get("postgres", {}):
    problem("docker-compose.yml", "postgres: healthcheck missing")
init = json.dumps(services.get("kafka-init", {}))
for topic in ("contact-records", "agent-events", "contact-events"):
    if topic not in init:
        problem("docker-compose.yml", f"kafka-init does not create {topic}")
say("docker-compose.yml: healthchecks on /ready, one ingest group, read-only flows, simulator profile, topics")

# ---- Kubernetes ----
kdir = os.path.join(root, "deploy", "kubernetes")
files = sorted(glob.glob(os.path.join(kdir, "**", "*.yaml"), recursive=True) + glob.glob(os.path.join(kdir, "**", "*.yml"), recursive=True))
if not files:
    problem("deploy/kubernetes", "no YAML files")
docs = []
kustomizations = []
for path in files:
    rel = os.path.relpath(path, root)
    try:
        loaded = [d for d in yaml.safe_load_all(open(path)) if d is not None]
    except yaml.YAMLError as error:
        problem(rel, f"YAML does not parse: {error}")
        continue
    for index, doc in enumerate(loaded):
        where = f"{rel}#{index}"
        if not isinstance(doc, dict):
            problem(where, "document is not a mapping")
            continue
        if doc.get("kind") == "Kustomization":
            kustomizations.append((rel, path, doc))
            continue
        for key in ("apiVersion", "kind"):
            if not doc.get(key):
                problem(where, f"missing {key}")
        if not (doc.get("metadata") or {}).get("name"):
            problem(where, "missing metadata.name")
        docs.append((where, doc))
say(f"deploy/kubernetes: {len(files)} files, {len(docs)} objects parsed, all with apiVersion/kind/metadata.name")

known_api = {
    "Namespace": "v1", "ConfigMap": "v1", "Secret": "v1", "Service": "v1",
    "Deployment": "apps/v1", "Job": "batch/v1", "PodDisruptionBudget": "policy/v1",
}
by_kind = {}
for where, doc in docs:
    kind = doc.get("kind")
    by_kind.setdefault(kind, []).append((where, doc))
    if kind in known_api and doc.get("apiVersion") != known_api[kind]:
        problem(where, f"{kind} should use apiVersion {known_api[kind]}, not {doc.get('apiVersion')}")
    if kind != "Namespace" and (doc.get("metadata") or {}).get("namespace") not in (None, "switchboard"):
        problem(where, "namespace should be switchboard")

configmaps = {d["metadata"]["name"] for _, d in by_kind.get("ConfigMap", [])}
secrets = {d["metadata"]["name"] for _, d in by_kind.get("Secret", [])}
generated = set()
for rel, path, k in kustomizations:
    base = os.path.dirname(path)
    for resource in k.get("resources", []):
        if not os.path.exists(os.path.join(base, resource)):
            problem(rel, f"resource {resource} does not exist")
    for gen in k.get("configMapGenerator", []):
        generated.add(gen.get("name"))
        for f in gen.get("files", []):
            f = f.split("=", 1)[-1]
            if not glob.glob(os.path.join(base, f)):
                problem(rel, f"configMapGenerator file {f} does not exist")
    listed = {os.path.normpath(os.path.join(base, r)) for r in k.get("resources", [])}
    for path2 in files:
        if os.path.basename(path2) != "kustomization.yaml" and os.path.dirname(path2) == base and path2 not in listed:
            problem(rel, f"{os.path.basename(path2)} is not listed in resources")
if kustomizations:
    flows = sorted(os.path.basename(p) for p in glob.glob(os.path.join(root, "flows", "*.yaml")))
    gen_files = sorted(os.path.basename(f) for _, _, k in kustomizations for g in k.get("configMapGenerator", []) for f in g.get("files", []))
    if "switchboard-flows" in generated and flows != gen_files:
        problem("deploy/kubernetes/kustomization.yaml", f"configMapGenerator files {gen_files} differ from flows/*.yaml {flows}")
configmaps |= generated

http_roles = {"ingest", "serve"}
def pod_checks(where, spec, http):
    psc = spec.get("securityContext") or {}
    if psc.get("runAsNonRoot") is not True:
        problem(where, "pod securityContext.runAsNonRoot must be true")
    containers = spec.get("containers") or []
    if not containers:
        problem(where, "no containers")
    volumes = {v.get("name"): v for v in spec.get("volumes") or []}
    for c in containers:
        cw = f"{where} container {c.get('name')}"
        if not c.get("image"):
            problem(cw, "no image")
        req = (c.get("resources") or {}).get("requests") or {}
        if not req.get("cpu") or not req.get("memory"):
            problem(cw, "resources.requests.cpu and .memory required")
        if not ((c.get("resources") or {}).get("limits") or {}).get("memory"):
            problem(cw, "resources.limits.memory required")
        csc = c.get("securityContext") or {}
        if csc.get("readOnlyRootFilesystem") is not True:
            problem(cw, "securityContext.readOnlyRootFilesystem should be true")
        if csc.get("allowPrivilegeEscalation") is not False:
            problem(cw, "securityContext.allowPrivilegeEscalation must be false")
        ports = {p.get("name"): p.get("containerPort") for p in c.get("ports") or []}
        if http:
            for probe, path in (("readinessProbe", "/ready"), ("livenessProbe", "/health")):
                got = ((c.get(probe) or {}).get("httpGet") or {})
                if got.get("path") != path:
                    problem(cw, f"{probe} must be httpGet {path}, got {got.get('path')}")
                port = got.get("port")
                if isinstance(port, str) and port not in ports:
                    problem(cw, f"{probe} port {port} is not a named container port")
        for src in c.get("envFrom") or []:
            if "configMapRef" in src and src["configMapRef"].get("name") not in configmaps:
                problem(cw, f"envFrom ConfigMap {src['configMapRef'].get('name')} not defined")
            if "secretRef" in src and src["secretRef"].get("name") not in secrets:
                problem(cw, f"envFrom Secret {src['secretRef'].get('name')} not defined")
        for m in c.get("volumeMounts") or []:
            if m.get("name") not in volumes:
                problem(cw, f"volumeMount {m.get('name')} has no volume")
    for name, v in volumes.items():
        if "configMap" in v and v["configMap"].get("name") not in configmaps:
            problem(f"{where} volume {name}", f"ConfigMap {v['configMap'].get('name')} not defined (nor generated)")
    return containers

deployments = {}
for where, d in by_kind.get("Deployment", []):
    spec = d.get("spec") or {}
    selector = (spec.get("selector") or {}).get("matchLabels") or {}
    labels = ((spec.get("template") or {}).get("metadata") or {}).get("labels") or {}
    if not selector:
        problem(where, "Deployment without spec.selector.matchLabels")
    for k, v in selector.items():
        if labels.get(k) != v:
            problem(where, f"selector {k}={v} does not match template labels")
    if (spec.get("replicas") or 1) < 2:
        problem(where, "replicas should be >= 2")
    pod = (spec.get("template") or {}).get("spec") or {}
    containers = pod_checks(where, pod, http=True)
    ann = ((spec.get("template") or {}).get("metadata") or {}).get("annotations") or {}
    if ann.get("prometheus.io/scrape") != "true" or ann.get("prometheus.io/path") != "/metrics":
        problem(where, "pod template needs prometheus.io/scrape and prometheus.io/path=/metrics annotations")
    for c in containers:
        env_names = {e.get("name") for e in c.get("env") or []}
        has_host = "SWITCHBOARD_HTTP_HOST" in env_names or any("configMapRef" in s for s in c.get("envFrom") or [])
        if not has_host:
            problem(where, "SWITCHBOARD_HTTP_HOST not set (needs 0.0.0.0)")
    deployments[d["metadata"]["name"]] = (labels, containers)
for where, j in by_kind.get("Job", []):
    pod = (((j.get("spec") or {}).get("template") or {}).get("spec")) or {}
    if pod.get("restartPolicy") not in ("OnFailure", "Never"):
        problem(where, "Job restartPolicy must be OnFailure or Never")
    pod_checks(where, pod, http=False)
roles = {tuple(c.get("args") or [])[:1] for _, (_, cs) in deployments.items() for c in cs}
for role in (("ingest",), ("serve",)):
    if role not in roles:
        problem("deploy/kubernetes", f"no Deployment runs `switchboard {role[0]}`")
if not any((j.get("spec") or {}).get("template", {}).get("spec", {}).get("containers", [{}])[0].get("args") == ["migrate"] for _, j in by_kind.get("Job", [])):
    problem("deploy/kubernetes", "no Job runs `switchboard migrate`")
say(f"Deployments {sorted(deployments)}: selectors match labels, probes /ready + /health, requests/limits, non-root, read-only root, scrape annotations")

def selects(selector, where, kind):
    matched = [n for n, (labels, _) in deployments.items() if selector and all(labels.get(k) == v for k, v in selector.items())]
    if not matched:
        problem(where, f"{kind} selector {selector} matches no Deployment's pod labels")
    return matched
for where, s in by_kind.get("Service", []):
    spec = s.get("spec") or {}
    matched = selects(spec.get("selector") or {}, where, "Service")
    for p in spec.get("ports") or []:
        target = p.get("targetPort", p.get("port"))
        for n in matched:
            names = {cp.get("name") for c in deployments[n][1] for cp in c.get("ports") or []}
            numbers = {cp.get("containerPort") for c in deployments[n][1] for cp in c.get("ports") or []}
            if target not in names and target not in numbers:
                problem(where, f"targetPort {target} is not a port of Deployment {n}")
pdb_targets = set()
for where, p in by_kind.get("PodDisruptionBudget", []):
    spec = p.get("spec") or {}
    if ("minAvailable" in spec) == ("maxUnavailable" in spec):
        problem(where, "PDB needs exactly one of minAvailable / maxUnavailable")
    pdb_targets.update(selects((spec.get("selector") or {}).get("matchLabels") or {}, where, "PodDisruptionBudget"))
for n in deployments:
    if n not in pdb_targets:
        problem("deploy/kubernetes", f"Deployment {n} has no PodDisruptionBudget")
say(f"Services {[d['metadata']['name'] for _, d in by_kind.get('Service', [])]} and PDBs {[d['metadata']['name'] for _, d in by_kind.get('PodDisruptionBudget', [])]} select existing pods")
for where, s in by_kind.get("Secret", []):
    values = " ".join(str(v) for v in (s.get("stringData") or {}).values())
    if values and "PLACEHOLDER" not in values:
        problem(where, "Secret values must be marked PLACEHOLDER in the repository")

# ---- Dockerfile ----
dockerfile = open(os.path.join(root, "deploy", "Dockerfile")).read()
for needle, why in (
    (r"(?m)^FROM\s+swift:\S+\s+AS\s+build", "a Swift build stage"),
    (r"(?m)^FROM\s+debian:\S*slim", "a slim runtime stage"),
    (r"--static-swift-stdlib", "a statically linked Swift runtime"),
    (r"librdkafka1", "librdkafka in the runtime"),
    (r"tzdata", "tzdata in the runtime"),
    (r"switchboard_Server\.resources", "the resources bundle next to the binary"),
    (r"(?m)^USER\s+(?!0\b|root\b)\S+", "a non-root USER"),
    (r'(?m)^ENTRYPOINT\s+\[".*switchboard"\]', "ENTRYPOINT switchboard"),
):
    if not re.search(needle, dockerfile):
        problem("deploy/Dockerfile", f"missing {why}")
ignore = open(os.path.join(root, ".dockerignore")).read().split()
for entry in (".build", ".data", ".artifacts"):
    if entry not in ignore:
        problem(".dockerignore", f"must exclude {entry}")
say("deploy/Dockerfile: build stage, slim runtime, static stdlib, librdkafka/tzdata, resources bundle, non-root; .dockerignore")

# ---- Grafana ----
sources = []
for dirpath, _, names in os.walk(os.path.join(root, "Sources")):
    for n in names:
        if n.endswith(".swift"):
            sources.append(open(os.path.join(dirpath, n), encoding="utf-8").read())
defined = set()
for text in sources:
    defined.update(re.findall(r'"(switchboard_[a-z0-9_]+)"', text))
say(f"Sources/: {len(defined)} metric names defined")
dashboards = sorted(glob.glob(os.path.join(root, "deploy", "grafana", "*.json")))
if not dashboards:
    problem("deploy/grafana", "no dashboard")
for path in dashboards:
    rel = os.path.relpath(path, root)
    try:
        dash = json.load(open(path))
    except ValueError as error:
        problem(rel, f"JSON does not parse: {error}")
        continue
    if not isinstance(dash.get("schemaVersion"), int) or dash["schemaVersion"] < 36:
        problem(rel, "schemaVersion missing or older than 36")
    if not any(i.get("name") == "DS_PROMETHEUS" for i in dash.get("__inputs", [])):
        problem(rel, "needs a DS_PROMETHEUS datasource input")
    panels = []
    def walk(ps):
        for p in ps:
            panels.append(p)
            walk(p.get("panels") or [])
    walk(dash.get("panels") or [])
    data_panels = [p for p in panels if p.get("type") != "row"]
    ids = [p.get("id") for p in panels]
    if len(ids) != len(set(ids)):
        problem(rel, "duplicate panel ids")
    used = set()
    for p in data_panels:
        where = f"{rel} panel '{p.get('title')}'"
        targets = p.get("targets") or []
        if not targets:
            problem(where, "no targets")
        if "${DS_PROMETHEUS}" not in json.dumps(p.get("datasource")):
            problem(where, "datasource must be ${DS_PROMETHEUS}")
        for t in targets:
            expr = t.get("expr") or ""
            if not expr:
                problem(where, f"target {t.get('refId')} has no PromQL expr")
                continue
            if expr.count("(") != expr.count(")") or expr.count("{") != expr.count("}"):
                problem(where, f"unbalanced brackets in {expr}")
            names = re.findall(r"\b(switchboard_[a-z0-9_]+)", expr)
            if not names:
                problem(where, f"expr names no switchboard_ metric: {expr}")
            for name in names:
                base = re.sub(r"_(bucket|sum|count)$", "", name)
                if name not in defined and base not in defined:
                    problem(where, f"metric {name} is not defined in Sources/")
                if name.endswith("_bucket") and "histogram_quantile" not in expr:
                    problem(where, f"{name} used without histogram_quantile")
                used.add(base if base in defined else name)
    required = {
        "switchboard_ingest_rows_total", "switchboard_ingest_lag_records", "switchboard_ingest_dead_letters_total",
        "switchboard_ingest_batch_duration_seconds", "switchboard_ingest_fenced_writes_total",
        "switchboard_ingest_write_retries_total", "switchboard_hook_duration_seconds", "switchboard_hook_requests_total",
        "switchboard_console_clients", "switchboard_console_messages_sent_total", "switchboard_console_resnapshots_total",
    }
    for missing in sorted(required - used):
        problem(rel, f"no panel shows {missing}")
    say(f"{rel}: {len(data_panels)} panels, {len(used)} metrics, all defined in Sources/")

if problems:
    print(f"\nvalidate-deploy: {len(problems)} problem(s):", file=sys.stderr)
    for p in problems:
        print(f"  - {p}", file=sys.stderr)
    sys.exit(1)
PY

# --- kustomize build (offline) when kubectl is available ------------------------------------------
if command -v kubectl >/dev/null 2>&1; then
    say "kubectl kustomize deploy/kubernetes (offline render)"
    rendered="$(kubectl kustomize --load-restrictor LoadRestrictionsNone deploy/kubernetes)"
    kinds="$(printf '%s\n' "$rendered" | grep -E '^kind: ' | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
    say "rendered:$kinds"
    printf '%s\n' "$rendered" | grep -q 'name: switchboard-flows-' ||
        { echo "kustomize: switchboard-flows ConfigMap not generated" >&2; exit 1; }
    printf '%s\n' "$rendered" | python3 -c '
import sys, yaml
docs = [d for d in yaml.safe_load_all(sys.stdin) if d]
flows = [d for d in docs if d["kind"] == "ConfigMap" and d["metadata"]["name"].startswith("switchboard-flows-")]
deploy = [d for d in docs if d["kind"] == "Deployment" and d["metadata"]["name"] == "switchboard-serve"][0]
volume = [v for v in deploy["spec"]["template"]["spec"]["volumes"] if v["name"] == "flows"][0]
assert volume["configMap"]["name"] == flows[0]["metadata"]["name"], "serve does not mount the generated flows ConfigMap"
print("==> kustomize: serve mounts", flows[0]["metadata"]["name"], "with", sorted(flows[0]["data"]))
'
else
    say "kubectl not installed: skipped the kustomize render"
fi
if command -v kubeconform >/dev/null 2>&1; then
    say "kubeconform: strict schema validation"
    kubectl kustomize --load-restrictor LoadRestrictionsNone deploy/kubernetes | kubeconform -strict -summary -
else
    say "kubeconform not installed (not packaged for Debian 12): schema sanity above only"
fi
say "validate-deploy: OK"
