#!/usr/bin/env bash
# Switchboard's database roles for docker-compose.yml. The postgres image runs this once, when it
# initialises an empty volume (mounted as /docker-entrypoint-initdb.d/10-switchboard-roles.sh):
# roles.psql (mounted as /switchboard/roles.psql) creates the group roles and the logins, with the
# passwords POSTGRES_OWNER_PASSWORD (switchboard_owner, for migrate), POSTGRES_INGEST_PASSWORD
# (switchboard_ingest, for the ingest workers) and POSTGRES_SERVE_PASSWORD (switchboard_serve, for
# serve's read-only staffing) of the container's environment, and gives the
# database POSTGRES_DB to switchboard_owner. POSTGRES_USER, the image's superuser, stays the
# administrator's: no Switchboard role connects as it.
#
# The image executes this file, or sources it when it is not executable: it sets no shell option,
# and exits (the whole initialisation, when sourced) only on failure.

: "${POSTGRES_OWNER_PASSWORD:?set POSTGRES_OWNER_PASSWORD (cp deploy/compose.env.example .env)}"
: "${POSTGRES_INGEST_PASSWORD:?set POSTGRES_INGEST_PASSWORD (cp deploy/compose.env.example .env)}"
: "${POSTGRES_SERVE_PASSWORD:?set POSTGRES_SERVE_PASSWORD (cp deploy/compose.env.example .env)}"

# The image's temporary server listens on its socket only, and trusts it.
psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$POSTGRES_USER" --dbname postgres \
    --set database="$POSTGRES_DB" --file /switchboard/roles.psql || exit 1

# Like `make run`'s, this local stack lets switchboard_analyst itself log in, for
# `docker compose exec postgres psql -U switchboard_analyst switchboard`: without a password it
# can connect only from inside the container, which the image trusts, never through the port.
psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$POSTGRES_USER" --dbname postgres \
    --command 'ALTER ROLE switchboard_analyst LOGIN' || exit 1
