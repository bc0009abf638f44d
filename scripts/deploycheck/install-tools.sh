#!/usr/bin/env bash
# Installs the deploy linters at the versions of scripts/deploycheck/tools.txt into a venv, and
# points .build-deploy/tools at it; scripts/validate-deploy.sh runs it, and scripts/test.sh starts
# it beside the Swift build so that the install overlaps the compile.
#
# The venv is kept per user and per version of that file, in
# ${XDG_CACHE_HOME:-~/.cache}/switchboard/deploy-tools-<sha256 of tools.txt> (as SwiftPM keeps its
# packages and pre-commit its hooks): every clone on the machine shares it, and only the first
# install of a version costs its minute of pip. An install holds a lock on that folder, so that
# two clones testing at once install it once. Exits non-zero, naming its log, when pip cannot
# install them.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
pins="$root/scripts/deploycheck/tools.txt"
link="$root/.build-deploy/tools"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/switchboard"
venv="$cache/deploy-tools-$(sha256sum "$pins" | cut -c1-16)"
log="$root/.build-deploy/tools-install.log"
mkdir -p "$root/.build-deploy" "$cache"

point() {
    [ "$(readlink "$link" 2>/dev/null)" = "$venv" ] && return
    rm -rf "$link"
    ln -s "$venv" "$link"
}
# The pins file copied into the venv is the mark of a finished install.
if cmp -s "$pins" "$venv/tools.txt"; then
    point
    exit 0
fi
source "$root/scripts/lib.sh"
SWITCHBOARD_APT_PACKAGES=()
ensure_packages python3-venv
exec 9>"$venv.lock"
flock 9
if ! cmp -s "$pins" "$venv/tools.txt"; then
    echo "==> installing the linters of scripts/deploycheck/tools.txt from PyPI into $venv" >&2
    rm -rf "$venv"
    if python3 -m venv "$venv" >"$log" 2>&1 &&
        "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$pins" >>"$log" 2>&1; then
        cp "$pins" "$venv/tools.txt"
    else
        rm -rf "$venv"
        echo "pip could not install scripts/deploycheck/tools.txt; see $log" >&2
        exit 1
    fi
fi
point
