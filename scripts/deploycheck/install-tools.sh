#!/usr/bin/env bash
# Installs the deploy linters at the versions of scripts/deploycheck/tools.txt into the venv
# .build-deploy/tools, unless that venv already holds them; scripts/validate-deploy.sh runs it,
# and scripts/test.sh starts it beside the Swift build so that the download overlaps the compile.
# Exits non-zero, naming its log, when pip cannot install them.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
linters="$root/.build-deploy/tools"
cmp -s "$root/scripts/deploycheck/tools.txt" "$linters/tools.txt" && exit 0
source "$root/scripts/lib.sh"
SWITCHBOARD_APT_PACKAGES=()
ensure_packages python3-venv
echo "==> installing the linters of scripts/deploycheck/tools.txt from PyPI into .build-deploy/tools" >&2
rm -rf "$linters"
mkdir -p "$root/.build-deploy"
log="$root/.build-deploy/tools-install.log"
if python3 -m venv "$linters" >"$log" 2>&1 &&
    "$linters/bin/python" -m pip install -q --disable-pip-version-check -r "$root/scripts/deploycheck/tools.txt" >>"$log" 2>&1; then
    cp "$root/scripts/deploycheck/tools.txt" "$linters/tools.txt"
else
    echo "pip could not install scripts/deploycheck/tools.txt; see $log" >&2
    exit 1
fi
