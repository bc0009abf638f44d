import copy
import unittest

from .. import compose
from .support import CheckerTest, report

SWITCHBOARD_ENV = {
    "SWITCHBOARD_KAFKA_PROPERTIES": "",
    "SWITCHBOARD_HTTP_HOST": "0.0.0.0",
    "SWITCHBOARD_INGEST_GROUP": "switchboard-ingest",
    "SWITCHBOARD_HOOK_TOKENS": "${SWITCHBOARD_HOOK_TOKENS:?set it}",
    "SWITCHBOARD_CONSOLE_TOKENS": "${SWITCHBOARD_CONSOLE_TOKENS:?set it}",
}
BUILD = {"context": ".", "dockerfile": "deploy/Dockerfile"}
OWNER_URL = "postgres://switchboard_owner:${POSTGRES_OWNER_PASSWORD:?set it}@postgres:5432/switchboard"
INGEST_URL = "postgres://switchboard_ingest:${POSTGRES_INGEST_PASSWORD:?set it}@postgres:5432/switchboard"
SERVE_URL = "postgres://switchboard_serve:${POSTGRES_SERVE_PASSWORD:?set it}@postgres:5432/switchboard"


def role_env(url=None):
    env = dict(SWITCHBOARD_ENV)
    if url:
        env["SWITCHBOARD_DATABASE_URL"] = url
    return env


def ready(path):
    return {"test": ["CMD", "curl", "-fsS", f"http://127.0.0.1:8080{path}"]}


# docker-compose.yml as written, cut down to what the checks read.
GOOD = {"services": {
    "kafka": {
        "image": "apache/kafka:3.8.0",
        "environment": {"KAFKA_PROCESS_ROLES": "broker,controller", "CLUSTER_ID": "X7tr-Ie9TYyFmu71cfa8xg"},
        "ports": ["127.0.0.1:29092:29092"],
    },
    "kafka-init": {"image": "apache/kafka:3.8.0",
                   "command": ["for topic in contact-records agent-events contact-events; do create; done"]},
    "postgres": {
        "image": "postgres:16",
        "environment": {"POSTGRES_USER": "postgres", "POSTGRES_PASSWORD": "${POSTGRES_PASSWORD:?set it}",
                        "POSTGRES_OWNER_PASSWORD": "${POSTGRES_OWNER_PASSWORD:?set it}",
                        "POSTGRES_INGEST_PASSWORD": "${POSTGRES_INGEST_PASSWORD:?set it}",
                        "POSTGRES_SERVE_PASSWORD": "${POSTGRES_SERVE_PASSWORD:?set it}"},
        "ports": ["127.0.0.1:5432:5432"],
        "volumes": ["postgres-data:/var/lib/postgresql/data",
                    "./deploy/postgres-init/compose-initdb.sh:/docker-entrypoint-initdb.d/10-switchboard-roles.sh:ro"],
        "healthcheck": {"test": ["CMD", "pg_isready", "-h", "127.0.0.1", "-p", "5432"]},
    },
    "migrate": {"image": "switchboard:latest", "build": BUILD, "command": ["migrate"], "environment": role_env(OWNER_URL),
                "depends_on": {"postgres": {"condition": "service_healthy"}}},
    "ingest-1": {"image": "switchboard:latest", "build": BUILD, "command": ["ingest"], "environment": role_env(INGEST_URL),
                 "healthcheck": ready("/ready")},
    "ingest-2": {"image": "switchboard:latest", "build": BUILD, "command": ["ingest"], "environment": role_env(INGEST_URL),
                 "healthcheck": ready("/ready")},
    "serve": {"image": "switchboard:latest", "build": BUILD, "command": ["serve"],
              "environment": {**role_env(), "SWITCHBOARD_STAFFING_DATABASE_URL": SERVE_URL},
              "healthcheck": ready("/ready/hook"), "volumes": ["./flows:/flows:ro"], "ports": ["127.0.0.1:8080:8080"]},
    "simulator": {"image": "switchboard:latest", "build": BUILD, "profiles": ["simulator"],
                  "command": ["simulate", "--bootstrap", "kafka:9092"],
                  "environment": {"SWITCHBOARD_KAFKA_PROPERTIES": ""}},
}}
GOOD_EXAMPLE = """\
# local-only credentials
POSTGRES_PASSWORD=local-postgres-password
POSTGRES_OWNER_PASSWORD=local-owner-password
POSTGRES_INGEST_PASSWORD=local-ingest-password
POSTGRES_SERVE_PASSWORD=local-serve-password
SWITCHBOARD_HOOK_TOKENS=local-hook-token-0123456789
SWITCHBOARD_CONSOLE_TOKENS="local-console-token-0123456789"
SWITCHBOARD_KAFKA_PROPERTIES=
"""


def checked(raw, rendered=None, example=GOOD_EXAMPLE):
    r = report()
    compose.check(r, raw, raw if rendered is None else rendered, example)
    return r.problems


def good():
    return copy.deepcopy(GOOD)


class ComposeTest(CheckerTest):
    def test_good_file_passes(self):
        self.assertClean(checked(good()))

    def test_service_missing(self):
        doc = good()
        del doc["services"]["kafka-init"]
        self.assertReports(checked(doc), "service kafka-init missing")

    def test_serve_without_healthcheck(self):
        doc = good()
        del doc["services"]["serve"]["healthcheck"]
        self.assertReports(checked(doc), "serve: healthcheck must probe /ready/hook")

    def test_serve_probing_ready_instead_of_ready_hook(self):
        doc = good()
        doc["services"]["serve"]["healthcheck"] = ready("/ready")
        self.assertReports(checked(doc), "serve: healthcheck must probe /ready/hook")

    def test_ingest_probing_a_longer_path(self):
        doc = good()
        doc["services"]["ingest-1"]["healthcheck"] = ready("/ready/hook")
        self.assertReports(checked(doc), "ingest-1: healthcheck must probe /ready")

    def test_listening_on_loopback_in_the_container(self):
        doc = good()
        doc["services"]["ingest-2"]["environment"]["SWITCHBOARD_HTTP_HOST"] = "127.0.0.1"
        self.assertReports(checked(doc), "ingest-2: SWITCHBOARD_HTTP_HOST must be 0.0.0.0")

    def test_role_built_from_another_dockerfile(self):
        doc = good()
        doc["services"]["ingest-1"]["build"] = {"context": ".", "dockerfile": "Dockerfile.dev"}
        self.assertReports(checked(doc), "ingest-1: must build from deploy/Dockerfile")

    def test_two_ingest_groups(self):
        doc = good()
        doc["services"]["ingest-2"]["environment"]["SWITCHBOARD_INGEST_GROUP"] = "other"
        self.assertReports(checked(doc), "ingest replicas must share one consumer group")

    def test_flows_mounted_writable(self):
        doc = good()
        doc["services"]["serve"]["volumes"] = ["./flows:/flows"]
        self.assertReports(checked(doc), "serve: flows must be mounted read-only")

    def test_simulator_without_its_profile(self):
        doc = good()
        del doc["services"]["simulator"]["profiles"]
        self.assertReports(checked(doc), "simulator: profiles must be [simulator]")

    def test_topic_not_created(self):
        doc = good()
        doc["services"]["kafka-init"]["command"] = ["create contact-records agent-events"]
        self.assertReports(checked(doc), "kafka-init does not create contact-events")

    def test_role_without_kafka_properties(self):
        doc = good()
        del doc["services"]["serve"]["environment"]["SWITCHBOARD_KAFKA_PROPERTIES"]
        self.assertReports(checked(doc), "serve: SWITCHBOARD_KAFKA_PROPERTIES is not passed")

    def test_simulator_without_kafka_properties(self):
        doc = good()
        doc["services"]["simulator"]["environment"] = ["SWITCHBOARD_LOG_LEVEL=debug"]
        self.assertReports(checked(doc), "simulator: SWITCHBOARD_KAFKA_PROPERTIES is not passed")

    def test_postgres_probed_over_the_socket(self):
        doc = good()
        doc["services"]["postgres"]["healthcheck"] = {"test": ["CMD-SHELL", "pg_isready -U switchboard"]}
        self.assertReports(checked(doc), "postgres: pg_isready must probe TCP")

    def test_postgres_probed_over_tcp_in_a_shell(self):
        doc = good()
        doc["services"]["postgres"]["healthcheck"] = {"test": ["CMD-SHELL", "pg_isready --host=127.0.0.1 -U switchboard"]}
        self.assertClean(checked(doc))

    def test_postgres_without_pg_isready(self):
        doc = good()
        doc["services"]["postgres"]["healthcheck"] = {"test": ["CMD", "true"]}
        self.assertReports(checked(doc), "postgres: healthcheck must run pg_isready")

    def test_migrate_does_not_wait_for_a_healthy_postgres(self):
        doc = good()
        doc["services"]["migrate"]["depends_on"] = ["postgres"]
        self.assertReports(checked(doc), "migrate must depend on postgres: condition service_healthy")

    def test_cluster_id_of_the_wrong_length(self):
        doc = good()
        doc["services"]["kafka"]["environment"]["CLUSTER_ID"] = "MkU3OEVBNTcwNTJENDM2Qk"   # 22 characters, 16 bytes: fine
        self.assertClean(checked(doc))
        doc["services"]["kafka"]["environment"]["CLUSTER_ID"] = "4L6g3nShT-eMCtK--X86sw4"  # 23 characters
        self.assertReports(checked(doc), "kafka: CLUSTER_ID=4L6g3nShT-eMCtK--X86sw4", "Kafka needs a 16-byte UUID")

    def test_cluster_id_not_base64url(self):
        doc = good()
        doc["services"]["kafka"]["environment"]["CLUSTER_ID"] = "not a cluster id!"
        self.assertReports(checked(doc), "kafka: CLUSTER_ID=not a cluster id! is not base64url")

    def test_kraft_node_without_cluster_id(self):
        doc = good()
        del doc["services"]["kafka"]["environment"]["CLUSTER_ID"]
        self.assertReports(checked(doc), "kafka: a KRaft node needs CLUSTER_ID")

    def test_port_on_every_interface(self):
        doc = good()
        doc["services"]["serve"]["ports"] = ["8080:8080"]
        self.assertReports(checked(doc), "serve: port 8080:8080 binds every interface")

    def test_port_without_host_port(self):
        doc = good()
        doc["services"]["serve"]["ports"] = ["8080"]
        self.assertReports(checked(doc), "serve: port 8080 publishes on a random port of every interface")

    def test_rendered_port_on_every_interface(self):
        doc = good()
        rendered = good()
        rendered["services"]["postgres"]["ports"] = [{"mode": "ingress", "target": 5432, "published": "5432", "protocol": "tcp"}]
        self.assertReports(checked(doc, rendered), "postgres: port", "binds every interface")
        rendered["services"]["postgres"]["ports"][0]["host_ip"] = "127.0.0.1"
        self.assertClean(checked(doc, rendered))

    def test_password_in_the_file(self):
        doc = good()
        doc["services"]["postgres"]["environment"]["POSTGRES_PASSWORD"] = "switchboard"
        self.assertReports(checked(doc), "postgres: POSTGRES_PASSWORD has a value in the file ('switchboard')")

    def test_default_token_in_the_file(self):
        doc = good()
        doc["services"]["serve"]["environment"]["SWITCHBOARD_HOOK_TOKENS"] = "${SWITCHBOARD_HOOK_TOKENS:-dev-token}"
        self.assertReports(checked(doc), "serve: SWITCHBOARD_HOOK_TOKENS has a value in the file")

    def test_password_in_the_database_url(self):
        doc = good()
        doc["services"]["migrate"]["environment"]["SWITCHBOARD_DATABASE_URL"] = "postgres://switchboard:secret@postgres/switchboard"
        self.assertReports(checked(doc), "migrate: SWITCHBOARD_DATABASE_URL carries a password ('secret')")

    def test_ingest_as_the_owner(self):
        doc = good()
        doc["services"]["ingest-2"]["environment"]["SWITCHBOARD_DATABASE_URL"] = OWNER_URL
        self.assertReports(checked(doc), "ingest-2: connects as switchboard_owner, the schema's owner (migrate's login)")

    def test_ingest_as_the_superuser(self):
        doc = good()
        doc["services"]["ingest-1"]["environment"]["SWITCHBOARD_DATABASE_URL"] = \
            "postgres://postgres:${POSTGRES_PASSWORD:?set it}@postgres:5432/switchboard"
        self.assertReports(checked(doc), "ingest-1: connects as postgres, the superuser (POSTGRES_USER)")

    def test_migrate_as_the_superuser(self):
        doc = good()
        doc["services"]["postgres"]["environment"]["POSTGRES_USER"] = "switchboard"
        doc["services"]["migrate"]["environment"]["SWITCHBOARD_DATABASE_URL"] = \
            "postgres://switchboard:${POSTGRES_PASSWORD:?set it}@postgres:5432/switchboard"
        self.assertReports(checked(doc), "migrate: connects as switchboard, the superuser (POSTGRES_USER)")

    def test_superuser_by_the_image_default(self):
        doc = good()
        del doc["services"]["postgres"]["environment"]["POSTGRES_USER"]
        doc["services"]["migrate"]["environment"]["SWITCHBOARD_DATABASE_URL"] = \
            "postgres://postgres:${POSTGRES_PASSWORD:?set it}@postgres:5432/switchboard"
        self.assertReports(checked(doc), "migrate: connects as postgres, the superuser")

    def test_url_without_user_or_password(self):
        doc = good()
        doc["services"]["ingest-1"]["environment"]["SWITCHBOARD_DATABASE_URL"] = "postgres://postgres:5432/switchboard"
        doc["services"]["ingest-2"]["environment"]["SWITCHBOARD_DATABASE_URL"] = "postgres://switchboard_ingest@postgres/switchboard"
        problems = checked(doc)
        self.assertReports(problems, "ingest-1: SWITCHBOARD_DATABASE_URL names no user")
        self.assertReports(problems, "ingest-2: SWITCHBOARD_DATABASE_URL has no password")

    def test_migrate_without_a_database_url(self):
        doc = good()
        del doc["services"]["migrate"]["environment"]["SWITCHBOARD_DATABASE_URL"]
        self.assertReports(checked(doc), "migrate: no SWITCHBOARD_DATABASE_URL")

    def test_serve_and_simulator_with_a_database_url(self):
        doc = good()
        doc["services"]["serve"]["environment"]["SWITCHBOARD_DATABASE_URL"] = INGEST_URL
        doc["services"]["simulator"]["environment"]["SWITCHBOARD_DATABASE_URL"] = INGEST_URL
        problems = checked(doc)
        self.assertReports(problems, "serve: `serve` never connects to PostgreSQL")
        self.assertReports(problems, "simulator: `simulate` never connects to PostgreSQL")

    def test_staffing_url_only_for_serve_and_as_its_own_login(self):
        doc = good()
        doc["services"]["ingest-1"]["environment"]["SWITCHBOARD_STAFFING_DATABASE_URL"] = SERVE_URL
        self.assertReports(checked(doc), "ingest-1: `ingest` never connects to PostgreSQL through "
                                         "SWITCHBOARD_STAFFING_DATABASE_URL")
        doc = good()
        doc["services"]["serve"]["environment"]["SWITCHBOARD_STAFFING_DATABASE_URL"] = OWNER_URL
        self.assertReports(checked(doc), "serve (SWITCHBOARD_STAFFING_DATABASE_URL): connects as switchboard_owner, "
                                         "the schema's owner")
        doc = good()
        doc["services"]["serve"]["environment"]["SWITCHBOARD_STAFFING_DATABASE_URL"] = \
            "postgres://switchboard_serve:inline-password@postgres:5432/switchboard"
        self.assertReports(checked(doc), "serve: SWITCHBOARD_STAFFING_DATABASE_URL carries a password")

    def test_service_without_command_runs_serve(self):
        doc = good()
        del doc["services"]["serve"]["command"]
        doc["services"]["serve"]["environment"]["SWITCHBOARD_DATABASE_URL"] = INGEST_URL
        self.assertReports(checked(doc), "serve: `serve` never connects to PostgreSQL")

    def test_login_password_not_given_to_postgres(self):
        doc = good()
        del doc["services"]["postgres"]["environment"]["POSTGRES_INGEST_PASSWORD"]
        self.assertReports(checked(doc), "postgres: POSTGRES_INGEST_PASSWORD (the password ingest-1 connects with) "
                                         "is not in its environment")

    def test_no_init_script(self):
        doc = good()
        doc["services"]["postgres"]["volumes"] = ["postgres-data:/var/lib/postgresql/data"]
        self.assertReports(checked(doc), "postgres: no init script in /docker-entrypoint-initdb.d/")

    def test_two_logins_one_password(self):
        doc = good()
        doc["services"]["ingest-1"]["environment"]["SWITCHBOARD_DATABASE_URL"] = \
            "postgres://switchboard_ingest:${POSTGRES_OWNER_PASSWORD:?set it}@postgres:5432/switchboard"
        self.assertReports(checked(doc), "POSTGRES_OWNER_PASSWORD is the password of several logins "
                                         "(switchboard_ingest, switchboard_owner)")

    def test_login_password_in_the_file(self):
        doc = good()
        doc["services"]["postgres"]["environment"]["POSTGRES_INGEST_PASSWORD"] = "ingest-password"
        self.assertReports(checked(doc), "postgres: POSTGRES_INGEST_PASSWORD has a value in the file")


class EnvExampleTest(CheckerTest):
    def env_problems(self, text):
        r = report()
        compose.env_example(r, text)
        return r.problems

    def test_good_example_passes(self):
        self.assertClean(self.env_problems(GOOD_EXAMPLE))

    def test_required_credential_missing(self):
        text = GOOD_EXAMPLE.replace("SWITCHBOARD_CONSOLE_TOKENS=", "# SWITCHBOARD_CONSOLE_TOKENS=")
        self.assertReports(self.env_problems(text), "SWITCHBOARD_CONSOLE_TOKENS has no value")

    def test_short_token(self):
        text = GOOD_EXAMPLE + "SWITCHBOARD_MCP_TOKENS=long-enough-mcp-token-1,short\n"
        self.assertReports(self.env_problems(text), "SWITCHBOARD_MCP_TOKENS has a value of 5 bytes (< 16")

    def test_short_hmac_secret(self):
        text = GOOD_EXAMPLE + "SWITCHBOARD_HOOK_HMAC_SECRET=0123456789\n"
        self.assertReports(self.env_problems(text), "SWITCHBOARD_HOOK_HMAC_SECRET has a value of 10 bytes")

    def test_placeholder_password(self):
        text = GOOD_EXAMPLE.replace("local-postgres-password", "CHANGE-ME")
        self.assertReports(self.env_problems(text), "POSTGRES_PASSWORD contains a placeholder word")

    def test_placeholder_token(self):
        text = GOOD_EXAMPLE.replace("local-hook-token-0123456789", "changeme-changeme-changeme")
        self.assertReports(self.env_problems(text), "SWITCHBOARD_HOOK_TOKENS contains a placeholder word")

    def test_login_password_missing(self):
        text = GOOD_EXAMPLE.replace("POSTGRES_INGEST_PASSWORD=local-ingest-password\n", "")
        self.assertReports(self.env_problems(text), "POSTGRES_INGEST_PASSWORD has no value")

    def test_placeholder_login_password(self):
        text = GOOD_EXAMPLE.replace("local-owner-password", "changeme")
        self.assertReports(self.env_problems(text), "POSTGRES_OWNER_PASSWORD contains a placeholder word")

    def test_logins_sharing_a_password(self):
        text = GOOD_EXAMPLE.replace("local-ingest-password", "local-owner-password")
        self.assertReports(self.env_problems(text), "POSTGRES_OWNER_PASSWORD and POSTGRES_INGEST_PASSWORD are the same password")

    def test_placeholder_in_database_url_and_sasl_password(self):
        text = GOOD_EXAMPLE.replace("SWITCHBOARD_KAFKA_PROPERTIES=", "SWITCHBOARD_KAFKA_PROPERTIES=sasl.username=u,sasl.password=PLACEHOLDER")
        text += "SWITCHBOARD_DATABASE_URL=postgres://switchboard:changeme@postgres/switchboard\n"
        problems = self.env_problems(text)
        self.assertReports(problems, "SWITCHBOARD_KAFKA_PROPERTIES's sasl.password contains a placeholder word")
        self.assertReports(problems, "SWITCHBOARD_DATABASE_URL's password contains a placeholder word")


if __name__ == "__main__":
    unittest.main()
