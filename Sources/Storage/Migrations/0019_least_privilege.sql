-- Migration 19: least privilege
--
-- No function is executable by PUBLIC: each role gets EXECUTE on what it uses from the
-- privileges file (Sources/Storage/Schema/privileges.sql), which every migrate applies after
-- the migrations and the schema's functions and views (Sources/Storage/Schema/functions/,
-- views/).

REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC;

-- Functions the migrating role creates from now on are not executable by PUBLIC either.
ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;

-- PostgreSQL 15 and later already refuse CREATE in public to PUBLIC; older servers (RDS offers
-- 13 and 14) allow it. Only the schema's owner can revoke it: anyone else is told to.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_namespace n, aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a
                   WHERE n.nspname = 'public' AND a.grantee = 0 AND a.privilege_type = 'CREATE') THEN
        NULL;
    ELSIF pg_has_role((SELECT nspowner FROM pg_namespace WHERE nspname = 'public'), 'MEMBER') THEN
        EXECUTE 'REVOKE CREATE ON SCHEMA public FROM PUBLIC';
    ELSE
        RAISE WARNING 'cannot revoke CREATE on schema public from PUBLIC: not the schema''s owner; ask an administrator to make the migrating role own it (deploy/README.md, "Database roles")';
    END IF;
END
$$;
