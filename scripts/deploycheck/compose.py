"""Checks of docker-compose.yml and deploy/compose.env.example, run by scripts/validate-deploy.sh:

    PYTHONPATH=scripts python3 -m deploycheck.compose ROOT RENDERED

RENDERED is the output of `docker-compose config` (with deploy/compose.env.example); the shell
runs that command, and its refusals (a bad file, a file that renders without credentials). Checks:

- roles: every service present; serve's healthcheck probes /ready/hook and ingest's /ready, they
  listen on 0.0.0.0 and build from deploy/Dockerfile; one ingest consumer group; flows mounted
  read-only; the simulator only under its profile; kafka-init creates the three topics;
  SWITCHBOARD_KAFKA_PROPERTIES reaches every role that talks to Kafka;
- postgres: pg_isready over TCP (the image's init server answers on the socket first), and
  migrate waits for it healthy;
- Kafka: each KRaft CLUSTER_ID is a 16-byte UUID in base64url without padding;
- ports: every published port binds 127.0.0.1;
- credentials: no password or token in docker-compose.yml (required variables, ${VAR:?...});
  deploy/compose.env.example gives each required one, >= 16 bytes where the roles require it,
  none a placeholder, each database login's password its own;
- database logins (deploy/docs/database-roles.md): each role that uses PostgreSQL names its
  login in SWITCHBOARD_DATABASE_URL (serve's read-only staffing in SWITCHBOARD_STAFFING_DATABASE_URL,
  which no other role takes); none is the superuser (postgres' POSTGRES_USER), only migrate is the
  owner, and serve, receive and simulate get no SWITCHBOARD_DATABASE_URL; the password variable of
  each URL is given to postgres, whose init script (in /docker-entrypoint-initdb.d) sets it.

Prints each check's summary; exits 1 with the list of problems.
"""

import base64
import binascii
import json
import os
import re
import shlex
import sys

import yaml

from .common import PLACEHOLDER_WORDS, Report, load_all

C = "compose"
F = "docker-compose.yml"
SERVICES = ("kafka", "kafka-init", "postgres", "migrate", "ingest-1", "ingest-2", "serve")
TOPICS = ("contact-records", "agent-events", "contact-events")
CLUSTER_ID_KEYS = ("CLUSTER_ID", "KAFKA_CLUSTER_ID", "KAFKA_KRAFT_CLUSTER_ID")
# PostgreSQL's passwords: the superuser's (the image's POSTGRES_PASSWORD) and one per login the
# init script creates (deploy/postgres-init/roles.psql).
DATABASE_PASSWORD_KEYS = ("POSTGRES_PASSWORD", "POSTGRES_OWNER_PASSWORD", "POSTGRES_INGEST_PASSWORD",
                          "POSTGRES_RETENTION_PASSWORD", "POSTGRES_SERVE_PASSWORD")
SECRET_KEYS = DATABASE_PASSWORD_KEYS + ("SWITCHBOARD_HOOK_TOKENS", "SWITCHBOARD_HOOK_HMAC_SECRET",
                                        "SWITCHBOARD_HOOK_HMAC_PREVIOUS_SECRET", "SWITCHBOARD_CONSOLE_TOKENS")
# What docker-compose.yml requires (validate-deploy.sh checks that it refuses to render without each).
REQUIRED_IN_EXAMPLE = ("POSTGRES_PASSWORD", "POSTGRES_OWNER_PASSWORD", "POSTGRES_INGEST_PASSWORD",
                       "POSTGRES_SERVE_PASSWORD", "SWITCHBOARD_HOOK_TOKENS", "SWITCHBOARD_CONSOLE_TOKENS")
REQUIRED_VAR = re.compile(r"^\$\{[A-Za-z_][A-Za-z0-9_]*:?\?[^}]*\}$")
MIN_CREDENTIAL_BYTES = 16
# The roles that never connect to PostgreSQL through SWITCHBOARD_DATABASE_URL (the image's default
# command is serve); serve reads staffing through SWITCHBOARD_STAFFING_DATABASE_URL, which only it takes.
NO_DATABASE_ROLES = ("serve", "receive", "simulate")
# Each setting that holds a database URL, and the roles that may have it (None: any but NO_DATABASE_ROLES).
DATABASE_URL_KEYS = {"SWITCHBOARD_DATABASE_URL": None, "SWITCHBOARD_STAFFING_DATABASE_URL": ("serve",)}
# A postgres:// URL's user and password (the password may be a ${VAR:?...} reference).
DATABASE_URL = re.compile(r"^[a-z]+://(?:(?P<user>[^:@/]*)(?::(?P<password>[^@]*))?@)?")
INITDB_DIR = "/docker-entrypoint-initdb.d/"


def env_of(service):
    """A service's environment as a mapping (compose accepts a list of KEY=VALUE too)."""
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) if "=" in item else (item, None) for item in env)
    return env


def roles(report, services, raw_services):
    """The Switchboard roles: healthchecks, listen address, image, consumer group, flows, topics."""
    for service in SERVICES:
        if service not in services:
            report.problem(C, F, f"service {service} missing")
    switchboard_services = [n for n, s in services.items()
                            if (s.get("build") or {}).get("dockerfile") == "deploy/Dockerfile"
                            or str(s.get("image", "")).startswith("switchboard")]
    for name in ("ingest-1", "ingest-2", "serve"):
        s = services.get(name, {})
        tests = json.dumps((s.get("healthcheck") or {}).get("test", ""))
        want = "/ready/hook" if name == "serve" else "/ready"
        if not re.search(re.escape(want) + r'(?![\w/])', tests):
            report.problem(C, F, f"{name}: healthcheck must probe {want}, got {tests}")
        if env_of(s).get("SWITCHBOARD_HTTP_HOST") != "0.0.0.0":
            report.problem(C, F, f"{name}: SWITCHBOARD_HTTP_HOST must be 0.0.0.0")
        if (s.get("build") or {}).get("dockerfile") != "deploy/Dockerfile":
            report.problem(C, F, f"{name}: must build from deploy/Dockerfile")
    groups = {env_of(services[n]).get("SWITCHBOARD_INGEST_GROUP") for n in ("ingest-1", "ingest-2") if n in services}
    if len(groups) != 1:
        report.problem(C, F, f"ingest replicas must share one consumer group, got {groups}")
    if not any(":ro" in str(v) and "flows" in str(v) for v in services.get("serve", {}).get("volumes", [])):
        report.problem(C, F, "serve: flows must be mounted read-only")
    if (raw_services.get("simulator") or {}).get("profiles") != ["simulator"]:
        report.problem(C, F, "simulator: profiles must be [simulator]")
    init = json.dumps(services.get("kafka-init", {}))
    for topic in TOPICS:
        if topic not in init:
            report.problem(C, F, f"kafka-init does not create {topic}")
    # Every role that talks to Kafka gets the same client properties (TLS/SASL reach every client).
    kafka_roles = sorted({n for n in switchboard_services if n != "migrate"}
                         | ({"simulator"} if "simulator" in raw_services else set()))
    for name in kafka_roles:
        s = services.get(name) or raw_services.get(name) or {}
        if "SWITCHBOARD_KAFKA_PROPERTIES" not in env_of(s):
            report.problem(C, F, f"{name}: SWITCHBOARD_KAFKA_PROPERTIES is not passed (Kafka TLS/SASL must reach every role)")
    report.say(f"{F}: healthchecks (serve /ready/hook, ingest /ready), one ingest group, read-only flows, simulator profile, "
               f"topics, Kafka properties for {sorted(kafka_roles)}")


def postgres(report, services):
    """postgres is probed over TCP, so that a healthy postgres is the real server, not the init one."""
    pg = services.get("postgres", {})
    pg_test = (pg.get("healthcheck") or {}).get("test")
    if isinstance(pg_test, list) and pg_test[:1] == ["CMD-SHELL"] and len(pg_test) > 1:
        pg_words = shlex.split(pg_test[1])
    else:
        pg_words = pg_test[1:] if isinstance(pg_test, list) else shlex.split(pg_test or "")
    if "pg_isready" not in " ".join(pg_words):
        report.problem(C, F, f"postgres: healthcheck must run pg_isready, got {pg_test}")
    else:
        host = None
        for i, w in enumerate(pg_words):
            if w in ("-h", "--host") and i + 1 < len(pg_words):
                host = pg_words[i + 1]
            elif w.startswith("--host="):
                host = w.split("=", 1)[1]
        if not host or host.startswith("/"):
            report.problem(C, F, "postgres: pg_isready must probe TCP (-h 127.0.0.1 -p 5432): over the socket the image's "
                                 "init server answers before TCP listens, and the one-shot migrate can lose that race "
                                 f"(got {pg_test})")
    depends = services.get("migrate", {}).get("depends_on")
    migrate_dep = (depends.get("postgres") or {}) if isinstance(depends, dict) else {}
    if migrate_dep.get("condition") != "service_healthy":
        report.problem(C, F, "migrate must depend on postgres: condition service_healthy")
    report.say(f"{F}: postgres healthcheck over TCP, migrate waits for it")


def cluster_ids(report, services):
    """A KRaft cluster id is a UUID: 16 bytes in base64url without padding (22 characters)."""
    count = 0
    for name, s in services.items():
        env = env_of(s)
        for key, value in env.items():
            if key not in CLUSTER_ID_KEYS:
                continue
            count += 1
            text = str(value)
            try:
                decoded = base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)
            except (binascii.Error, ValueError) as error:
                report.problem(C, F, f"{name}: {key}={text} is not base64url: {error}")
                continue
            if len(decoded) != 16 or len(text) != 22 or not re.fullmatch(r"[A-Za-z0-9_-]{22}", text):
                report.problem(C, F, f"{name}: {key}={text} decodes to {len(decoded)} bytes ({len(text)} characters); "
                                     "Kafka needs a 16-byte UUID in base64url without padding (22 characters), or storage "
                                     "formatting fails and Kafka never starts")
        if "KAFKA_PROCESS_ROLES" in env and not any(k in env for k in CLUSTER_ID_KEYS):
            report.problem(C, F, f"{name}: a KRaft node needs CLUSTER_ID")
    report.say(f"{F}: {count} KRaft cluster id(s), each a 16-byte base64url UUID")


def ports(report, services):
    """Published ports bind loopback only."""
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
                    report.problem(C, F, f"{name}: port {text} publishes on a random port of every interface; "
                                         "bind 127.0.0.1:HOST:CONTAINER")
                    continue
            if host_ip not in ("127.0.0.1", "::1", "[::1]", "localhost"):
                report.problem(C, F, f"{name}: port {text} binds every interface; publish on 127.0.0.1 only")
    report.say(f"{F}: {published} published port(s), all on 127.0.0.1")


def no_credentials(report, raw_services):
    """No credential in the file: the values must be required variables (${VAR:?message})."""
    for name, s in raw_services.items():
        env = env_of(s)
        for key in SECRET_KEYS:
            if key in env and not REQUIRED_VAR.match(str(env[key])):
                report.problem(C, F, f"{name}: {key} has a value in the file ({env[key]!r}); "
                                     f"use ${{{key}:?...}} (deploy/compose.env.example)")
        for key in DATABASE_URL_KEYS:
            url = env.get(key)
            if url:
                m = re.match(r"^[a-z]+://[^:@/]+:(.*)@", str(url))
                if m and not REQUIRED_VAR.match(m.group(1)):
                    report.problem(C, F, f"{name}: {key} carries a password ({m.group(1)!r}); "
                                         "use its login's ${POSTGRES_…_PASSWORD:?...}")
    report.say(f"{F}: no password or token in the file")


def role_of(service):
    """The Switchboard command a service runs: the first word of its command (the image runs serve)."""
    command = service.get("command")
    words = shlex.split(command) if isinstance(command, str) else [str(w) for w in command or []]
    return words[0] if words else "serve"


def database_logins(report, raw_services):
    """Each role connects as a login of its own: never the superuser, the owner only for migrate."""
    postgres = raw_services.get("postgres") or {}
    postgres_env = env_of(postgres)
    superuser = str(postgres_env.get("POSTGRES_USER") or "postgres")
    logins = {}   # service (and the key, for a second URL) -> (role, user, its password's variable)
    for name, s in raw_services.items():
        role = role_of(s)
        for key, only in DATABASE_URL_KEYS.items():
            url = env_of(s).get(key)
            if url is None:
                continue
            if (only is None and role in NO_DATABASE_ROLES) or (only is not None and role not in only):
                report.problem(C, F, f"{name}: `{role}` never connects to PostgreSQL through {key}: give it none")
                continue
            m = DATABASE_URL.match(str(url))
            user = m.group("user") if m else None
            if not user:
                report.problem(C, F, f"{name}: {key} names no user; each role connects as a login of its own")
                continue
            password = (m.group("password") or "") if m else ""
            if not password:
                report.problem(C, F, f"{name}: {key} has no password; over the network the postgres "
                                     "image requires one (${POSTGRES_…_PASSWORD:?...})")
            variable = re.match(r"^\$\{([A-Za-z_][A-Za-z0-9_]*)", password)
            logins[name if key == "SWITCHBOARD_DATABASE_URL" else f"{name} ({key})"] = (
                role, user, variable.group(1) if variable else None)
            if user == superuser:
                report.problem(C, F, f"{name}: connects as {user}, the superuser (POSTGRES_USER): use the role's own "
                                     "login (deploy/docs/database-roles.md)")
    owners = {user for role, user, _ in logins.values() if role == "migrate"}
    if not owners and any(role_of(s) == "migrate" for s in raw_services.values()):
        report.problem(C, F, "migrate: no SWITCHBOARD_DATABASE_URL (it connects as the schema's owner)")
    for name, (role, user, _) in sorted(logins.items()):
        if role != "migrate" and user in owners:
            report.problem(C, F, f"{name}: connects as {user}, the schema's owner (migrate's login): only migrate may; "
                                 f"`{role}` gets a login of its own")
    # The password each role connects with is the one the init script sets for its login.
    initdb = [str(v) for v in postgres.get("volumes") or [] if INITDB_DIR in str(v)]
    if logins and not initdb:
        report.problem(C, F, f"postgres: no init script in {INITDB_DIR} creates the roles' logins "
                             "(deploy/postgres-init/compose-initdb.sh)")
    users_of = {}
    for name, (_, user, variable) in sorted(logins.items()):
        if variable is None:
            continue
        if variable not in postgres_env:
            report.problem(C, F, f"postgres: {variable} (the password {name} connects with) is not in its environment, "
                                 "so the init script cannot set it")
        users_of.setdefault(variable, set()).add(user)
    for variable, users in sorted(users_of.items()):
        if len(users) > 1:
            report.problem(C, F, f"{variable} is the password of several logins ({', '.join(sorted(users))}): one each")
    report.say(f"{F}: database logins " + ", ".join(f"{n} as {u}" for n, (_, u, _) in sorted(logins.items()))
               + f"; none the superuser {superuser}, only migrate the owner")


def parse_env_file(text):
    """KEY=VALUE lines of an env file (comments and blank lines skipped, one level of quotes removed)."""
    env = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            env[key.strip()] = value.strip().strip('"').strip("'")
    return env


def credential_problems(key, value):
    """What the roles' start checks would refuse in `key=value` (empty: nothing)."""
    found = []
    if key in ("SWITCHBOARD_HOOK_TOKENS", "SWITCHBOARD_CONSOLE_TOKENS", "SWITCHBOARD_FIREHOSE_ACCESS_KEYS",
               "SWITCHBOARD_MCP_TOKENS"):
        parts = [p.strip() for p in value.split(",") if p.strip()]
    elif key in ("SWITCHBOARD_HOOK_HMAC_SECRET", "SWITCHBOARD_HOOK_HMAC_PREVIOUS_SECRET"):
        parts = [value] if value else []
    elif key in DATABASE_PASSWORD_KEYS:
        return [f"{key} contains a placeholder word"] if PLACEHOLDER_WORDS.search(value) else []
    elif key in DATABASE_URL_KEYS:
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


def env_example(report, text):
    """deploy/compose.env.example: the local credentials are real enough for the roles' start checks
    (each token / secret / key >= 16 bytes; no CHANGE-ME / changeme / PLACEHOLDER in any credential)."""
    where = "deploy/compose.env.example"
    env = parse_env_file(text)
    for key in REQUIRED_IN_EXAMPLE:
        if not env.get(key):
            report.problem(C, where, f"{key} has no value (docker-compose.yml requires it)")
    for key, value in env.items():
        for message in credential_problems(key, value):
            report.problem(C, where, message)
    passwords = {}
    for key in DATABASE_PASSWORD_KEYS:
        if env.get(key):
            passwords.setdefault(env[key], []).append(key)
    for keys in passwords.values():
        if len(keys) > 1:
            report.problem(C, where, f"{' and '.join(keys)} are the same password: each login gets its own")
    report.say(f"{where}: every credential >= 16 bytes where the roles require it, no placeholder, "
               "a password per database login")


def check(report, raw, rendered, example_text):
    """Every check: `raw` is docker-compose.yml as written, `rendered` as `docker-compose config` gives it."""
    services = (rendered or {}).get("services", {}) or {}
    raw_services = (raw or {}).get("services", {}) or {}
    roles(report, services, raw_services)
    postgres(report, services)
    cluster_ids(report, services)
    ports(report, services)
    no_credentials(report, raw_services)
    database_logins(report, raw_services)
    env_example(report, example_text)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print("usage: python3 -m deploycheck.compose ROOT RENDERED", file=sys.stderr)
        return 2
    root, rendered_path = argv
    report = Report("deploycheck.compose")
    with open(os.path.join(root, "docker-compose.yml"), encoding="utf-8") as f:
        raw = yaml.safe_load(f)
    rendered = load_all(report, rendered_path, root)
    with open(os.path.join(root, "deploy", "compose.env.example"), encoding="utf-8") as f:
        example_text = f.read()
    check(report, raw, rendered[0] if rendered else {}, example_text)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
