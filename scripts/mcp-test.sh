#!/usr/bin/env bash
# The MCP endpoint driven by the official MCP Python SDK (scripts/mcp-test.py):
#
#   scripts/mcp-test.sh
#
# Installs the SDK (`mcp`), PyJWT and cryptography from PyPI into a virtual environment under
# .build/mcp-python/ (once), starts a throwaway PostgreSQL for `switchboard dev`, runs the test
# and stops the server even when the test fails. SWITCHBOARD_BINARY names the binary (default:
# the debug build's).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

venv=.build/mcp-python
if ! "$venv/bin/python" -c 'import mcp, jwt, cryptography, httpx2' 2>/dev/null; then
    log "installing the MCP Python SDK, PyJWT and cryptography into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check mcp pyjwt cryptography
fi
export SWITCHBOARD_BINARY="${SWITCHBOARD_BINARY:-$(swift build --show-bin-path)/switchboard}"

work=$(mktemp -d /tmp/switchboard-mcp.XXXXXX)
chmod 755 "$work"
pg_port=$(free_port)
cleanup() {
    stop_postgres "$work/postgres"
    rm -rf "$work"
}
trap cleanup EXIT INT TERM
start_postgres "$work/postgres" "$pg_port" fast
create_database "$pg_port" switchboard
export SWITCHBOARD_DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/switchboard"

log "the MCP endpoint of switchboard dev, driven by the MCP Python SDK"
"$venv/bin/python" -W error::ResourceWarning scripts/mcp-test.py
